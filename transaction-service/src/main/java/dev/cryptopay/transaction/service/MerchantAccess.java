package dev.cryptopay.transaction.service;

import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.security.Caller;
import dev.cryptopay.support.security.IdentityClaims;
import dev.cryptopay.transaction.domain.MerchantView;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.util.Optional;
import java.util.UUID;

/**
 * Resolves the merchant a caller acts for against this service's merchant view (interface document,
 * Authentication; decisions §4):
 * <ul>
 * <li>API key + X-MID: the merchant of the key's account with that UUID or externalMID; unknown → 404;</li>
 * <li>publishable key {@code pk_…:<sub>}: that sub-merchant of the key's account; unknown → 401; a key scoped
 * to another merchant → 403;</li>
 * <li>publishable key scoped to a merchant: that merchant (gone from the view → 401);</li>
 * <li>unscoped publishable key without sub-merchant: the whole account — enough to read, not to create.</li>
 * </ul>
 */
@ApplicationScoped
public class MerchantAccess {

    @Transactional(Transactional.TxType.MANDATORY)
    public CallerScope scope(Caller caller) {
        UUID accountId = caller.accountId()
                .orElseThrow(() -> ApiException.unauthorized("This endpoint needs an account's key."));
        boolean publishable = caller.hasRole(IdentityClaims.ROLE_PUBLISHABLE);
        Optional<String> reference = caller.merchantRef();
        Optional<UUID> scoped = caller.merchantId();
        if (!publishable) {
            String mid = reference.orElseThrow(
                    () -> ApiException.validation("X-MID", "is required with an API key on this endpoint"));
            MerchantView merchant = MerchantView.resolve(accountId, mid)
                    .orElseThrow(() -> ApiException.notFound("Merchant " + mid));
            return new CallerScope(accountId, Optional.of(merchant), true);
        }
        if (reference.isPresent()) {
            MerchantView named = MerchantView.resolve(accountId, reference.get())
                    .orElseThrow(() -> ApiException.unauthorized("Unknown sub-merchant " + reference.get() + "."));
            if (scoped.isPresent() && !scoped.get().equals(named.merchantId)) {
                throw ApiException.forbidden("This publishable key is scoped to another merchant.");
            }
            return new CallerScope(accountId, Optional.of(named), false);
        }
        if (scoped.isPresent()) {
            MerchantView merchant = MerchantView.findForAccount(accountId, scoped.get())
                    .orElseThrow(() -> ApiException.unauthorized("The key's merchant is unknown."));
            return new CallerScope(accountId, Optional.of(merchant), false);
        }
        return new CallerScope(accountId, Optional.empty(), false);
    }

    /** The merchant a new transaction is for; an account-wide publishable key must name a sub-merchant. */
    @Transactional(Transactional.TxType.MANDATORY)
    public MerchantView forCreation(CallerScope scope) {
        return scope.merchant().orElseThrow(() -> new ApiException(400, "merchant_required", "Merchant required",
                "This publishable key is not scoped to a merchant: use a merchant-scoped publishable key, the "
                        + "sub-merchant form pk_…:<merchant UUID or externalMID>, or an API key with X-MID.",
                null, null));
    }
}

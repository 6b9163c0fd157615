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
 * Authentication; decisions §4). The gateway resolves X-MID and sub-merchant keys itself and passes the result
 * as {@code mid} (with what the caller wrote as {@code mid_ref}); this service trusts {@code mid} and resolves
 * {@code mid_ref} only when no {@code mid} came with it:
 * <ul>
 * <li>{@code mid}: that merchant of the caller's account; if {@code mid_ref} names a different merchant of the
 * account (a scoped key naming another one) → 403; not (yet) in the view → 503 with Retry-After, since the
 * gateway vouched for it and the merchants topic is merely behind;</li>
 * <li>only {@code mid_ref}: resolved by UUID or externalMID within the account; unknown → 404 for an API key's
 * X-MID, 401 for a publishable key's sub-merchant;</li>
 * <li>neither: an API key must send X-MID (400); an unscoped publishable key acts for the whole account —
 * enough to read and pay, not to create (see {@link #forCreation}).</li>
 * </ul>
 */
@ApplicationScoped
public class MerchantAccess {

    /** Retry-After of the answer for a merchant the gateway knows and this service does not yet. */
    static final long VIEW_LAG_RETRY_SECONDS = 1;

    @Transactional(Transactional.TxType.MANDATORY)
    public CallerScope scope(Caller caller) {
        UUID accountId = caller.accountId()
                .orElseThrow(() -> ApiException.unauthorized("This endpoint needs an account's key."));
        boolean apiKey = !caller.hasRole(IdentityClaims.ROLE_PUBLISHABLE);
        Optional<String> reference = caller.merchantRef();
        Optional<UUID> resolved = caller.merchantId();
        if (resolved.isPresent()) {
            MerchantView merchant = MerchantView.findForAccount(accountId, resolved.get())
                    .orElseThrow(() -> ApiException.unavailable("The merchant's configuration has not reached the "
                            + "transaction service yet; retry in a moment.", VIEW_LAG_RETRY_SECONDS));
            if (reference.isPresent()) {
                MerchantView named = MerchantView.resolve(accountId, reference.get()).orElse(merchant);
                if (!named.merchantId.equals(merchant.merchantId)) {
                    throw ApiException.forbidden("This publishable key is scoped to another merchant.");
                }
            }
            return new CallerScope(accountId, Optional.of(merchant), apiKey);
        }
        if (reference.isPresent()) {
            Optional<MerchantView> named = MerchantView.resolve(accountId, reference.get());
            if (named.isEmpty()) {
                throw apiKey ? ApiException.notFound("Merchant " + reference.get())
                        : ApiException.unauthorized("Unknown sub-merchant " + reference.get() + ".");
            }
            return new CallerScope(accountId, named, apiKey);
        }
        if (apiKey) {
            throw ApiException.validation("X-MID", "is required with an API key on this endpoint");
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

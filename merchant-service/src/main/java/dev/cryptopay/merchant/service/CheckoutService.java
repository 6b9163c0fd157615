package dev.cryptopay.merchant.service;

import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.merchant.domain.Account;
import dev.cryptopay.merchant.domain.Merchant;
import dev.cryptopay.merchant.domain.Settings.AccountSettings;
import dev.cryptopay.merchant.domain.Settings.CheckoutConfig;
import dev.cryptopay.merchant.domain.Settings.Support;
import dev.cryptopay.support.catalogue.Catalogue;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.security.Caller;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * What a checkout page learns with a publishable key: the merchant it acts for (scoped key, or the
 * {@code pk_…:<subMerchantId>} form resolved by UUID or externalMID) and that merchant's effective settings.
 */
@ApplicationScoped
public class CheckoutService {

    private final MerchantService merchants;
    private final MerchantEvents events;

    public CheckoutService(MerchantService merchants, MerchantEvents events) {
        this.merchants = merchants;
        this.events = events;
    }

    /** The settings a checkout needs, for the caller's merchant or, without one, its account. */
    public record CheckoutView(List<Catalogue.Asset> allowedAssets, boolean cancelTransactionEnabled,
            CheckoutConfig checkoutConfig, String settlementFrequency, String settlementAnchor, Support support) {
    }

    @Transactional
    public CheckoutView forCaller(Caller caller) {
        UUID accountId = caller.accountId().orElseThrow(() -> ApiException.unauthorized("A publishable key is required."));
        Account account = Account.<Account>findByIdOptional(accountId)
                .orElseThrow(() -> ApiException.unauthorized("The key's account no longer exists."));
        // The account's settings as they apply: platform defaults where it sets nothing (docs/merchants.md).
        AccountSettings settings = events.effectiveAccount(account);
        Optional<Merchant> merchant = merchantOf(caller, accountId);
        List<String> allowed;
        boolean cancelEnabled;
        if (merchant.isPresent()) {
            MerchantConfiguration effective = events.effective(account, merchant.get());
            allowed = effective.allowedCrypto();
            cancelEnabled = effective.cancelTransactionEnabled();
        } else {
            allowed = settings.allowedCrypto();
            cancelEnabled = false;
        }
        List<Catalogue.Asset> assets = Catalogue.get().assets().stream().filter(a -> allowed.contains(a.code()))
                .toList();
        return new CheckoutView(assets, cancelEnabled,
                PlatformDefaults.checkout(EffectiveConfiguration.checkoutConfig(account, merchant.orElse(null))),
                settings.settlementFrequency(), settings.settlementAnchor(), settings.support());
    }

    private Optional<Merchant> merchantOf(Caller caller, UUID accountId) {
        Optional<UUID> scoped = caller.merchantId();
        Optional<String> reference = caller.merchantRef();
        if (reference.isPresent()) {
            Merchant named = merchants.resolve(accountId, reference.get())
                    .orElseThrow(() -> ApiException.unauthorized("Unknown sub-merchant " + reference.get() + "."));
            if (scoped.isPresent() && !scoped.get().equals(named.id)) {
                throw ApiException.forbidden("This publishable key is scoped to another merchant.");
            }
            return Optional.of(named);
        }
        if (scoped.isPresent()) {
            return Optional.of(Merchant.findForAccount(accountId, scoped.get())
                    .orElseThrow(() -> ApiException.unauthorized("The key's merchant no longer exists.")));
        }
        return Optional.empty();
    }
}

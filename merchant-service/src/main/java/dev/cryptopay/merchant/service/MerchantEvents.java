package dev.cryptopay.merchant.service;

import dev.cryptopay.events.EventTypes;
import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.events.Topics;
import dev.cryptopay.merchant.config.MerchantServiceConfig;
import dev.cryptopay.merchant.domain.Account;
import dev.cryptopay.merchant.domain.Merchant;
import dev.cryptopay.merchant.domain.Settings.AccountSettings;
import dev.cryptopay.support.environment.Environment;
import dev.cryptopay.support.outbox.Outbox;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.util.Map;

/** Publishes merchants' effective configuration on the compacted merchants topic, through the outbox. */
@ApplicationScoped
public class MerchantEvents {

    private final Outbox outbox;
    private final Map<String, String> defaultXpubs;

    public MerchantEvents(Outbox outbox, MerchantServiceConfig config,
            Environment environment) {
        this.outbox = outbox;
        this.defaultXpubs = environment.isSandbox() ? Map.copyOf(config.sandboxXpubs()) : Map.of();
    }

    /** The account's settings with the platform defaults filled in (the top of the inheritance chain). */
    public AccountSettings effectiveAccount(Account account) {
        return PlatformDefaults.effective(account, defaultXpubs);
    }

    public MerchantConfiguration effective(Account account, Merchant merchant) {
        return EffectiveConfiguration.resolve(account, merchant, defaultXpubs);
    }

    @Transactional(Transactional.TxType.MANDATORY)
    public void merchantChanged(Account account, Merchant merchant) {
        outbox.append(Topics.MERCHANTS, EventTypes.MERCHANT_UPDATED, merchant.id.toString(),
                effective(account, merchant));
    }

    /** An account change can change every merchant's effective configuration. */
    @Transactional(Transactional.TxType.MANDATORY)
    public void accountChanged(Account account) {
        Merchant.allOfAccount(account.id).forEach(merchant -> merchantChanged(account, merchant));
    }
}

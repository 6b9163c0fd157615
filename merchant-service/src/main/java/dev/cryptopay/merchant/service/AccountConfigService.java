package dev.cryptopay.merchant.service;

import dev.cryptopay.merchant.domain.Account;
import dev.cryptopay.merchant.domain.Merchant;
import dev.cryptopay.merchant.domain.Settings.AccountSettings;
import dev.cryptopay.support.problem.ApiException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;
import java.time.OffsetDateTime;
import java.util.UUID;
import java.util.function.UnaryOperator;

/**
 * Account configuration and the operator's changes to accounts and merchants. A change re-publishes the
 * effective configuration of every merchant it can affect, in the same transaction.
 */
@ApplicationScoped
public class AccountConfigService {

    private final MerchantEvents events;

    public AccountConfigService(MerchantEvents events) {
        this.events = events;
    }

    /** The settings as stored (unset fields null). */
    @Transactional
    public AccountSettings get(UUID accountId) {
        Account account = Account.<Account>findByIdOptional(accountId)
                .orElseThrow(() -> ApiException.notFound("Account"));
        return account.settings == null ? AccountSettings.empty() : account.settings;
    }

    /** The settings as they apply: stored values, and the platform default where none is stored. */
    @Transactional
    public AccountSettings effective(UUID accountId) {
        return events.effectiveAccount(Account.<Account>findByIdOptional(accountId)
                .orElseThrow(() -> ApiException.notFound("Account")));
    }

    /**
     * Applies {@code change} to the account's stored settings under a row lock; answers the settings as they now
     * apply (with platform defaults, like {@link #effective}).
     */
    @Transactional
    public AccountSettings update(UUID accountId, UnaryOperator<AccountSettings> change) {
        Account account = Account.<Account>findByIdOptional(accountId, LockModeType.PESSIMISTIC_WRITE)
                .orElseThrow(() -> ApiException.notFound("Account"));
        account.settings = change.apply(account.settings == null ? AccountSettings.empty() : account.settings);
        account.version++;
        account.updatedAt = OffsetDateTime.now();
        events.accountChanged(account);
        return events.effectiveAccount(account);
    }

    /** Operator: enable (1), put under review (0) or disable (-1) a merchant, and allow it to set fxRate. */
    @Transactional
    public Merchant operate(UUID accountId, UUID merchantId, Integer status, Boolean fxRateAllowed) {
        Account account = Account.<Account>findByIdOptional(accountId)
                .orElseThrow(() -> ApiException.notFound("Account"));
        Merchant merchant = Merchant.lockForAccount(accountId, merchantId)
                .orElseThrow(() -> ApiException.notFound("Merchant"));
        if (status != null) {
            if (merchant.archivedAt != null && status != Merchant.DISABLED) {
                throw ApiException.conflict("invalid_state", "An archived merchant cannot be enabled again.");
            }
            merchant.status = status;
        }
        if (fxRateAllowed != null) {
            merchant.fxRateAllowed = fxRateAllowed;
        }
        merchant.version++;
        merchant.updatedAt = OffsetDateTime.now();
        events.merchantChanged(account, merchant);
        return merchant;
    }
}

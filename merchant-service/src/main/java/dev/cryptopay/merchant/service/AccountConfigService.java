package dev.cryptopay.merchant.service;

import dev.cryptopay.merchant.domain.Account;
import dev.cryptopay.merchant.domain.Merchant;
import dev.cryptopay.merchant.domain.Settings.AccountSettings;
import dev.cryptopay.merchant.domain.SettingsFields;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.validation.Validation;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;
import java.time.OffsetDateTime;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * Account configuration and the operator's changes to accounts and merchants. A change re-publishes the
 * effective configuration of every merchant it can affect, in the same transaction.
 */
@ApplicationScoped
public class AccountConfigService {

    /** Every field of the account configuration, and those only the operator sets (docs/decisions.md §35). */
    private static final Set<String> FIELDS = SettingsFields.names(AccountSettings.class);
    private static final Set<String> OPERATOR_ONLY = SettingsFields.operatorOnly(AccountSettings.class);

    private final MerchantEvents events;
    private final AccountSettingsValidator validator;

    public AccountConfigService(MerchantEvents events, AccountSettingsValidator validator) {
        this.events = events;
        this.validator = validator;
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
     * {@code PUT /accounts/{accountUUID}/config}: changes the fields the body sends, except the operator's (refused by
     * name, as is any field the configuration does not have); answers the settings as they now apply.
     */
    @Transactional
    public AccountSettings updateByAccount(UUID accountId, AccountSettingsPatch patch) {
        return update(accountId, patch, name -> OPERATOR_ONLY.contains(name)
                ? "is read-only: the service operator sets it" : null);
    }

    /** The operator's account update: changes the operator-only fields the body sends, and nothing else. */
    @Transactional
    public AccountSettings updateByOperator(UUID accountId, AccountSettingsPatch patch) {
        return update(accountId, patch, name -> OPERATOR_ONLY.contains(name) ? null
                : "is not an operator field of the account (merchants set it with PUT /accounts/{id}/config)");
    }

    /**
     * Checks the body's field names ({@code refusal} answers why a known field may not be sent here, or null) and
     * values, then merges it into the stored settings under a row lock and re-publishes every merchant of the account.
     */
    private AccountSettings update(UUID accountId, AccountSettingsPatch patch,
            Function<String, String> refusal) {
        Validation v = new Validation();
        if (patch == null) {
            v.add("body", "must be a JSON object");
            v.throwIfInvalid();
        }
        for (String name : patch.present()) {
            String refused = FIELDS.contains(name) ? refusal.apply(name)
                    : "is not a field of the account configuration";
            if (refused != null) {
                v.add(name, refused);
            }
        }
        validator.validate(v, patch.values(), patch.present());
        v.throwIfInvalid();
        Account account = Account.<Account>findByIdOptional(accountId, LockModeType.PESSIMISTIC_WRITE)
                .orElseThrow(() -> ApiException.notFound("Account"));
        AccountSettings current = account.settings == null ? AccountSettings.empty() : account.settings;
        account.settings = SettingsFields.merge(current, patch.values(), patch.present());
        account.version++;
        account.updatedAt = OffsetDateTime.now();
        events.accountChanged(account);
        return events.effectiveAccount(account);
    }

    /** Operator: enable (1), put under review (0) or disable (-1) a merchant, and allow it to set fxRate. */
    @Transactional
    public Merchant operate(UUID accountId, UUID merchantId, Integer status, Boolean fxRateAllowed) {
        Account account = MerchantService.account(accountId); // share-locked, as for every merchant change
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

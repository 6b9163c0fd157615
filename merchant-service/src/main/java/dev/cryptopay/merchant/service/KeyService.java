package dev.cryptopay.merchant.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryptopay.events.EventTypes;
import dev.cryptopay.events.KeyState;
import dev.cryptopay.events.Topics;
import dev.cryptopay.merchant.domain.AccountKey;
import dev.cryptopay.merchant.domain.Merchant;
import dev.cryptopay.support.idempotency.IdempotentCreations;
import dev.cryptopay.support.jdbc.TransactionLocks;
import dev.cryptopay.support.limits.AccountLimits;
import dev.cryptopay.support.outbox.Outbox;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.security.Caller;
import dev.cryptopay.support.security.KeyHash;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

/** Creates, lists and revokes keys; every change is published on the compacted keys topic through the outbox. */
@ApplicationScoped
public class KeyService {

    public static final String API_PREFIX = "ak_";
    public static final String PUBLISHABLE_PREFIX = "pk_";

    private final SecretGenerator secrets;
    private final Outbox outbox;
    private final AccountLimits limits;
    private final IdempotentCreations creations;

    public KeyService(SecretGenerator secrets, Outbox outbox, AccountLimits limits, IdempotentCreations creations) {
        this.secrets = secrets;
        this.outbox = outbox;
        this.limits = limits;
        this.creations = creations;
    }

    /** A new key with its plain secrets, which exist only in this answer. */
    public record NewKey(AccountKey key, String plainKey, String plainPrivateKey) {
    }

    /** What a key creation was asked, as its Idempotency-Key record compares it. */
    private record KeyRequest(String keyType, String name, String role, UUID merchantUUID) {
    }

    /**
     * {@link #create(UUID, String, String, String, UUID)} once per caller and Idempotency-Key (docs/decisions.md
     * §122): a retry the gateway could not answer gets the first answer, its secrets {@code null} (they are shown
     * once, §28), not a second key nobody holds. {@code answer} is what the API shows of the new key.
     */
    @Transactional
    public IdempotentCreations.Once<JsonNode> create(Caller caller, UUID accountId, String keyType, String name,
            String role, UUID merchantUUID, String idempotencyKey, Function<NewKey, ?> answer) {
        return creations.onceAsJson(caller, idempotencyKey, new KeyRequest(keyType, name, role, merchantUUID),
                () -> answer.apply(create(accountId, keyType, name, role, merchantUUID)));
    }

    /**
     * Joins the caller's transaction when there is one (account creation), else runs in its own. A publishable key
     * may be scoped only to a merchant of the same account (any other or unknown merchant: 404, docs/decisions.md
     * §36); an account holds at most {@link AccountLimits.Limits#apiKeys()} active keys of both kinds together (one
     * more: 409 {@code limit_reached}, docs/decisions.md §25, §37).
     */
    @Transactional
    public NewKey create(UUID accountId, String keyType, String name, String role, UUID merchantUUID) {
        boolean api = KeyState.TYPE_API.equals(keyType);
        if (merchantUUID != null && Merchant.findForAccount(accountId, merchantUUID).isEmpty()) {
            throw ApiException.notFound("Merchant " + merchantUUID);
        }
        lockAccountKeys(accountId);
        int cap = limits.forAccount(accountId).apiKeys();
        if (AccountKey.countActive(accountId) >= cap) {
            throw ApiException.conflict("limit_reached", "This account already holds " + cap
                    + " active keys, its limit; revoke one before creating another.");
        }
        String plain = secrets.newKey(api ? API_PREFIX : PUBLISHABLE_PREFIX);
        String privateKey = api ? secrets.newPrivateKey() : "";
        OffsetDateTime now = OffsetDateTime.now();

        AccountKey key = new AccountKey();
        key.id = UUID.randomUUID();
        key.accountId = accountId;
        key.keyType = keyType;
        key.keyHash = KeyHash.of(plain);
        key.keyLast4 = plain.substring(plain.length() - 4);
        key.publishableKey = api ? null : plain;
        key.privateKeyHash = api ? KeyHash.of(privateKey) : null;
        key.role = api ? (role == null ? "admin" : role) : null;
        key.name = name;
        key.merchantUUID = api ? null : merchantUUID;
        key.status = AccountKey.ACTIVE;
        key.version = 1;
        key.createdAt = now;
        key.updatedAt = now;
        key.persist();
        publish(key);
        return new NewKey(key, plain, privateKey);
    }

    @Transactional
    public List<AccountKey> list(UUID accountId) {
        return AccountKey.listForAccount(accountId);
    }

    /**
     * Revokes a key of the account; revoking an already revoked key changes nothing. The key's row is locked first, so
     * of two revocations at once the second waits and then finds the key revoked: one event, one revocation time.
     */
    @Transactional
    public void revoke(UUID accountId, UUID keyId) {
        AccountKey key = AccountKey.findForAccountForUpdate(accountId, keyId)
                .orElseThrow(() -> ApiException.notFound("Key " + keyId));
        if (key.status == AccountKey.REVOKED) {
            return;
        }
        key.status = AccountKey.REVOKED;
        key.revokedAt = OffsetDateTime.now();
        key.updatedAt = key.revokedAt;
        key.version++;
        publish(key);
    }

    /**
     * Serialises key creation per account until the transaction ends, so two concurrent creations cannot both pass
     * the cap. An advisory lock rather than a row lock: on account creation the account row is not flushed yet.
     */
    private static void lockAccountKeys(UUID accountId) {
        TransactionLocks.take("account-keys:" + accountId);
    }

    private void publish(AccountKey key) {
        KeyState state = new KeyState(key.id.toString(), key.accountId.toString(), key.keyType, key.keyHash,
                key.role, key.merchantUUID == null ? null : key.merchantUUID.toString(), key.status, key.version,
                key.updatedAt.toString());
        outbox.append(Topics.KEYS, EventTypes.KEY_UPDATED, key.id.toString(), state);
    }
}

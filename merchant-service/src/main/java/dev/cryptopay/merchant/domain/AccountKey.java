package dev.cryptopay.merchant.domain;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.LockModeType;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** An API key ({@code ak_}) or publishable key ({@code pk_}) of an account. Secrets are stored hashed. */
@Entity
@Table(name = "account_key")
public class AccountKey extends PanacheEntityBase {

    public static final int ACTIVE = 1;
    public static final int REVOKED = -1;

    @Id
    public UUID id;

    @Column(name = "account_id", nullable = false)
    public UUID accountId;

    @Column(name = "key_type", nullable = false)
    public String keyType;

    @Column(name = "key_hash", nullable = false, unique = true)
    public String keyHash;

    @Column(name = "key_last4", nullable = false)
    public String keyLast4;

    /** The full key, kept only for publishable keys, which are public (docs/decisions.md §4). */
    @Column(name = "publishable_key")
    public String publishableKey;

    @Column(name = "private_key_hash")
    public String privateKeyHash;

    public String role;

    @Column(nullable = false)
    public String name;

    @Column(name = "merchant_uuid")
    public UUID merchantUUID;

    @Column(nullable = false)
    public int status;

    @Column(nullable = false)
    public long version;

    @Column(name = "created_at", nullable = false)
    public OffsetDateTime createdAt;

    @Column(name = "updated_at", nullable = false)
    public OffsetDateTime updatedAt;

    @Column(name = "revoked_at")
    public OffsetDateTime revokedAt;

    public static List<AccountKey> listForAccount(UUID accountId) {
        return list("accountId = ?1 order by createdAt desc, id", accountId);
    }

    /** Keys of both kinds the account holds that are not revoked (the cap of docs/decisions.md §25 counts these). */
    public static long countActive(UUID accountId) {
        return count("accountId = ?1 and status = ?2", accountId, ACTIVE);
    }

    public static Optional<AccountKey> findForAccount(UUID accountId, UUID keyId) {
        return find("accountId = ?1 and id = ?2", accountId, keyId).firstResultOptional();
    }

    /** The key, its row locked until the transaction ends (a change that must not run twice at once). */
    public static Optional<AccountKey> findForAccountForUpdate(UUID accountId, UUID keyId) {
        return find("accountId = ?1 and id = ?2", accountId, keyId).withLock(LockModeType.PESSIMISTIC_WRITE)
                .firstResultOptional();
    }

    public static Optional<AccountKey> findByHash(String keyHash) {
        return find("keyHash", keyHash).firstResultOptional();
    }
}

package dev.cryptopay.gateway.auth;

import dev.cryptopay.events.KeyState;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.UUID;

/** The gateway's copy of one key's state, fed from payments.keys.v1 (see KeyEventsConsumer). */
@Entity
@Table(name = "gateway_key")
public class StoredKey extends PanacheEntityBase {

    @Id
    @Column(name = "key_hash")
    public String keyHash;

    @Column(name = "key_id", nullable = false)
    public UUID keyId;

    @Column(name = "account_id", nullable = false)
    public UUID accountId;

    @Column(name = "key_type", nullable = false)
    public String keyType;

    public String role;

    @Column(name = "merchant_uuid")
    public UUID merchantUUID;

    @Column(nullable = false)
    public int status;

    @Column(nullable = false)
    public long version;

    @Column(name = "updated_at", nullable = false)
    public OffsetDateTime updatedAt;

    /**
     * Writes {@code state} unless the stored row is as new or newer (by version), as one statement: the keys
     * consumer and the directory's synchronous lookup may write the same key at once, and neither may fail on the
     * other's row. Answers true when the row was written.
     */
    public static boolean save(KeyState state) {
        return getEntityManager().createNativeQuery("""
                insert into gateway_key (key_hash, key_id, account_id, key_type, role, merchant_uuid, status, version,
                                         updated_at)
                values (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
                on conflict (key_hash) do update set key_id = excluded.key_id, account_id = excluded.account_id,
                    key_type = excluded.key_type, role = excluded.role, merchant_uuid = excluded.merchant_uuid,
                    status = excluded.status, version = excluded.version, updated_at = excluded.updated_at
                where gateway_key.version < excluded.version""")
                .setParameter(1, state.keyHash())
                .setParameter(2, UUID.fromString(state.keyId()))
                .setParameter(3, UUID.fromString(state.accountId()))
                .setParameter(4, state.keyType())
                .setParameter(5, state.role())
                .setParameter(6, state.merchantUUID() == null ? null : UUID.fromString(state.merchantUUID()))
                .setParameter(7, state.status())
                .setParameter(8, state.version())
                .setParameter(9, OffsetDateTime.parse(state.updatedAt()))
                .executeUpdate() == 1;
    }
}

package dev.cryptopay.gateway.auth;

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

    @Column(name = "key_id", nullable = false, unique = true)
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
}

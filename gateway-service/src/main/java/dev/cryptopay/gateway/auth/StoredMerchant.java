package dev.cryptopay.gateway.auth;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.Optional;
import java.util.UUID;

/** The gateway's copy of the facts it needs about a merchant: owner account, externalMID, status. */
@Entity
@Table(name = "gateway_merchant")
public class StoredMerchant extends PanacheEntityBase {

    @Id
    @Column(name = "merchant_id")
    public UUID merchantId;

    @Column(name = "account_id", nullable = false)
    public UUID accountId;

    @Column(name = "external_mid")
    public String externalMID;

    @Column(nullable = false)
    public int status;

    @Column(nullable = false)
    public long version;

    @Column(name = "updated_at", nullable = false)
    public OffsetDateTime updatedAt;

    /** A merchant of {@code accountId} named by UUID or externalMID. */
    public static Optional<StoredMerchant> resolve(UUID accountId, String reference) {
        try {
            Optional<StoredMerchant> byId = find("accountId = ?1 and merchantId = ?2", accountId,
                    UUID.fromString(reference)).firstResultOptional();
            if (byId.isPresent()) {
                return byId;
            }
        } catch (IllegalArgumentException notAUuid) {
            // an externalMID
        }
        return find("accountId = ?1 and externalMID = ?2", accountId, reference).firstResultOptional();
    }
}

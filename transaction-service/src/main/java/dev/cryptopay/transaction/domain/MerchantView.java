package dev.cryptopay.transaction.domain;

import dev.cryptopay.events.MerchantConfiguration;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.Optional;
import java.util.UUID;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/**
 * This service's copy of one merchant's effective configuration, as merchant-service last published it on
 * {@code payments.merchants.v1}. Transactions read only this table, never merchant-service.
 */
@Entity
@Table(name = "merchant_view")
public class MerchantView extends PanacheEntityBase {

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

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(nullable = false, columnDefinition = "jsonb")
    public MerchantConfiguration config;

    @Column(name = "updated_at", nullable = false)
    public OffsetDateTime updatedAt;

    public boolean enabled() {
        return status == MerchantConfiguration.ENABLED;
    }

    public static Optional<MerchantView> findForAccount(UUID accountId, UUID merchantId) {
        return find("accountId = ?1 and merchantId = ?2", accountId, merchantId).firstResultOptional();
    }

    /** A merchant of the account named by its UUID or, failing that, its externalMID. */
    public static Optional<MerchantView> resolve(UUID accountId, String reference) {
        try {
            Optional<MerchantView> byId = findForAccount(accountId, UUID.fromString(reference));
            if (byId.isPresent()) {
                return byId;
            }
        } catch (IllegalArgumentException notAUuid) {
            // an externalMID
        }
        return find("accountId = ?1 and externalMID = ?2 order by version desc", accountId, reference)
                .firstResultOptional();
    }
}

package dev.cryptopay.subscription.domain;

import dev.cryptopay.events.MerchantConfiguration;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/**
 * This service's copy of one merchant's effective configuration as merchant-service last published it on
 * {@code payments.merchants.v1}. Subscriptions read only this table, never merchant-service.
 */
@Entity
@Table(name = "merchant_view")
public class MerchantView extends PanacheEntityBase {

    @Id
    @Column(name = "merchant_id")
    public UUID merchantId;

    @Column(name = "account_id", nullable = false)
    public UUID accountId;

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

    /** Whether the merchant accepts {@code asset} on {@code network}. */
    public boolean accepts(String asset, String network) {
        return config.allowedCrypto() != null && config.allowedCrypto().contains(asset)
                && config.cryptoNetworkConfigs() != null && config.cryptoNetworkConfigs().get(network) != null
                && config.cryptoNetworkConfigs().get(network).containsKey(asset);
    }

    public static Optional<MerchantView> findForAccount(UUID accountId, UUID merchantId) {
        return find("accountId = ?1 and merchantId = ?2", accountId, merchantId).firstResultOptional();
    }

    public static List<MerchantView> enabledOfAccount(UUID accountId) {
        return list("accountId = ?1 and status = ?2", accountId, MerchantConfiguration.ENABLED);
    }
}

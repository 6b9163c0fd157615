package dev.cryptopay.subscription.domain;

import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.support.merchantview.MerchantViewRow;
import dev.cryptopay.support.merchantview.MerchantViews;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/**
 * This service's copy of one merchant's effective configuration as merchant-service last published it on
 * {@code payments.merchants.v1}. Subscriptions read only this table, never merchant-service. The shared columns and
 * lookups are service-support's ({@link MerchantViewRow}, {@link MerchantViews}; docs/decisions.md §39).
 */
@Entity
@Table(name = "merchant_view")
public class MerchantView extends MerchantViewRow {

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(nullable = false, columnDefinition = "jsonb")
    public MerchantConfiguration config;

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
        return MerchantViews.findForAccount(MerchantView.class, accountId, merchantId);
    }

    public static List<MerchantView> enabledOfAccount(UUID accountId) {
        return list("accountId = ?1 and status = ?2", accountId, MerchantConfiguration.ENABLED);
    }
}

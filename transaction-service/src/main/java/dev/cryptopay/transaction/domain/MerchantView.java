package dev.cryptopay.transaction.domain;

import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.support.merchantview.MerchantViewRow;
import dev.cryptopay.support.merchantview.MerchantViews;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;
import java.util.Optional;
import java.util.UUID;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/**
 * This service's copy of one merchant's effective configuration, as merchant-service last published it on
 * {@code payments.merchants.v1}. Transactions read only this table, never merchant-service. The shared columns and
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

    public static Optional<MerchantView> findForAccount(UUID accountId, UUID merchantId) {
        return MerchantViews.findForAccount(MerchantView.class, accountId, merchantId);
    }

    /** A merchant of the account named by its UUID or, failing that, its externalMID. */
    public static Optional<MerchantView> resolve(UUID accountId, String reference) {
        return MerchantViews.resolve(MerchantView.class, accountId, reference);
    }
}

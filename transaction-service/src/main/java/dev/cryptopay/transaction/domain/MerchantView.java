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
 * {@code payments.merchants.v1} or, for a merchant the topic has not brought yet, as a creation read it from
 * merchant-service (docs/decisions.md §20, §84). Detection and settlement read only this table. The shared columns and
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

    /**
     * Writes a merchant's configuration ({@code configJson} is {@code config} as JSON) unless the stored row is as new
     * or newer (by version), as one statement: the merchants consumer and a creation that read the configuration from
     * merchant-service may write the same merchant at once, and neither may fail on the other's row (an entity
     * {@code persist} after a {@code find} that saw no row would). Answers true when the row was written. The ids
     * must be UUIDs ({@link MerchantViews#identified}).
     */
    public static boolean save(MerchantConfiguration config, String configJson) {
        return getEntityManager().createNativeQuery("""
                insert into merchant_view (merchant_id, account_id, external_mid, status, version, config, updated_at)
                values (?1, ?2, ?3, ?4, ?5, cast(?6 as jsonb), now())
                on conflict (merchant_id) do update set account_id = excluded.account_id,
                    external_mid = excluded.external_mid, status = excluded.status, version = excluded.version,
                    config = excluded.config, updated_at = excluded.updated_at
                where merchant_view.version < excluded.version""")
                .setParameter(1, UUID.fromString(config.merchantId()))
                .setParameter(2, UUID.fromString(config.accountId()))
                .setParameter(3, config.externalMID())
                .setParameter(4, config.status())
                .setParameter(5, config.version())
                .setParameter(6, configJson)
                .executeUpdate() == 1;
    }
}

package dev.cryptopay.gateway.auth;

import dev.cryptopay.support.merchantview.MerchantViewRow;
import dev.cryptopay.support.merchantview.MerchantViews;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;
import java.util.Optional;
import java.util.UUID;

/**
 * The gateway's copy of the facts it needs about a merchant: owner account, externalMID, status (the shared columns
 * of {@link MerchantViewRow}; lookups through {@link MerchantViews}, docs/decisions.md §39).
 */
@Entity
@Table(name = "gateway_merchant")
public class StoredMerchant extends MerchantViewRow {

    /** A merchant of {@code accountId} named by UUID or externalMID. */
    public static Optional<StoredMerchant> resolve(UUID accountId, String reference) {
        return MerchantViews.resolve(StoredMerchant.class, accountId, reference);
    }

    /**
     * Writes a merchant's state unless the stored row is as new or newer (by version), as one statement: the
     * merchants consumer and the directory's synchronous lookup (version 0, so any event replaces it) may write
     * the same merchant at once, and neither may fail on the other's row. Answers true when the row was written.
     */
    public static boolean save(UUID merchantId, UUID accountId, String externalMID, int status, long version) {
        return getEntityManager().createNativeQuery("""
                insert into gateway_merchant (merchant_id, account_id, external_mid, status, version, updated_at)
                values (?1, ?2, ?3, ?4, ?5, now())
                on conflict (merchant_id) do update set account_id = excluded.account_id,
                    external_mid = excluded.external_mid, status = excluded.status, version = excluded.version,
                    updated_at = excluded.updated_at
                where gateway_merchant.version < excluded.version""")
                .setParameter(1, merchantId)
                .setParameter(2, accountId)
                .setParameter(3, externalMID)
                .setParameter(4, status)
                .setParameter(5, version)
                .executeUpdate() == 1;
    }
}

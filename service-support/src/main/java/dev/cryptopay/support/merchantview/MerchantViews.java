package dev.cryptopay.support.merchantview;

import dev.cryptopay.events.EventTypes;
import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.support.inbox.Inbox;
import io.quarkus.hibernate.orm.panache.Panache;
import jakarta.persistence.EntityManager;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * The one way a service reads and writes its copy of merchants ({@link MerchantViewRow}), so the rules are written
 * once (docs/decisions.md §39):
 * <ul>
 * <li>a merchant reference ({@code X-MID}, the part after the colon of a sub-merchant publishable key) names a
 * merchant <em>of the caller's account</em> by its UUID, or failing that by its externalMID, the newest version
 * first;</li>
 * <li>a configuration from {@code payments.merchants.v1} replaces the stored row only when its {@code version} is
 * higher, so a redelivered or reordered event never moves a merchant back.</li>
 * </ul>
 */
public final class MerchantViews {

    private static final Logger LOG = Logger.getLogger(MerchantViews.class);

    private MerchantViews() {
    }

    /** The merchant {@code merchantId} if it belongs to {@code accountId}. */
    public static <E extends MerchantViewRow> Optional<E> findForAccount(Class<E> type, UUID accountId,
            UUID merchantId) {
        return first(type, "e.accountId = ?1 and e.merchantId = ?2", accountId, merchantId);
    }

    /** A merchant of {@code accountId} named by its UUID or, failing that, its externalMID. */
    public static <E extends MerchantViewRow> Optional<E> resolve(Class<E> type, UUID accountId, String reference) {
        if (accountId == null || reference == null || reference.isBlank()) {
            return Optional.empty();
        }
        Optional<UUID> id = uuid(reference);
        if (id.isPresent()) {
            Optional<E> byId = findForAccount(type, accountId, id.get());
            if (byId.isPresent()) {
                return byId;
            }
        }
        return first(type, "e.accountId = ?1 and e.externalMID = ?2", accountId, reference);
    }

    /**
     * Applies a published configuration to the service's row: nothing when the stored row is as new or newer (answers
     * empty), else the row (made with {@code fresh} when the merchant is new) with the shared columns set, for the
     * caller to set its own and persist. A configuration without valid merchant and account ids is skipped.
     */
    public static <E extends MerchantViewRow> Optional<E> newer(Class<E> type, MerchantConfiguration config,
            Supplier<E> fresh) {
        if (!identified(config)) {
            return Optional.empty();
        }
        UUID merchantId = UUID.fromString(config.merchantId());
        UUID accountId = UUID.fromString(config.accountId());
        E row = Panache.getEntityManager(type).find(type, merchantId);
        if (row != null && row.version >= config.version()) {
            return Optional.empty();
        }
        if (row == null) {
            row = fresh.get();
            row.merchantId = merchantId;
        }
        row.accountId = accountId;
        row.externalMID = config.externalMID();
        row.status = config.status();
        row.version = config.version();
        row.updatedAt = OffsetDateTime.now();
        return Optional.of(row);
    }

    /** True when the configuration names its merchant and account by UUID; else logs that it is skipped. */
    public static boolean identified(MerchantConfiguration config) {
        try {
            UUID.fromString(config.merchantId());
            UUID.fromString(config.accountId());
            return true;
        } catch (IllegalArgumentException | NullPointerException e) {
            LOG.warnf("skipping a merchant event without valid merchant and account ids: %s", e.getMessage());
            return false;
        }
    }

    /**
     * The whole of a merchant-view consumer: one record value of {@code payments.merchants.v1} through the
     * {@code consumer}'s inbox (a redelivered event id is skipped), then {@link #newer} (an older configuration never
     * replaces a newer one); {@code keep} stores the configuration in the service's own columns before the row is
     * persisted. True when the view changed. Runs in the caller's transaction.
     */
    public static <E extends MerchantViewRow> boolean consume(Inbox inbox, String consumer, String value, Class<E> type,
            Supplier<E> fresh, BiConsumer<E, MerchantConfiguration> keep) {
        return inbox.accept(consumer, value, EventTypes.MERCHANT_UPDATED, MerchantConfiguration.class)
                .flatMap(config -> newer(type, config, fresh).map(row -> {
                    keep.accept(row, config);
                    row.persist();
                    return true;
                }))
                .orElse(false);
    }

    private static <E extends MerchantViewRow> Optional<E> first(Class<E> type, String where, Object... parameters) {
        EntityManager em = Panache.getEntityManager(type);
        var query = em.createQuery("select e from " + em.getMetamodel().entity(type).getName() + " e where " + where
                + " order by e.version desc, e.merchantId", type).setMaxResults(1);
        for (int i = 0; i < parameters.length; i++) {
            query.setParameter(i + 1, parameters[i]);
        }
        List<E> rows = query.getResultList();
        return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
    }

    private static Optional<UUID> uuid(String reference) {
        try {
            return Optional.of(UUID.fromString(reference));
        } catch (IllegalArgumentException notAUuid) {
            return Optional.empty();
        }
    }
}

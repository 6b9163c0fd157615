package dev.cryptopay.merchant.domain;

import dev.cryptopay.events.MerchantConfiguration.DiscountRate;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import io.quarkus.panache.common.Page;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.LockModeType;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/** A merchant of an account. Archived merchants keep their row (and answer Get) but leave listings. */
@Entity
@Table(name = "merchant")
public class Merchant extends PanacheEntityBase {

    public static final int UNDER_REVIEW = 0;
    public static final int ENABLED = 1;
    public static final int DISABLED = -1;

    @Id
    public UUID id;

    @Column(name = "account_id", nullable = false)
    public UUID accountId;

    @Column(nullable = false)
    public String name;

    public String dba;

    @Column(nullable = false)
    public String address1;

    public String address2;

    @Column(nullable = false)
    public String city;

    @Column(nullable = false)
    public String region;

    @Column(nullable = false)
    public String country;

    @Column(nullable = false)
    public int status;

    @Column(nullable = false)
    public String descriptor;

    @Column(name = "external_mid")
    public String externalMID;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "discount_rate", columnDefinition = "jsonb")
    public DiscountRate discountRate;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(nullable = false, columnDefinition = "jsonb")
    public Settings.MerchantSettings settings;

    @Column(name = "logo_filename")
    public String logoFilename;

    @Column(name = "fx_rate_allowed", nullable = false)
    public boolean fxRateAllowed;

    @Column(name = "archived_at")
    public OffsetDateTime archivedAt;

    @Column(nullable = false)
    public long version;

    @Column(name = "created_at", nullable = false)
    public OffsetDateTime createdAt;

    @Column(name = "updated_at", nullable = false)
    public OffsetDateTime updatedAt;

    public static Optional<Merchant> findForAccount(UUID accountId, UUID merchantId) {
        return find("accountId = ?1 and id = ?2", accountId, merchantId).firstResultOptional();
    }

    /** The merchant of the account, locked for update until the transaction ends. */
    public static Optional<Merchant> lockForAccount(UUID accountId, UUID merchantId) {
        return find("accountId = ?1 and id = ?2", accountId, merchantId)
                .withLock(LockModeType.PESSIMISTIC_WRITE).firstResultOptional();
    }

    public static Optional<Merchant> findByExternalMID(UUID accountId, String externalMID) {
        return find("accountId = ?1 and externalMID = ?2", accountId, externalMID).firstResultOptional();
    }

    /** Listing order: newest first, ties broken by id so pages are stable. */
    public static List<Merchant> listPage(UUID accountId, int page, int size) {
        return find("accountId = ?1 and archivedAt is null order by createdAt desc, id desc", accountId)
                .page(Page.of(page, size)).list();
    }

    public static long countListed(UUID accountId) {
        return count("accountId = ?1 and archivedAt is null", accountId);
    }

    public static List<Merchant> allOfAccount(UUID accountId) {
        return list("accountId = ?1 order by createdAt, id", accountId);
    }
}

package dev.cryptopay.support.merchantview;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Id;
import jakarta.persistence.MappedSuperclass;
import java.time.OffsetDateTime;
import java.util.UUID;

/**
 * The columns every service's copy of a merchant has (each service keeps its own table in its own database, e.g.
 * gateway {@code gateway_merchant}, transaction and subscription {@code merchant_view}): which account owns it, its
 * externalMID, its status and the {@code version} of merchant-service's configuration it reflects. Look rows up and
 * update them with {@link MerchantViews} (docs/decisions.md §39).
 */
@MappedSuperclass
public abstract class MerchantViewRow extends PanacheEntityBase {

    @Id
    @Column(name = "merchant_id")
    public UUID merchantId;

    @Column(name = "account_id", nullable = false)
    public UUID accountId;

    @Column(name = "external_mid")
    public String externalMID;

    @Column(nullable = false)
    public int status;

    /** The merchant's configuration version this row reflects; a lower one never replaces it. */
    @Column(nullable = false)
    public long version;

    @Column(name = "updated_at", nullable = false)
    public OffsetDateTime updatedAt;
}

package dev.cryptopay.transaction.domain;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;
import jakarta.persistence.EmbeddedId;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.time.OffsetDateTime;
import java.util.UUID;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/**
 * A returning customer's verified details, kept when a verification said {@code storeKYC=true}: one record per
 * e-mail address (lower case) within an account, written by the first such verification and never overwritten by a
 * later one (docs/decisions.md §45). Restoring or replacing it with an e-mail one-time code is the compliance work's.
 */
@Entity
@Table(name = "kyc_customer")
public class KycCustomer extends PanacheEntityBase {

    @Embeddable
    public record Key(@Column(name = "account_id") UUID accountId, @Column(name = "email") String email)
            implements Serializable {
    }

    @EmbeddedId
    public Key key;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(nullable = false, columnDefinition = "jsonb")
    public KycDetails details;

    @Column(name = "last_transaction_id", nullable = false)
    public UUID lastTransactionId;

    @Column(name = "created_at", nullable = false)
    public OffsetDateTime createdAt;

    @Column(name = "updated_at", nullable = false)
    public OffsetDateTime updatedAt;
}

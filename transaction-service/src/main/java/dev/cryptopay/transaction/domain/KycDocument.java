package dev.cryptopay.transaction.domain;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.UUID;

/**
 * A document image or PDF submitted with a verification, sealed at rest (service {@code KycDocuments},
 * docs/decisions.md §46) and deleted after the retention period.
 */
@Entity
@Table(name = "kyc_document")
public class KycDocument extends PanacheEntityBase {

    @Id
    public UUID id;

    @Column(name = "transaction_id", nullable = false)
    public UUID transactionId;

    /** {@code front} or {@code rear}, in the order the parts were sent. */
    @Column(nullable = false)
    public String side;

    @Column(name = "content_type", nullable = false)
    public String contentType;

    @Column(name = "size_bytes", nullable = false)
    public int sizeBytes;

    /** The sealed document ({@link #encrypted}); in clear only for rows stored before sealing, until the next start. */
    @Column(nullable = false)
    public byte[] content;

    @Column(nullable = false)
    public boolean encrypted;

    @Column(name = "created_at", nullable = false)
    public OffsetDateTime createdAt;
}

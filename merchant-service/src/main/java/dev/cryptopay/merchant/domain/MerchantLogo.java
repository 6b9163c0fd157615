package dev.cryptopay.merchant.domain;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.UUID;

/** A merchant's checkout logo (PNG, JPEG or WebP, at most 10 MiB), served at a stable URL. */
@Entity
@Table(name = "merchant_logo")
public class MerchantLogo extends PanacheEntityBase {

    @Id
    @Column(name = "merchant_id")
    public UUID merchantId;

    @Column(name = "content_type", nullable = false)
    public String contentType;

    @Column(nullable = false)
    public byte[] content;

    @Column(name = "updated_at", nullable = false)
    public OffsetDateTime updatedAt;
}

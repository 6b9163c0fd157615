package dev.cryptopay.subscription.domain;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.UUID;

/** A subscription plan: an amount per interval, in USD unless {@code currency} says otherwise. Never changes. */
@Entity
@Table(name = "plan")
public class Plan extends PanacheEntityBase {

    @Id
    public UUID id;

    @Column(name = "account_id", nullable = false)
    public UUID accountId;

    @Column(name = "merchant_id")
    public UUID merchantId;

    @Column(name = "plan_name")
    public String planName;

    public String description;

    @Enumerated(EnumType.STRING)
    @Column(name = "billing_interval", nullable = false)
    public BillingInterval billingInterval;

    @Column(nullable = false)
    public BigDecimal amount;

    @Column(nullable = false)
    public String currency;

    @Column(name = "created_at", nullable = false)
    public OffsetDateTime createdAt;
}

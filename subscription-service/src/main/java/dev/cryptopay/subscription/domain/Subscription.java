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

/**
 * One customer's subscription to a plan. Billing period {@code nextPeriod} is due at {@code nextBillingAt}
 * ({@link BillingCalendar} from {@code anchorAt}); {@code openPaymentId} names the payment of a period being billed.
 */
@Entity
@Table(name = "subscription")
public class Subscription extends PanacheEntityBase {

    @Id
    public UUID id;

    @Column(name = "account_id", nullable = false)
    public UUID accountId;

    @Column(name = "merchant_id", nullable = false)
    public UUID merchantId;

    @Column(name = "plan_id", nullable = false)
    public UUID planId;

    @Column(name = "plan_name")
    public String planName;

    @Column(name = "customer_email", nullable = false)
    public String customerEmail;

    @Column(name = "wallet_address", nullable = false)
    public String walletAddress;

    @Column(nullable = false)
    public String asset;

    @Column(nullable = false)
    public String network;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    public SubscriptionStatus status;

    @Enumerated(EnumType.STRING)
    @Column(name = "billing_interval", nullable = false)
    public BillingInterval billingInterval;

    @Column(nullable = false)
    public BigDecimal amount;

    @Column(nullable = false)
    public String currency;

    @Column(name = "anchor_at", nullable = false)
    public OffsetDateTime anchorAt;

    @Column(name = "next_period", nullable = false)
    public int nextPeriod;

    @Column(name = "ever_paid", nullable = false)
    public boolean everPaid;

    @Column(name = "last_billing_at")
    public OffsetDateTime lastBillingAt;

    @Column(name = "next_billing_at")
    public OffsetDateTime nextBillingAt;

    @Column(name = "open_payment_id")
    public UUID openPaymentId;

    @Column(name = "created_at", nullable = false)
    public OffsetDateTime createdAt;

    @Column(name = "updated_at", nullable = false)
    public OffsetDateTime updatedAt;
}

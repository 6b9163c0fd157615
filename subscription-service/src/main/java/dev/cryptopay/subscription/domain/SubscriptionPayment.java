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
 * The bill of one period of a subscription: one item (the plan's amount), its total, and the attempts to collect it.
 * {@code nextAttemptAt} is when the billing job opens the next attempt; {@code failedAttempts} counts the dunning
 * steps already used.
 */
@Entity
@Table(name = "subscription_payment")
public class SubscriptionPayment extends PanacheEntityBase {

    @Id
    public UUID id;

    @Column(name = "subscription_id", nullable = false)
    public UUID subscriptionId;

    @Column(name = "plan_id", nullable = false)
    public UUID planId;

    @Column(name = "account_id", nullable = false)
    public UUID accountId;

    @Column(name = "merchant_id", nullable = false)
    public UUID merchantId;

    @Column(nullable = false)
    public int period;

    @Column(name = "billing_date", nullable = false)
    public OffsetDateTime billingDate;

    @Column(name = "item_id", nullable = false)
    public UUID itemId;

    @Column(nullable = false)
    public BigDecimal total;

    @Column(nullable = false)
    public String currency;

    @Column(name = "amount_paid", nullable = false)
    public BigDecimal amountPaid = BigDecimal.ZERO;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    public PaymentStatus status;

    @Column(name = "failed_attempts", nullable = false)
    public int failedAttempts;

    @Column(name = "next_attempt_at")
    public OffsetDateTime nextAttemptAt;

    @Column(name = "open_attempt_id")
    public UUID openAttemptId;

    @Column(name = "created_at", nullable = false)
    public OffsetDateTime createdAt;

    @Column(name = "updated_at", nullable = false)
    public OffsetDateTime updatedAt;

    /** The payment's one way to change status: the move must be in {@link PaymentStatus}'s table. */
    public void moveTo(PaymentStatus next) {
        status = status.moveTo(next);
    }

    /** What is still owed. */
    public BigDecimal outstanding() {
        return total.subtract(amountPaid);
    }
}

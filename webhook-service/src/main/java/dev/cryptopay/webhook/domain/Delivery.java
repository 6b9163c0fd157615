package dev.cryptopay.webhook.domain;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.UUID;

/**
 * One event for one webhook. Created by the event consumer, attempted by the dispatcher (which reads and writes
 * it with plain SQL for speed, see {@code DeliveryStore}); mapped here for the delivery log and redelivery.
 * The body sent is kept once per event, in {@code event_payload}.
 */
@Entity
@Table(name = "delivery")
public class Delivery extends PanacheEntityBase {

    public static final String PENDING = "pending";
    public static final String DELIVERED = "delivered";
    public static final String FAILED = "failed";
    public static final String CANCELLED = "cancelled";

    @Id
    public UUID id;

    @Column(name = "webhook_id", nullable = false)
    public UUID webhookId;

    @Column(name = "account_id", nullable = false)
    public UUID accountId;

    @Column(name = "event_id", nullable = false)
    public String eventId;

    @Column(name = "event_type", nullable = false)
    public String eventType;

    @Column(nullable = false)
    public String status;

    @Column(nullable = false)
    public int attempts;

    @Column(name = "retry_step", nullable = false)
    public int retryStep;

    @Column(nullable = false)
    public int generation;

    @Column(name = "next_attempt_at")
    public OffsetDateTime nextAttemptAt;

    @Column(name = "lease_until")
    public OffsetDateTime leaseUntil;

    @Column(name = "created_at", nullable = false)
    public OffsetDateTime createdAt;

    @Column(name = "updated_at", nullable = false)
    public OffsetDateTime updatedAt;
}

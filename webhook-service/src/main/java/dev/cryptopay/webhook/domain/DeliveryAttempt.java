package dev.cryptopay.webhook.domain;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.UUID;

/** One HTTP attempt of a delivery: its answer (status code) or why there was none (error), and how long it took. */
@Entity
@Table(name = "delivery_attempt")
public class DeliveryAttempt extends PanacheEntityBase {

    @Id
    public UUID id;

    @Column(name = "delivery_id", nullable = false)
    public UUID deliveryId;

    @Column(name = "webhook_id", nullable = false)
    public UUID webhookId;

    /** 1 for the first attempt of the delivery, counting on through retries and redeliveries. */
    @Column(nullable = false)
    public int attempt;

    @Column(name = "attempted_at", nullable = false)
    public OffsetDateTime attemptedAt;

    @Column(name = "http_status")
    public Integer httpStatus;

    public String error;

    @Column(name = "duration_ms", nullable = false)
    public int durationMs;

    @Column(nullable = false)
    public boolean succeeded;
}

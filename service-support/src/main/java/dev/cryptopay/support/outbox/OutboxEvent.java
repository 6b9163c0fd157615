package dev.cryptopay.support.outbox;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.UUID;

/** One event waiting in (or already relayed from) the outbox table. */
@Entity
@Table(name = "outbox_event")
public class OutboxEvent {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long seq;

    @Column(nullable = false, unique = true)
    public UUID id;

    @Column(nullable = false)
    public String topic;

    @Column(name = "message_key", nullable = false)
    public String messageKey;

    @Column(name = "event_type", nullable = false)
    public String eventType;

    @Column(nullable = false, columnDefinition = "text")
    public String payload;

    @Column(name = "created_at", nullable = false, insertable = false, updatable = false)
    public OffsetDateTime createdAt;

    @Column(name = "published_at")
    public OffsetDateTime publishedAt;
}

package dev.cryptopay.subscription.domain;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.UUID;

/** One entry of a subscription's history. */
@Entity
@Table(name = "subscription_event")
public class SubscriptionEvent extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "subscription_id", nullable = false)
    public UUID subscriptionId;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    public SubscriptionEventType type;

    public String reason;

    @Column(name = "created_at", nullable = false)
    public OffsetDateTime createdAt;
}

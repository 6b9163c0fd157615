package dev.cryptopay.subscription.domain;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.UUID;

/** An e-mail waiting to be sent (or sent): written with the change that caused it, sent by MailSender. */
@Entity
@Table(name = "notification")
public class Notification extends PanacheEntityBase {

    public static final String CUSTOMER_PAYMENT_FAILED = "customer_payment_failed";
    public static final String MERCHANT_ATTEMPTS_EXCEEDED = "merchant_attempts_exceeded";

    @Id
    public UUID id;

    @Column(nullable = false)
    public String recipient;

    @Column(nullable = false)
    public String subject;

    @Column(nullable = false, columnDefinition = "text")
    public String body;

    @Column(nullable = false)
    public String kind;

    @Column(name = "created_at", nullable = false)
    public OffsetDateTime createdAt;

    @Column(name = "sent_at")
    public OffsetDateTime sentAt;

    @Column(nullable = false)
    public int attempts;

    @Column(name = "next_try_at", nullable = false)
    public OffsetDateTime nextTryAt;

    @Column(name = "last_error")
    public String lastError;
}

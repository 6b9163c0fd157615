package dev.cryptopay.webhook.domain;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * A webhook listener of an account: where to POST which events, signed with its own secret. The secret is kept
 * sealed (docs/decisions.md §42); after a rotation the previous one keeps signing until
 * {@link #previousKeyExpiresAt}.
 */
@Entity
@Table(name = "webhook")
public class Webhook extends PanacheEntityBase {

    public static final int ENABLED = 1;
    public static final int DISABLED = -1;
    /** Subscribes to every event type. */
    public static final String ALL_EVENTS = "*";

    @Id
    public UUID id;

    @Column(name = "account_id", nullable = false)
    public UUID accountId;

    @Column(nullable = false)
    public String name;

    @Column(nullable = false)
    public String url;

    @Column(nullable = false)
    public int status;

    /** Event types of docs/decisions.md §7, or {@link #ALL_EVENTS}. */
    @Column(nullable = false, columnDefinition = "text[]")
    public String[] events;

    /** The signing secret, sealed (service {@code SigningSecrets}); never the clear {@code wk_} value. */
    @Column(name = "signing_key", nullable = false)
    public String sealedSigningKey;

    /** The secret before the last rotation, sealed; signs beside the current one until {@link #previousKeyExpiresAt}. */
    @Column(name = "previous_signing_key")
    public String sealedPreviousSigningKey;

    @Column(name = "previous_key_expires_at")
    public OffsetDateTime previousKeyExpiresAt;

    @Column(name = "created_at", nullable = false)
    public OffsetDateTime createdAt;

    @Column(name = "updated_at", nullable = false)
    public OffsetDateTime updatedAt;

    @Column(name = "deleted_at")
    public OffsetDateTime deletedAt;

    public static List<Webhook> listForAccount(UUID accountId) {
        return list("accountId = ?1 and deletedAt is null order by createdAt desc, id", accountId);
    }

    /** The account's webhook; empty for another account's or a deleted one (both answer 404). */
    public static Optional<Webhook> findForAccount(UUID accountId, UUID webhookId) {
        return find("accountId = ?1 and id = ?2 and deletedAt is null", accountId, webhookId).firstResultOptional();
    }
}

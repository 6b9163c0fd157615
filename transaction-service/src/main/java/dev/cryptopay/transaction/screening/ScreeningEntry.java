package dev.cryptopay.transaction.screening;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.UUID;

/** One address of an operator's screening list (docs/decisions.md §60). */
@Entity
@Table(name = "screening_entry")
public class ScreeningEntry extends PanacheEntityBase {

    @Id
    public UUID id;

    @Column(name = "list_name", nullable = false)
    public String listName;

    /** A catalogue network, or {@code *} for every network. */
    @Column(nullable = false)
    public String network;

    @Column(nullable = false)
    public String address;

    /** What lookups compare: see {@link ScreeningLists#addressKey}. */
    @Column(name = "address_key", nullable = false)
    public String addressKey;

    /** {@code sanctioned}, {@code fraud}, {@code high-risk} or {@code custodial-exchange}. */
    @Column(nullable = false)
    public String category;

    @Column(name = "exchange_name")
    public String exchangeName;

    @Column(nullable = false)
    public String source;

    @Column(name = "created_at", nullable = false)
    public OffsetDateTime createdAt;
}

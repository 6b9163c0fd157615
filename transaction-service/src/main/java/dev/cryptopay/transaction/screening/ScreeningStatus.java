package dev.cryptopay.transaction.screening;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;

/** Whether the screening provider answers: the operator's service switch (docs/decisions.md §61); one row. */
@Entity
@Table(name = "screening_status")
public class ScreeningStatus extends PanacheEntityBase {

    public static final int ROW = 1;

    @Id
    public int id;

    @Column(nullable = false)
    public boolean available;

    public String reason;

    @Column(name = "updated_at", nullable = false)
    public OffsetDateTime updatedAt;
}

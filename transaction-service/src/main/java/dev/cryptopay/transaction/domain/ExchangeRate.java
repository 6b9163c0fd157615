package dev.cryptopay.transaction.domain;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.List;

/** One row of the operator's rate table: USD per one unit of a fiat currency or a crypto asset. */
@Entity
@Table(name = "exchange_rate")
public class ExchangeRate extends PanacheEntityBase {

    public static final String FIAT = "fiat";
    public static final String CRYPTO = "crypto";

    @Id
    public String code;

    @Column(nullable = false)
    public String kind;

    @Column(nullable = false)
    public BigDecimal usd;

    @Column(name = "as_of", nullable = false)
    public OffsetDateTime asOf;

    @Column(name = "updated_at", nullable = false)
    public OffsetDateTime updatedAt;

    public static List<ExchangeRate> all() {
        return list("order by kind desc, code");
    }
}

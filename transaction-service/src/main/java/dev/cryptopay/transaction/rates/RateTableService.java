package dev.cryptopay.transaction.rates;

import dev.cryptopay.transaction.domain.ExchangeRate;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.List;

/** The operator's rate table: read it whole, or set some of its rows (PUT /operator/rates). */
@ApplicationScoped
public class RateTableService {

    private final OperatorRateTable table;

    public RateTableService(OperatorRateTable table) {
        this.table = table;
    }

    /** One rate to set; {@code kind} is {@link ExchangeRate#FIAT} or {@link ExchangeRate#CRYPTO}. */
    public record RateUpdate(String code, String kind, BigDecimal usd, OffsetDateTime asOf) {
    }

    @Transactional
    public List<ExchangeRate> all() {
        return ExchangeRate.all();
    }

    /** Inserts or replaces the given rows; rows not named stay as they are. Quotes here use them at once (§75). */
    @Transactional
    public List<ExchangeRate> set(List<RateUpdate> updates) {
        OffsetDateTime now = OffsetDateTime.now();
        table.forget();
        for (RateUpdate update : updates) {
            ExchangeRate row = ExchangeRate.<ExchangeRate>findByIdOptional(update.code()).orElseGet(() -> {
                ExchangeRate fresh = new ExchangeRate();
                fresh.code = update.code();
                return fresh;
            });
            row.kind = update.kind();
            row.usd = update.usd();
            row.asOf = update.asOf();
            row.updatedAt = now;
            row.persist();
        }
        return ExchangeRate.all();
    }
}

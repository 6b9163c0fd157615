package dev.cryptopay.transaction.rates;

import dev.cryptopay.transaction.domain.ExchangeRate;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.util.Optional;

/** The rate provider of the sandbox: the {@code exchange_rate} table that the operator sets. */
@ApplicationScoped
public class OperatorRateTable implements RateProvider {

    @Override
    @Transactional
    public Optional<Rate> latest(String code) {
        return ExchangeRate.<ExchangeRate>findByIdOptional(code)
                .map(row -> new Rate(row.code, row.usd, row.asOf.toInstant()));
    }
}

package dev.cryptopay.transaction.rates;

import dev.cryptopay.support.environment.Environment;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.transaction.config.TransactionServiceConfig;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Rates as quoting uses them: a rate older than the configured maximum age is never used (503 with
 * Retry-After, docs/decisions.md §3). USD itself is always exactly 1.
 */
@ApplicationScoped
public class Rates {

    public static final String USD = "USD";

    private final RateProvider provider;
    private final Duration maxAge;
    private final long retryAfterSeconds;
    private final Clock clock;

    public Rates(RateProvider provider, TransactionServiceConfig config,
            Environment environment) {
        this.provider = provider;
        this.maxAge = environment.isSandbox() ? config.rates().sandboxMaxAge() : config.rates().maxAge();
        this.retryAfterSeconds = config.rates().retryAfterSeconds();
        this.clock = Clock.systemUTC();
    }

    /** USD per one unit of the local currency; a currency without a rate is a 400 naming {@code field}. */
    public BigDecimal fiatToUSD(String currency, String field) {
        if (USD.equals(currency)) {
            return BigDecimal.ONE;
        }
        Rate rate = provider.latest(currency)
                .orElseThrow(() -> ApiException.validation(field, "has no exchange rate: " + currency
                        + " is not offered (see docs/transactions.md)"));
        return fresh(rate);
    }

    /** USD per one unit of a catalogue asset; a missing rate is the platform's fault, so 503. */
    public BigDecimal cryptoToUSD(String asset) {
        Rate rate = provider.latest(asset).orElseThrow(() -> ApiException.unavailable(
                "No exchange rate for " + asset + " is available; try again later.", retryAfterSeconds));
        return fresh(rate);
    }

    public Duration maxAge() {
        return maxAge;
    }

    private BigDecimal fresh(Rate rate) {
        if (rate.asOf().plus(maxAge).isBefore(Instant.now(clock))) {
            throw ApiException.unavailable("The exchange rate of " + rate.code() + " is out of date (as of "
                    + rate.asOf() + "); try again later.", retryAfterSeconds);
        }
        return rate.usd();
    }
}

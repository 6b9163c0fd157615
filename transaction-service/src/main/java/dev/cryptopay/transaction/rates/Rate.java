package dev.cryptopay.transaction.rates;

import java.math.BigDecimal;
import java.time.Instant;

/** USD per one unit of {@code code} (a fiat currency or a crypto asset), as of a time. */
public record Rate(String code, BigDecimal usd, Instant asOf) {
}

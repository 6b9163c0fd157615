package dev.cryptopay.transaction.rates;

import java.util.Optional;

/**
 * Where exchange rates come from (docs/decisions.md §3). The sandbox uses the operator's table
 * ({@link OperatorRateTable}); a production deployment plugs in a market-data feed by providing another bean.
 * A provider only reports what it knows and when; {@link Rates} decides whether a rate is fresh enough.
 */
public interface RateProvider {

    /** The latest known rate of a fiat currency (ISO 4217) or a catalogue asset; empty when it has none. */
    Optional<Rate> latest(String code);
}

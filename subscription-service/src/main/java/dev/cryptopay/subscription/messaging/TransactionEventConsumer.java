package dev.cryptopay.subscription.messaging;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryptopay.events.CloudEvent;
import dev.cryptopay.events.EventTypes;
import dev.cryptopay.subscription.billing.Outcomes;
import dev.cryptopay.subscription.billing.Outcomes.Locked;
import dev.cryptopay.subscription.domain.AttemptResult;
import dev.cryptopay.subscription.domain.PaymentAttempt;
import dev.cryptopay.support.inbox.Inbox;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Currency;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Follows the billing transactions on {@code internal.billing.v1}, where transaction-service sends their events as
 * well as to {@code payments.transactions.v1} (docs/decisions.md §109): only events whose {@code transactionID} is
 * one of this service's attempt ids are applied (others are skipped without a trace), once per event id (inbox), and
 * an event older than the newest applied one ({@code version}, when present) is ignored. Records come a poll at a
 * time, in one database transaction, and one query finds which of them are billing attempts (one lookup and commit per
 * event was this service's whole cost under load when it read every transaction event, docs/performance.md, sixth
 * step).
 * <ul>
 * <li>every event: the address and crypto amount of {@code payments[0]}, the first transfer's hash;</li>
 * <li>{@code paymentStatus} 0: PENDING (awaiting funds); 2: CONFIRMING (a transfer is seen: no clock of this service
 * runs on an attempt then); 3: PARTIALLY_PAID (confirmed funds short of the amount; the payment too);</li>
 * <li>{@code transaction.success}: PAID; {@code transaction.expired}, {@code .cancelled}, {@code .forfeited}: the
 * attempt failed, whatever it received counting towards the payment.</li>
 * </ul>
 */
@ApplicationScoped
public class TransactionEventConsumer {

    static final String CONSUMER = "subscription.transactions";

    private final Inbox inbox;
    private final Outcomes outcomes;

    public TransactionEventConsumer(Inbox inbox, Outcomes outcomes) {
        this.inbox = inbox;
        this.outcomes = outcomes;
    }

    /**
     * Applies a poll's record values in their order; answers how many were this service's attempts and changed them.
     * Values that are not transaction events, or name no attempt of this service, are skipped.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public int applyAll(List<String> values) {
        List<TransactionEvent> events = new ArrayList<>(values.size());
        for (String value : values) {
            TransactionEvent event = TransactionEvent.parse(value);
            if (event != null) {
                events.add(event);
            }
        }
        return apply(events);
    }

    /** {@link #applyAll} for events already parsed ({@link TransactionEvent#parse}), in their order. */
    @Transactional(Transactional.TxType.MANDATORY)
    int apply(List<TransactionEvent> events) {
        if (events.isEmpty()) {
            return 0;
        }
        Set<UUID> attempts = outcomes.attemptsAmong(events.stream().map(TransactionEvent::attemptId).toList());
        int applied = 0;
        for (TransactionEvent event : events) {
            if (!attempts.contains(event.attemptId())) {
                continue;
            }
            Optional<Locked> locked = outcomes.lock(event.attemptId());
            if (locked.isPresent() && inbox.firstDelivery(CONSUMER, event.cloudEvent().id())
                    && apply(locked.get(), event.cloudEvent().type(), event.cloudEvent().data())) {
                applied++;
            }
        }
        return applied;
    }

    /** A record that is a transaction event naming a transaction id (any transaction's, not yet known to be ours). */
    record TransactionEvent(CloudEvent cloudEvent, UUID attemptId) {

        /** The event, or null when the value is not a CloudEvent of a transaction. */
        static TransactionEvent parse(String value) {
            try {
                CloudEvent event = CloudEvent.parse(value);
                JsonNode id = event.data() == null ? null : event.data().get("transactionID");
                if (id == null || !event.type().startsWith("transaction.")) {
                    return null;
                }
                return new TransactionEvent(event, UUID.fromString(id.asText()));
            } catch (IllegalArgumentException e) {
                return null; // not a CloudEvent, or not a transaction id
            }
        }
    }

    private boolean apply(Locked l, String type, JsonNode tx) {
        PaymentAttempt a = l.attempt();
        JsonNode version = tx.get("version");
        if (version != null && version.canConvertToLong()) {
            if (version.asLong() <= a.txVersion) {
                return false; // stale or repeated
            }
            a.txVersion = version.asLong();
        }
        JsonNode first = tx.path("payments").path(0);
        if (!first.isMissingNode()) {
            if (text(first, "address") != null) {
                a.address = text(first, "address");
            }
            if (first.hasNonNull("expectedCrypto")) {
                a.amount = first.get("expectedCrypto").decimalValue();
            }
        }
        for (JsonNode payment : tx.path("payments")) {
            if (a.txnHash == null && text(payment, "txnHash") != null) {
                a.txnHash = text(payment, "txnHash");
            }
        }
        if (!a.result.open()) {
            return true; // already decided; only details are kept
        }
        switch (type) {
            case EventTypes.TRANSACTION_SUCCESS -> outcomes.paid(l);
            case EventTypes.TRANSACTION_EXPIRED, EventTypes.TRANSACTION_CANCELLED, EventTypes.TRANSACTION_FORFEITED ->
                outcomes.failed(l, "transaction " + type.substring("transaction.".length()), received(tx, l));
            default -> progress(l, tx.path("paymentStatus").asInt(0));
        }
        return true;
    }

    private void progress(Locked l, int paymentStatus) {
        PaymentAttempt a = l.attempt();
        switch (paymentStatus) {
            case 2 -> a.result = AttemptResult.CONFIRMING;
            case 3 -> outcomes.partlyPaid(l);
            default -> {
                if (a.result == AttemptResult.REQUESTED) {
                    a.result = AttemptResult.PENDING;
                }
            }
        }
    }

    /** Confirmed funds of the transaction in the payment's currency: receivedUSD ÷ fxRateToUSD, rounded down. */
    private static BigDecimal received(JsonNode tx, Locked l) {
        JsonNode amounts = tx.path("amounts");
        if (!amounts.hasNonNull("receivedUSD")) {
            return BigDecimal.ZERO;
        }
        BigDecimal usd = amounts.get("receivedUSD").decimalValue();
        BigDecimal rate = amounts.hasNonNull("fxRateToUSD") ? amounts.get("fxRateToUSD").decimalValue() : BigDecimal.ONE;
        if (usd.signum() <= 0 || rate.signum() <= 0) {
            return BigDecimal.ZERO;
        }
        int digits;
        try {
            digits = Math.max(0, Currency.getInstance(l.payment().currency).getDefaultFractionDigits());
        } catch (IllegalArgumentException e) {
            digits = 2;
        }
        return usd.divide(rate, digits, RoundingMode.DOWN);
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }
}

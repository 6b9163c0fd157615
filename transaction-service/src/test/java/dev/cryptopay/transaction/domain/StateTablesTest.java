package dev.cryptopay.transaction.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cryptopay.support.problem.ApiException;
import java.time.OffsetDateTime;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Walks every pair of states of each aggregate: each move docs/decisions.md §2 allows works through the aggregate, every
 * other is refused (409 invalid_state for transactions and refunds, whose moves clients ask for). The allowed moves
 * are written here again, from the decisions document, as "from→to" wire values.
 */
class StateTablesTest {

    private static final Set<String> TRANSACTION_MOVES = Set.of(
            "-3→0", "-3→-2", "-3→-1",
            "0→1", "0→-2", "0→-4", "0→-1", "0→-3");

    private static final Set<String> REFUND_MOVES = Set.of("0→2", "0→-1", "2→1", "2→-1");

    private static final Set<String> PAYMENT_REQUEST_MOVES = Set.of(
            "0→2", "0→1", "0→3", "0→-1", "0→-2",
            "2→0", "2→1", "2→3",
            "1→2",
            "3→2", "3→1");

    @Test
    void everyTransactionMoveOfTheTableWorksAndEveryOtherIsRefused() {
        int allowed = 0;
        for (TransactionState from : TransactionState.values()) {
            for (TransactionState to : TransactionState.values()) {
                Transaction tx = new Transaction();
                tx.start(from);
                if (TRANSACTION_MOVES.contains(from.wire() + "→" + to.wire())) {
                    tx.moveTo(to);
                    assertEquals(to.wire(), tx.status);
                    allowed++;
                } else {
                    ApiException refused = assertThrows(ApiException.class, () -> tx.moveTo(to), from + "→" + to);
                    assertEquals(409, refused.status());
                    assertEquals("invalid_state", refused.code());
                    assertEquals(from.wire(), tx.status, "a refused move changes nothing");
                }
            }
        }
        assertEquals(TRANSACTION_MOVES.size(), allowed);
        assertEquals(Set.of(TransactionState.SUCCESS, TransactionState.EXPIRED, TransactionState.CANCELLED,
                TransactionState.FORFEITED), Set.of(TransactionState.values()).stream()
                        .filter(TransactionState::isFinal).collect(java.util.stream.Collectors.toSet()));
    }

    @Test
    void everyRefundMoveOfTheTableWorksAndEveryOtherIsRefused() {
        int allowed = 0;
        for (RefundStatus from : RefundStatus.values()) {
            for (RefundStatus to : RefundStatus.values()) {
                Refund leg = new Refund();
                leg.status = from.wire();
                OffsetDateTime now = OffsetDateTime.now();
                Runnable move = switch (to) {
                    case BROADCAST -> () -> leg.broadcast("0xabc", now);
                    case COMPLETED -> () -> leg.complete(now);
                    case FAILED -> () -> leg.fail("why", now);
                    case PENDING -> () -> leg.status = leg.state().moveTo(RefundStatus.PENDING).wire();
                };
                if (REFUND_MOVES.contains(from.wire() + "→" + to.wire())) {
                    move.run();
                    assertEquals(to.wire(), leg.status);
                    allowed++;
                } else {
                    ApiException refused = assertThrows(ApiException.class, move::run, from + "→" + to);
                    assertEquals("invalid_state", refused.code());
                    assertEquals(from.wire(), leg.status);
                }
            }
        }
        assertEquals(REFUND_MOVES.size(), allowed);
    }

    @Test
    void everyPaymentRequestMoveOfTheTableWorksStayingPutIsAlwaysAllowedAndEveryOtherIsABug() {
        int allowed = 0;
        for (PaymentRequestState from : PaymentRequestState.values()) {
            for (PaymentRequestState to : PaymentRequestState.values()) {
                PaymentRequest request = new PaymentRequest();
                request.id = UUID.randomUUID();
                request.status = from.wire();
                if (from == to || PAYMENT_REQUEST_MOVES.contains(from.wire() + "→" + to.wire())) {
                    request.moveTo(to);
                    assertEquals(to.wire(), request.status);
                    allowed += from == to ? 0 : 1;
                } else {
                    assertThrows(IllegalStateException.class, () -> request.moveTo(to), from + "→" + to);
                    assertEquals(from.wire(), request.status);
                }
            }
        }
        assertEquals(PAYMENT_REQUEST_MOVES.size(), allowed);
    }

    @Test
    void wireValuesAreTheDecisionsOnes() {
        assertEquals(-3, TransactionState.WAITING_FOR_KYC.wire());
        assertEquals(-4, TransactionState.FORFEITED.wire());
        assertEquals(2, PaymentRequestState.CONFIRMING.wire());
        assertEquals(3, PaymentRequestState.UNDERPAID.wire());
        assertEquals(4, PaymentStatus.OVERPAID.wire());
        assertEquals(2, RefundStatus.BROADCAST.wire());
        assertThrows(IllegalArgumentException.class, () -> TransactionState.of(7));
    }
}

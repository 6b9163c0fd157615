package dev.cryptopay.transaction.detection;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.transaction.domain.PaymentRequest;
import dev.cryptopay.transaction.domain.PaymentRequestState;
import dev.cryptopay.transaction.domain.Transaction;
import dev.cryptopay.transaction.domain.TransactionState;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** When detection records a transfer as late (the rules it then follows are domain.Settlement's). */
class LateTransferTest {

    private static final OffsetDateTime T0 = OffsetDateTime.parse("2026-11-21T10:00:00Z");

    @Test
    void lateIsDecidedByTheRequestAndTheTransaction() {
        Transaction tx = new Transaction();
        tx.id = UUID.randomUUID();
        tx.start(TransactionState.PENDING);
        tx.totalUSD = new BigDecimal("100.00");
        tx.customerFeeUSD = BigDecimal.ZERO;
        tx.receivedUSD = BigDecimal.ZERO;
        PaymentRequest btc = new PaymentRequest();
        btc.id = UUID.randomUUID();
        btc.transactionId = tx.id;
        btc.expectedCrypto = new BigDecimal("0.002");
        btc.cryptoFXRate = new BigDecimal("50000");
        btc.status = PaymentRequestState.AWAITING.wire(); // test setup

        OffsetDateTime now = T0.plusSeconds(10);
        btc.expiration = T0.plusSeconds(60);
        assertFalse(Detection.isLate(btc, tx, now));
        btc.expiration = T0;
        assertTrue(Detection.isLate(btc, tx, now), "QR expired though the expiry job has not run yet");
        btc.expiration = T0.plusSeconds(60);
        tx.start(TransactionState.CANCELLED);
        assertTrue(Detection.isLate(btc, tx, now));
        tx.start(TransactionState.SUCCESS);
        assertFalse(Detection.isLate(btc, tx, now), "more money to a paid transaction is an overpayment");
    }
}

package dev.cryptopay.transaction.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The money rules of detection, without a database: statuses, sums at the locked rate, late funds, rounding. */
class SettlementTest {

    private static final OffsetDateTime T0 = OffsetDateTime.parse("2026-11-21T10:00:00Z");

    private final Transaction tx = transaction("100.00", "0.00");
    private final PaymentRequest btc = request(tx, "0.00200000", "50000");
    private final List<PaymentTransfer> transfers = new ArrayList<>();

    @Test
    void nothingSeenIsUnpaid() {
        Settlement.Outcome outcome = Settlement.apply(tx, List.of(btc), transfers);
        assertFalse(outcome.succeeded());
        assertEquals(PaymentStatus.UNPAID.wire(), tx.paymentStatus);
        assertEquals(PaymentRequestState.AWAITING.wire(), btc.status);
        assertEquals(0, BigDecimal.ZERO.compareTo(btc.receivedCrypto));
        assertNull(btc.txnHash);
    }

    @Test
    void aConfirmingTransferIsReceivedButNotYetPaid() {
        transfers.add(transfer(btc, "0.002", PaymentTransfer.CONFIRMING, 1, false, 0));
        assertFalse(Settlement.apply(tx, List.of(btc), transfers).succeeded());
        assertEquals(PaymentStatus.CONFIRMING.wire(), tx.paymentStatus);
        assertEquals(PaymentRequestState.CONFIRMING.wire(), btc.status);
        assertEquals(0, new BigDecimal("0.002").compareTo(btc.receivedCrypto));
        assertEquals(0, new BigDecimal("100").compareTo(btc.receivedUSD));
        assertEquals(0, BigDecimal.ZERO.compareTo(tx.receivedUSD), "the transaction counts confirmed funds only");
        assertEquals(1, btc.confirmationCount);
    }

    @Test
    void confirmedFundsCoveringTheAmountSucceedExactlyOnce() {
        transfers.add(transfer(btc, "0.002", PaymentTransfer.CONFIRMED, 3, false, 0));
        assertTrue(Settlement.apply(tx, List.of(btc), transfers).succeeded());
        assertEquals(TransactionState.SUCCESS, tx.state());
        assertEquals(PaymentStatus.PAID.wire(), tx.paymentStatus);
        assertEquals(PaymentRequestState.CONFIRMED.wire(), btc.status);
        assertFalse(Settlement.apply(tx, List.of(btc), transfers).succeeded(), "already successful");
    }

    @Test
    void roundingTheQuoteUpIsNotOverpayingButACentMoreIs() {
        // 0.00200001 BTC at 50,000 = 100.0005 USD: the smallest unit above the amount, not an overpayment.
        transfers.add(transfer(btc, "0.00200001", PaymentTransfer.CONFIRMED, 1, false, 0));
        Settlement.apply(tx, List.of(btc), transfers);
        assertEquals(PaymentStatus.PAID.wire(), tx.paymentStatus);
        assertEquals(0, new BigDecimal("100.0005").compareTo(tx.receivedUSD));

        Transaction other = transaction("100.00", "0.00");
        PaymentRequest request = request(other, "0.00200000", "50000");
        // 0.0020002 BTC = 100.01 USD
        List<PaymentTransfer> more = List.of(transfer(request, "0.0020002", PaymentTransfer.CONFIRMED, 1, false, 0));
        Settlement.apply(other, List.of(request), more);
        assertEquals(PaymentStatus.OVERPAID.wire(), other.paymentStatus);
        assertEquals(TransactionState.SUCCESS, other.state());
    }

    @Test
    void anUnderpaymentConfirmedIsPartiallyPaidAndTwoRequestsAddUp() {
        transfers.add(transfer(btc, "0.0012", PaymentTransfer.CONFIRMED, 1, false, 0));
        Settlement.apply(tx, List.of(btc), transfers);
        assertEquals(PaymentStatus.PARTIALLY_PAID.wire(), tx.paymentStatus);
        assertEquals(PaymentRequestState.UNDERPAID.wire(), btc.status);
        assertEquals(0, new BigDecimal("60").compareTo(Settlement.seenOnTimeUSD(List.of(btc), transfers)));

        PaymentRequest usdc = request(tx, "40", "1");
        transfers.add(transfer(usdc, "40", PaymentTransfer.CONFIRMED, 1, false, 1));
        assertTrue(Settlement.apply(tx, List.of(btc, usdc), transfers).succeeded());
        assertEquals(PaymentStatus.PAID.wire(), tx.paymentStatus);
        assertEquals(0, new BigDecimal("100").compareTo(tx.receivedUSD));
    }

    @Test
    void theCustomerFeeIsPartOfTheAmountDue() {
        Transaction withFee = transaction("100.00", "2.50");
        PaymentRequest request = request(withFee, "0.00205000", "50000");
        List<PaymentTransfer> paidTotalOnly = List.of(transfer(request, "0.002", PaymentTransfer.CONFIRMED, 1, false, 0));
        assertFalse(Settlement.apply(withFee, List.of(request), paidTotalOnly).succeeded());
        assertEquals(PaymentStatus.PARTIALLY_PAID.wire(), withFee.paymentStatus);
        List<PaymentTransfer> paidAll = List.of(transfer(request, "0.00205", PaymentTransfer.CONFIRMED, 1, false, 0));
        assertTrue(Settlement.apply(withFee, List.of(request), paidAll).succeeded());
    }

    @Test
    void aDroppedTransferCountsForNothing() {
        transfers.add(transfer(btc, "0.002", PaymentTransfer.DROPPED, 0, false, 0));
        btc.status = PaymentRequestState.CONFIRMING.wire(); // test setup
        assertFalse(Settlement.apply(tx, List.of(btc), transfers).succeeded());
        assertEquals(PaymentStatus.UNPAID.wire(), tx.paymentStatus);
        assertEquals(PaymentRequestState.AWAITING.wire(), btc.status);
        assertEquals(0, BigDecimal.ZERO.compareTo(btc.receivedCrypto));
    }

    @Test
    void lateFundsAreReceivedButChangeNoStatus() {
        tx.start(TransactionState.EXPIRED);
        btc.status = PaymentRequestState.EXPIRED.wire(); // test setup
        transfers.add(transfer(btc, "0.002", PaymentTransfer.CONFIRMED, 1, true, 0));
        assertFalse(Settlement.apply(tx, List.of(btc), transfers).succeeded());
        assertEquals(TransactionState.EXPIRED, tx.state());
        assertEquals(PaymentRequestState.EXPIRED.wire(), btc.status);
        assertEquals(PaymentStatus.PAID.wire(), tx.paymentStatus);
        assertEquals(0, new BigDecimal("100").compareTo(tx.receivedUSD));

        // Late funds on an expired request never complete a transaction that is still pending.
        Transaction pending = transaction("100.00", "0.00");
        PaymentRequest old = request(pending, "0.002", "50000");
        old.status = PaymentRequestState.EXPIRED.wire(); // test setup
        assertFalse(Settlement.apply(pending, List.of(old),
                List.of(transfer(old, "0.002", PaymentTransfer.CONFIRMED, 1, true, 0))).succeeded());
        assertEquals(TransactionState.PENDING, pending.state());
    }

    private static Transaction transaction(String totalUSD, String fee) {
        Transaction tx = new Transaction();
        tx.id = UUID.randomUUID();
        tx.start(TransactionState.PENDING);
        tx.totalUSD = new BigDecimal(totalUSD);
        tx.customerFeeUSD = new BigDecimal(fee);
        tx.receivedUSD = BigDecimal.ZERO;
        return tx;
    }

    private static PaymentRequest request(Transaction tx, String expectedCrypto, String rate) {
        PaymentRequest request = new PaymentRequest();
        request.id = UUID.randomUUID();
        request.transactionId = tx.id;
        request.expectedCrypto = new BigDecimal(expectedCrypto);
        request.cryptoFXRate = new BigDecimal(rate);
        request.status = PaymentRequestState.AWAITING.wire(); // test setup
        request.expiration = T0.plusSeconds(900);
        return request;
    }

    private static PaymentTransfer transfer(PaymentRequest request, String amount, int status, int confirmations,
            boolean late, int seconds) {
        PaymentTransfer transfer = new PaymentTransfer();
        transfer.id = UUID.randomUUID();
        transfer.paymentRequestId = request.id;
        transfer.transactionId = request.transactionId;
        transfer.txnHash = "hash-" + transfer.id;
        transfer.position = 0;
        transfer.amount = new BigDecimal(amount);
        transfer.status = status;
        transfer.confirmations = confirmations;
        transfer.late = late;
        transfer.detectedAt = T0.plusSeconds(seconds);
        return transfer;
    }
}

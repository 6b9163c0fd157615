package dev.cryptopay.transaction.view;

import dev.cryptopay.support.catalogue.Catalogue;
import dev.cryptopay.transaction.domain.KycDetails;
import dev.cryptopay.transaction.domain.PaymentRequest;
import dev.cryptopay.transaction.domain.PaymentTransfer;
import dev.cryptopay.transaction.domain.Refund;
import dev.cryptopay.transaction.domain.Transaction;
import dev.cryptopay.transaction.domain.TransactionState;
import dev.cryptopay.transaction.kyc.KycPolicy;
import dev.cryptopay.transaction.quote.Money;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.time.OffsetDateTime;
import java.util.Currency;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

/** Entities to the API records: the one mapping, shared by the REST answers and the events. */
public final class TransactionViews {

    private TransactionViews() {
    }

    /** The view with the transaction's requests and transfers read from the database. */
    public static TransactionView load(Transaction tx) {
        return of(tx, PaymentRequest.ofTransaction(tx.id), PaymentTransfer.ofTransaction(tx.id),
                Refund.ofTransaction(tx.id));
    }

    public static TransactionView of(Transaction tx, List<PaymentRequest> payments, List<PaymentTransfer> transfers,
            List<Refund> refunds) {
        Map<UUID, List<PaymentTransfer>> byRequest = transfers.stream()
                .collect(Collectors.groupingBy(t -> t.paymentRequestId));
        Remaining remaining = remaining(tx);
        return new TransactionView(
                tx.id.toString(),
                tx.accountId.toString(),
                tx.merchantId.toString(),
                tx.externalMID,
                tx.descriptor,
                tx.referenceNumber,
                tx.quoteID,
                tx.status,
                tx.paymentStatus,
                new TransactionView.Amounts(tx.currency, tx.totalLocal, tx.totalUSD, tx.receivedUSD,
                        tx.customerFeeUSD, tx.fxRateToUSD),
                new TransactionView.Compliance(tx.kycTriggered, tx.travelRuleTriggered, kyc(tx.kycDetails),
                        tx.resolutionLogs == null ? List.of() : List.copyOf(tx.resolutionLogs), tx.strFilingReference,
                        tx.heldForReview),
                payments.stream().map(p -> payment(p, byRequest.getOrDefault(p.id, List.of()))).toList(),
                refunds.stream().map(TransactionViews::refund).toList(),
                remaining.local(),
                remaining.usd(),
                tx.cancellationReason,
                time(tx.createdAt),
                time(tx.updatedAt),
                time(tx.expiration),
                tx.version,
                tx.merchantFees);
    }

    public static TransactionView.RefundView refund(Refund r) {
        return new TransactionView.RefundView(r.id.toString(), r.cryptoAsset, r.cryptoNetwork, r.cryptoAmount,
                r.fiatAmount, r.fiatCurrency, r.gasFee, r.gasFeePayer, r.receiverAddress, r.status, r.reason,
                r.paymentRequestId.toString(), r.txnHash, r.confirmations, time(r.createdAt), time(r.completedAt),
                r.failureReason);
    }

    public static TransactionView.PaymentView payment(PaymentRequest p, List<PaymentTransfer> transfers) {
        return new TransactionView.PaymentView(p.id.toString(), p.cryptoAsset, p.cryptoNetwork, p.address,
                p.expectedCrypto, p.receivedCrypto, p.expectedUSD, p.receivedUSD, p.txnHash, p.confirmationCount,
                p.gasFee, p.status, p.qrData, time(p.expiration), p.cryptoFXRate, p.requiredConfirmations,
                p.fromAddress, transfers.stream().map(TransactionViews::transfer).toList(), time(p.createdAt),
                time(p.completedAt), gasFeeUnits(p.cryptoNetwork), p.walletName, ratePerUSD(p.cryptoFXRate),
                p.fraudPass);
    }

    /** The asset a network's gas is paid in. */
    private static String gasFeeUnits(String network) {
        return Catalogue.get().network(network).map(Catalogue.Network::nativeAsset).orElse(null);
    }

    /** Units of the asset one USD buys at {@code usdPerUnit}, to 18 significant digits (rounded half-even). */
    static BigDecimal ratePerUSD(BigDecimal usdPerUnit) {
        return usdPerUnit == null || usdPerUnit.signum() == 0 ? null
                : BigDecimal.ONE.divide(usdPerUnit, new MathContext(18, RoundingMode.HALF_EVEN))
                        .stripTrailingZeros();
    }

    private static TransactionView.TransferView transfer(PaymentTransfer t) {
        String status = switch (t.status) {
            case PaymentTransfer.CONFIRMED -> "confirmed";
            case PaymentTransfer.DROPPED -> "dropped";
            default -> "confirming";
        };
        return new TransactionView.TransferView(t.txnHash, t.fromAddress, t.amount, t.blockNumber, t.confirmations,
                status, t.late, time(t.detectedAt), time(t.confirmedAt));
    }

    /** The answer of a creation, payment or verification that produced {@code payment}. */
    public static CreationResult created(Transaction tx, PaymentRequest payment) {
        return new CreationResult(tx.id.toString(), payment.qrData, payment.address,
                Money.plain(payment.expectedCrypto), payment.customerFeeUSD, payment.cryptoFXRate,
                payment.id.toString(), tx.quoteID, tx.status, List.of(), List.of());
    }

    /** The answer of a creation that waits for KYC: no address yet, and what the verification must supply. */
    public static CreationResult waitingForKyc(Transaction tx) {
        return new CreationResult(tx.id.toString(), null, null, null, null, null, null, tx.quoteID, tx.status,
                List.copyOf(tx.requiredFields), KycPolicy.SUPPORTED_DOCUMENT_TYPES);
    }

    /**
     * What is still owed: {@code remainingUSD = max(0, totalUSD + customerFeeUSD − receivedUSD)} (received =
     * confirmed funds); {@code remainingLocal} is totalLocal while nothing arrived and there is no customer fee,
     * else remainingUSD ÷ fxRateToUSD rounded up to the currency's minor unit. Final states other than success owe
     * nothing.
     */
    public record Remaining(BigDecimal local, BigDecimal usd) {
    }

    public static Remaining remaining(Transaction tx) {
        if (tx.state() == TransactionState.CANCELLED || tx.state() == TransactionState.FORFEITED
                || tx.state() == TransactionState.EXPIRED) {
            return new Remaining(BigDecimal.ZERO.setScale(tx.totalLocal.scale()), Money.usd(BigDecimal.ZERO));
        }
        if (tx.receivedUSD.signum() == 0 && tx.customerFeeUSD.signum() == 0) {
            return new Remaining(tx.totalLocal, tx.totalUSD);
        }
        BigDecimal usd = tx.totalUSD.add(tx.customerFeeUSD).subtract(tx.receivedUSD).max(BigDecimal.ZERO);
        int digits = Math.max(0, Currency.getInstance(tx.currency).getDefaultFractionDigits());
        BigDecimal local = usd.divide(tx.fxRateToUSD, digits, RoundingMode.CEILING);
        return new Remaining(local, Money.usd(usd));
    }

    private static TransactionView.KycDetailsView kyc(KycDetails details) {
        if (details == null) {
            return null;
        }
        var customer = details.customer();
        return new TransactionView.KycDetailsView(details.status(), details.documentType(),
                customer == null ? null : customer.firstName(), customer == null ? null : customer.lastName(),
                customer == null ? null : customer.email(), customer == null ? null : customer.country(),
                details.documents() == null ? List.of() : details.documents().stream()
                        .map(d -> new TransactionView.DocumentView(d.documentID(), d.side(), d.contentType(),
                                d.sizeBytes()))
                        .toList(),
                details.customerStored(), details.submittedAt());
    }

    public static String time(OffsetDateTime time) {
        return time == null ? null : time.toInstant().toString();
    }
}

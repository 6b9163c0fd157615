package dev.cryptopay.reporting.testing;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cryptopay.events.CloudEvent;
import dev.cryptopay.events.Topics;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Publishes CloudEvents on the test broker in the documented shapes (contracts: payments.transactions.v1 with
 * version, merchantFees and the extended payment fields; payments.refunds.v1; payments.merchants.v1), so the tests
 * can send duplicates, reorder and leave out versions at will.
 */
public final class Events implements AutoCloseable {

    public static final ObjectMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .nodeFactory(JsonNodeFactory.withExactBigDecimals(true)).build();

    private final KafkaProducer<String, String> producer;

    public Events() {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, System.getProperty("test.kafka.bootstrap", "127.0.0.1:19092"));
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
    }

    /** A transaction state (Get Transaction shape) to be tweaked by the test and sent with {@link #transaction}. */
    public static ObjectNode transaction(UUID account, UUID merchant, UUID id, long version, int status,
            int paymentStatus, String receivedUSD, Instant createdAt, Instant updatedAt) {
        ObjectNode d = JSON.createObjectNode();
        d.put("transactionID", id.toString());
        d.put("accountID", account.toString());
        d.put("merchantID", merchant.toString());
        d.put("externalMID", "ext-" + merchant.toString().substring(0, 8));
        d.put("descriptor", "Shop");
        d.put("referenceNumber", "ref-" + id.toString().substring(0, 8));
        d.putNull("quoteID");
        d.put("status", status);
        d.put("paymentStatus", paymentStatus);
        ObjectNode amounts = d.putObject("amounts");
        amounts.put("currency", "USD");
        amounts.put("totalLocal", new BigDecimal("100.00"));
        amounts.put("totalUSD", new BigDecimal("100.00"));
        amounts.put("receivedUSD", new BigDecimal(receivedUSD));
        amounts.put("customerFeeUSD", new BigDecimal("0.00"));
        amounts.put("fxRateToUSD", new BigDecimal("1"));
        ObjectNode compliance = d.putObject("compliance");
        compliance.put("kycTriggered", false);
        compliance.put("travelRuleTriggered", false);
        compliance.putNull("kycDetails");
        compliance.putArray("resolutionLogs");
        compliance.putNull("strFilingReference");
        ArrayNode payments = d.putArray("payments");
        ObjectNode p = payments.addObject();
        p.put("paymentRequestID", UUID.nameUUIDFromBytes(id.toString().getBytes()).toString());
        p.put("cryptoAsset", "USDC");
        p.put("cryptoNetwork", "polygon");
        p.put("address", "0xabc" + id.toString().substring(0, 8));
        p.put("expectedCrypto", new BigDecimal("100.000000"));
        p.put("receivedCrypto", new BigDecimal(receivedUSD));
        p.put("expectedUSD", new BigDecimal("100.00"));
        p.put("receivedUSD", new BigDecimal(receivedUSD));
        p.put("txnHash", "0xhash" + version);
        p.put("confirmationCount", (int) version);
        p.put("gasFee", new BigDecimal("0.000021"));
        p.put("status", paymentStatus == 1 ? 1 : 0);
        p.put("qrData", "ethereum:...");
        p.put("expiration", createdAt.plusSeconds(900).toString());
        p.put("cryptoFXRate", new BigDecimal("1"));
        p.put("fromAddress", "0xpayer");
        p.put("createdAt", createdAt.toString());
        if (status == 1) {
            p.put("completedAt", updatedAt.toString());
        } else {
            p.putNull("completedAt");
        }
        p.put("gasFeeUnits", "POL");
        p.put("walletName", "MetaMask");
        p.put("cryptoRatePerUSD", new BigDecimal("1.000000"));
        p.put("fraudPass", true);
        p.putArray("transfers");
        d.putArray("refunds");
        d.put("remainingLocal", new BigDecimal("0.00"));
        d.put("remainingUSD", new BigDecimal("0.00"));
        d.putNull("cancellationReason");
        d.put("createdAt", createdAt.toString());
        d.put("updatedAt", updatedAt.toString());
        d.put("expiration", createdAt.plusSeconds(3600).toString());
        d.put("version", version);
        d.putNull("merchantFees");
        return d;
    }

    /** merchantFees: MDR {@code percentage} + {@code flatRate} USD; platform per transaction bps + flat cents. */
    public static ObjectNode fees(String percentage, String flatRate, String collection, String bps,
            String flatCents) {
        ObjectNode fees = JSON.createObjectNode();
        ObjectNode mdr = fees.putObject("merchantDiscountRate");
        mdr.put("percentage", new BigDecimal(percentage));
        mdr.put("flatRate", new BigDecimal(flatRate));
        mdr.put("flatRateCurrency", "USD");
        ObjectNode platform = fees.putObject("fees").putObject("platform");
        platform.put("collection", collection);
        ObjectNode perTransaction = platform.putObject("perTransaction");
        perTransaction.put("basisPoints", new BigDecimal(bps));
        perTransaction.put("flatCents", new BigDecimal(flatCents));
        ((ObjectNode) fees.get("fees")).putNull("partner");
        return fees;
    }

    public static ObjectNode refund(UUID account, UUID merchant, UUID transaction, UUID refund, long version,
            int status, String amountUSD, Instant createdAt, Instant updatedAt) {
        ObjectNode d = JSON.createObjectNode();
        d.put("refundID", refund.toString());
        d.put("transactionID", transaction.toString());
        d.put("accountID", account.toString());
        d.put("merchantID", merchant.toString());
        d.put("paymentRequestID", UUID.nameUUIDFromBytes(transaction.toString().getBytes()).toString());
        d.put("cryptoAsset", "USDC");
        d.put("cryptoNetwork", "polygon");
        d.put("cryptoAmount", new BigDecimal(amountUSD));
        d.put("fiatAmount", new BigDecimal(amountUSD));
        d.put("fiatCurrency", "USD");
        d.put("amountUSD", new BigDecimal(amountUSD));
        d.put("gasFee", new BigDecimal("0.01"));
        d.put("gasFeePayer", "customer");
        d.put("receiverAddress", "0xpayer");
        d.put("status", status);
        d.put("reason", "customer asked");
        if (status == 1 || status == 2) {
            d.put("txnHash", "0xrefund" + version);
        } else {
            d.putNull("txnHash");
        }
        d.put("createdAt", createdAt.toString());
        d.put("updatedAt", updatedAt.toString());
        if (status == 1) {
            d.put("completedAt", updatedAt.toString());
        } else {
            d.putNull("completedAt");
        }
        d.put("version", version);
        return d;
    }

    public static ObjectNode merchant(UUID account, UUID merchant, long version, String frequency, String anchor,
            Instant updatedAt) {
        ObjectNode d = JSON.createObjectNode();
        d.put("merchantId", merchant.toString());
        d.put("accountId", account.toString());
        d.put("externalMID", "ext-" + merchant.toString().substring(0, 8));
        d.put("name", "Shop");
        d.put("status", 1);
        d.put("fxRateAllowed", false);
        d.put("kycEnabled", false);
        d.put("cancelTransactionEnabled", false);
        d.put("settlementFrequency", frequency);
        d.put("settlementAnchor", anchor);
        d.put("version", version);
        d.put("updatedAt", updatedAt.toString());
        return d;
    }

    /** Sends a transaction event with a fresh event id; returns the record value (to send again as a duplicate). */
    public String transaction(String type, ObjectNode data) {
        String value = event(type, data.get("transactionID").asText(), data);
        send(Topics.TRANSACTIONS, data.get("transactionID").asText(), value);
        return value;
    }

    public String refund(String type, ObjectNode data) {
        String value = event(type, data.get("refundID").asText(), data);
        send(Topics.REFUNDS, data.get("refundID").asText(), value);
        return value;
    }

    public String merchant(ObjectNode data) {
        String value = event("merchant.updated", data.get("merchantId").asText(), data);
        send(Topics.MERCHANTS, data.get("merchantId").asText(), value);
        return value;
    }

    public static String event(String type, String subject, ObjectNode data) {
        return CloudEvent.of("/test", type, subject, data).toJson();
    }

    public void send(String topic, String key, String value) {
        try {
            producer.send(new ProducerRecord<>(topic, key, value)).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot publish on " + topic, e.getCause());
        }
    }

    @Override
    public void close() {
        producer.close();
    }
}

package dev.cryptopay.subscription.mail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.icegreen.greenmail.util.GreenMailUtil;
import dev.cryptopay.events.EventTypes;
import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.subscription.billing.BillingJob;
import dev.cryptopay.subscription.domain.BillingClock;
import dev.cryptopay.subscription.testing.Api;
import dev.cryptopay.subscription.testing.Fixtures;
import dev.cryptopay.subscription.testing.GreenMailResource;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;
import jakarta.persistence.EntityManager;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** E-mails through Quarkus Mailer to a real SMTP server (GreenMail), as the account's two switches say. */
@QuarkusTest
@QuarkusTestResource(GreenMailResource.class)
class MailTest {

    @Inject
    BillingJob job;

    @Inject
    BillingClock clock;

    @Inject
    MailSender sender;

    @Inject
    EntityManager em;

    private String failOnce(UUID account, String subscription) {
        var payments = Api.payments(account, subscription);
        List<String> ids = payments.getList("payments[0].payments.id");
        String attempt = ids.get(ids.size() - 1);
        Fixtures.deliverTransactionEvent(Fixtures.transactionEvent(EventTypes.TRANSACTION_EXPIRED, attempt, 1, -1, 0,
                "10", "0", "0xa", "10", null));
        return attempt;
    }

    private static List<MimeMessage> to(String recipient, int expected) throws MessagingException {
        Instant deadline = Instant.now().plusSeconds(10);
        List<MimeMessage> found = List.of();
        while (Instant.now().isBefore(deadline)) {
            found = Arrays.stream(GreenMailResource.server().getReceivedMessages()).filter(m -> {
                try {
                    return Arrays.stream(m.getRecipients(Message.RecipientType.TO))
                            .anyMatch(a -> a.toString().equals(recipient));
                } catch (MessagingException e) {
                    return false;
                }
            }).toList();
            if (found.size() >= expected) {
                return found;
            }
            GreenMailResource.server().waitForIncomingEmail(200, 1);
        }
        return found;
    }

    @Test
    void theCustomerHearsOfEveryFailedAttemptAndTheMerchantWhenAttemptsAreExhausted() throws Exception {
        UUID account = UUID.randomUUID();
        String owner = "owner-" + account + "@shop.example";
        String customer = "customer-" + account + "@example.com";
        UUID merchant = Fixtures.merchant(account, MerchantConfiguration.ENABLED, owner, true, true);
        String plan = Fixtures.plan(account, merchant, "10", "MONTHLY").getString("id");
        String subscription = Fixtures.subscription(account, plan, customer).getString("id");
        job.runOnce();
        failOnce(account, subscription);

        List<MimeMessage> first = to(customer, 1);
        assertEquals(1, first.size());
        assertEquals("Your payment to Corner Shop Ltd failed", first.get(0).getSubject());
        String body = GreenMailUtil.getBody(first.get(0));
        assertTrue(body.contains("10 USD"), body);
        assertTrue(body.contains("transaction expired"), body);
        assertTrue(body.contains("We will ask for it again on"), body);
        assertEquals("billing@cryptopay.local", first.get(0).getFrom()[0].toString());
        assertEquals(0, to(owner, 0).size());

        for (long wait : new long[] { 1, 3, 7 }) {
            clock.advance(Duration.ofDays(wait).plusSeconds(1));
            job.runOnce();
            failOnce(account, subscription);
        }
        List<MimeMessage> merchantMail = to(owner, 1);
        assertEquals(1, merchantMail.size());
        assertEquals("Subscription payment failed after 4 attempts", merchantMail.get(0).getSubject());
        String notice = GreenMailUtil.getBody(merchantMail.get(0));
        assertTrue(notice.contains(subscription), notice);
        assertTrue(notice.contains(customer), notice);
        assertTrue(notice.contains("PAYMENT_FAILED"), notice);
        List<MimeMessage> customerMails = to(customer, 4);
        assertEquals(4, customerMails.size());
        assertTrue(GreenMailUtil.getBody(customerMails.get(3)).contains("No further attempt"));
    }

    @Test
    void switchesThatAreOffOrUnsetSendNothing() {
        UUID account = UUID.randomUUID();
        String owner = "quiet-" + account + "@shop.example";
        String customer = "quiet-" + account + "@example.com";
        UUID merchant = Fixtures.merchant(account, MerchantConfiguration.ENABLED, owner, false, null);
        String plan = Fixtures.plan(account, merchant, "10", "MONTHLY").getString("id");
        String subscription = Fixtures.subscription(account, plan, customer).getString("id");
        job.runOnce();
        for (long wait : new long[] { 1, 3, 7, 0 }) {
            failOnce(account, subscription);
            clock.advance(Duration.ofDays(wait).plusSeconds(1));
            job.runOnce();
        }
        assertEquals("PAYMENT_FAILED", Api.subscription(account, subscription).getString("status"));
        sender.sendPending();
        Number queued = QuarkusTransaction.requiringNew().call(() -> (Number) em.createNativeQuery(
                "select count(*) from notification where recipient in (?1, ?2)").setParameter(1, owner)
                .setParameter(2, customer).getSingleResult());
        assertEquals(0, queued.intValue());
    }
}

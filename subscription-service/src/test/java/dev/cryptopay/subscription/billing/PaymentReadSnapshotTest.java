package dev.cryptopay.subscription.billing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cryptopay.subscription.rest.SubscriptionDtos.PaymentView;
import dev.cryptopay.subscription.testing.Fixtures;
import dev.cryptopay.subscription.testing.GreenMailResource;
import dev.cryptopay.support.paging.PageRequest;
import dev.cryptopay.support.testing.LockWaits;
import io.agroal.api.AgroalDataSource;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A payment and its attempts are read in two statements, and the outcome of an attempt changes both in one
 * transaction (Outcomes). An answer must show them as of one moment (docs/decisions.md §110). To make the outcome
 * commit exactly between the two statements, the test holds an exclusive lock on the attempts' table: the read takes
 * the payment, then waits for the lock; the test then writes the outcome to both tables, commits, and the read goes on.
 * Under READ COMMITTED the attempts' statement would see the new outcome beside the payment's old status.
 */
@QuarkusTest
@QuarkusTestResource(GreenMailResource.class)
class PaymentReadSnapshotTest {

    @Inject
    BillingJob job;

    @Inject
    EntityManager em;

    @Inject
    PaymentService payments;

    @Inject
    AgroalDataSource dataSource;

    private final ExecutorService reader = Executors.newSingleThreadExecutor();
    private UUID account;
    private UUID subscription;
    private UUID payment;

    @BeforeEach
    void aBilledSubscription() {
        account = UUID.randomUUID();
        String plan = Fixtures.plan(account, Fixtures.merchant(account), "5", "MONTHLY").getString("id");
        subscription = UUID.fromString(Fixtures.subscription(account, plan, "payer@example.com").getString("id"));
        job.runOnce();
        payment = QuarkusTransaction.requiringNew().call(() -> (UUID) em.createNativeQuery(
                "select id from subscription_payment where subscription_id = ?1").setParameter(1, subscription)
                .getSingleResult());
    }

    @AfterEach
    void stopReader() {
        reader.shutdownNow();
    }

    @Test
    void onePaymentShowsItsStatusAndItsAttemptsAsOfOneMoment() throws Exception {
        PaymentView before = payments.get(account, payment);
        assertEquals("PENDING", before.status());
        assertEquals(List.of("REQUESTED"), results(before));

        PaymentView read = readWhilePaid(() -> payments.get(account, payment));

        assertEquals("PENDING", read.status(), "the payment as the read began");
        assertEquals(List.of("REQUESTED"), results(read), "its attempts as of the same moment, not after the outcome");
        PaymentView after = payments.get(account, payment);
        assertEquals("PAID", after.status());
        assertEquals(List.of("PAID"), results(after));
    }

    @Test
    void aPageShowsEachPaymentAndItsAttemptsAsOfOneMoment() throws Exception {
        PaymentService.Filters bySubscription = new PaymentService.Filters(null, null, null,
                subscription.toString(), null, null, null);

        var page = readWhilePaid(() -> payments.list(account, bySubscription, PageRequest.of(null, null)));

        assertEquals(1, page.totalCount());
        PaymentView read = page.items().get(0);
        assertEquals("PENDING", read.status(), "the payment as the read began");
        assertEquals(List.of("REQUESTED"), results(read), "its attempts as of the same moment, not after the outcome");
        PaymentView after = payments.list(account, bySubscription, PageRequest.of(null, null)).items().get(0);
        assertEquals("PAID", after.status());
        assertEquals(List.of("PAID"), results(after));
    }

    /**
     * Runs {@code read} while the attempts' table is locked, waits until it is blocked there, then commits the
     * attempt's success and its payment's PAID together (as Outcomes does) and answers what the read saw.
     */
    private <T> T readWhilePaid(Callable<T> read) throws Exception {
        try (Connection writer = dataSource.getConnection()) {
            writer.setAutoCommit(false);
            execute(writer, "lock table payment_attempt in access exclusive mode");
            Future<T> answer = reader.submit(read);
            LockWaits.awaitBlocked(dataSource, answer);
            execute(writer, "update subscription_payment set status = 'PAID', amount_paid = total, "
                    + "open_attempt_id = null where id = '" + payment + "'");
            execute(writer, "update payment_attempt set result = 'PAID', completed_at = now() "
                    + "where payment_id = '" + payment + "'");
            writer.commit();
            return answer.get(10, TimeUnit.SECONDS);
        }
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (var statement = c.createStatement()) {
            statement.execute(sql);
        }
    }

    private static List<String> results(PaymentView view) {
        return view.payments().stream().map(a -> a.result()).toList();
    }
}

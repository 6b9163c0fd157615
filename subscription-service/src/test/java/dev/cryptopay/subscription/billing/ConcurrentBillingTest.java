package dev.cryptopay.subscription.billing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.subscription.domain.BillingClock;
import dev.cryptopay.subscription.testing.GreenMailResource;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * 500 due subscriptions and several billing jobs running at once, each in its own threads, transactions and database
 * connections — as replicas of the service do, since they coordinate only through the database (claims with
 * {@code for update skip locked}). Every subscription is billed exactly once: one payment, one attempt, one billing
 * request.
 */
@QuarkusTest
@QuarkusTestResource(GreenMailResource.class)
class ConcurrentBillingTest {

    private static final int SUBSCRIPTIONS = 500;
    private static final int INSTANCES = 4;

    @Inject
    BillingJob job;

    @Inject
    BillingClock clock;

    @Inject
    EntityManager em;

    @Test
    void everyDueSubscriptionIsBilledExactlyOnceWhateverRunsAtOnce() throws Exception {
        UUID account = UUID.randomUUID();
        UUID merchant = UUID.randomUUID();
        UUID plan = UUID.randomUUID();
        QuarkusTransaction.requiringNew().run(() -> {
            em.createNativeQuery("insert into plan (id, account_id, merchant_id, plan_name, billing_interval, amount, "
                    + "currency, created_at) values (?1, ?2, ?3, 'Load', 'MONTHLY', 5, 'USD', ?4)")
                    .setParameter(1, plan).setParameter(2, account).setParameter(3, merchant)
                    .setParameter(4, clock.now()).executeUpdate();
            em.createNativeQuery("insert into subscription (id, account_id, merchant_id, plan_id, plan_name, "
                    + "customer_email, wallet_address, asset, network, status, billing_interval, amount, currency, "
                    + "anchor_at, next_billing_at, created_at, updated_at) "
                    + "select gen_random_uuid(), ?1, ?2, ?3, 'Load', 'c' || n || '@example.com', 'tb1q', 'USDC', "
                    + "'polygon', case when n % 2 = 0 then 'CREATED' else 'ACTIVE' end, 'MONTHLY', 5, 'USD', ?4, ?4, "
                    + "?4, ?4 from generate_series(1, ?5) n")
                    .setParameter(1, account).setParameter(2, merchant).setParameter(3, plan)
                    .setParameter(4, clock.now()).setParameter(5, SUBSCRIPTIONS).executeUpdate();
        });

        ExecutorService pool = Executors.newFixedThreadPool(INSTANCES);
        CyclicBarrier start = new CyclicBarrier(INSTANCES);
        List<Future<BillingJob.Pass>> passes = new ArrayList<>();
        for (int i = 0; i < INSTANCES; i++) {
            passes.add(pool.submit(() -> {
                start.await();
                return job.runOnce();
            }));
        }
        int billed = 0;
        for (Future<BillingJob.Pass> pass : passes) {
            billed += pass.get().billed();
        }
        pool.shutdown();
        assertTrue(billed >= SUBSCRIPTIONS, "the passes billed " + billed);

        Object[] counts = QuarkusTransaction.requiringNew().call(() -> (Object[]) em.createNativeQuery(
                "select count(*), count(distinct p.subscription_id), "
                        + "(select count(*) from payment_attempt a join subscription_payment q on q.id = a.payment_id "
                        + "where q.account_id = ?1), "
                        + "(select count(*) from outbox_event o where o.topic = 'internal.billing.v1' and o.message_key in "
                        + "(select a.id::text from payment_attempt a join subscription_payment q on q.id = a.payment_id "
                        + "where q.account_id = ?1)), "
                        + "(select count(*) from subscription s where s.account_id = ?1 and s.open_payment_id is null) "
                        + "from subscription_payment p where p.account_id = ?1")
                .setParameter(1, account).getSingleResult());
        assertEquals(SUBSCRIPTIONS, ((Number) counts[0]).intValue(), "payments");
        assertEquals(SUBSCRIPTIONS, ((Number) counts[1]).intValue(), "subscriptions billed");
        assertEquals(SUBSCRIPTIONS, ((Number) counts[2]).intValue(), "attempts");
        assertEquals(SUBSCRIPTIONS, ((Number) counts[3]).intValue(), "billing requests");
        assertEquals(0, ((Number) counts[4]).intValue(), "subscriptions left without their open payment");

        job.runOnce();
        Number again = QuarkusTransaction.requiringNew().call(() -> (Number) em.createNativeQuery(
                "select count(*) from subscription_payment where account_id = ?1").setParameter(1, account)
                .getSingleResult());
        assertEquals(SUBSCRIPTIONS, again.intValue(), "a later pass bills none of them again");
    }
}

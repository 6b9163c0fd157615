package dev.cryptopay.support.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.support.testing.LockWaits;
import io.agroal.api.AgroalDataSource;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link TransactionLocks} on the real database: a name is held until its transaction ends, and two names whose 32-bit
 * {@code hashtext} is the same (which would share one lock, so unrelated work could wait on, or deadlock with, each
 * other) are two locks. The colliding pair is found by PostgreSQL itself, so the test does not depend on one version's
 * hash values.
 */
@QuarkusTest
class TransactionLocksTest {

    @Inject
    AgroalDataSource dataSource;

    private final ExecutorService pool = Executors.newFixedThreadPool(2);

    @AfterEach
    void stopPool() {
        pool.shutdownNow();
    }

    @Test
    void aNameIsHeldUntilItsTransactionEnds() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch held = new CountDownLatch(1);
        Future<?> holder = pool.submit(() -> QuarkusTransaction.requiringNew().run(() -> {
            TransactionLocks.take("transaction-locks-test:same");
            held.countDown();
            await(release);
        }));
        assertTrue(held.await(10, TimeUnit.SECONDS), "the first transaction never took the lock");

        Future<?> second = pool.submit(
                () -> QuarkusTransaction.requiringNew().run(() -> TransactionLocks.take("transaction-locks-test:same")));
        LockWaits.awaitBlocked(dataSource, second);
        assertFalse(second.isDone(), "a second transaction took a lock the first still holds");

        release.countDown();
        holder.get(10, TimeUnit.SECONDS);
        second.get(10, TimeUnit.SECONDS); // the first's commit released it
    }

    @Test
    void namesWhose32BitHashesCollideAreTwoLocks() throws Exception {
        String[] pair = collidingPair();
        assertEquals(hash("hashtext", pair[0]), hash("hashtext", pair[1]), "the pair shares a 32-bit hash");
        assertNotEquals(hash("hashtextextended", pair[0]), hash("hashtextextended", pair[1]));

        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch held = new CountDownLatch(1);
        Future<?> holder = pool.submit(() -> QuarkusTransaction.requiringNew().run(() -> {
            TransactionLocks.take(pair[0]);
            held.countDown();
            await(release);
        }));
        try {
            assertTrue(held.await(10, TimeUnit.SECONDS), "the first transaction never took the lock");
            // With a 32-bit hash this waits until the holder commits, so get() times out.
            pool.submit(() -> QuarkusTransaction.requiringNew().run(() -> TransactionLocks.take(pair[1])))
                    .get(5, TimeUnit.SECONDS);
        } finally {
            release.countDown();
        }
        holder.get(10, TimeUnit.SECONDS);
    }

    /** Two distinct names with the same {@code hashtext}; among 300,000 names a pair is all but certain. */
    private String[] collidingPair() throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("select min(name), max(name) from (select 'transaction-locks-test:' || n "
                        + "name from generate_series(1, 300000) n) names group by hashtext(name) "
                        + "having count(*) > 1 limit 1")) {
            assertTrue(rs.next(), "no two of 300,000 names share a 32-bit hash");
            return new String[] {rs.getString(1), rs.getString(2)};
        }
    }

    private long hash(String function, String name) throws SQLException {
        String call = function.equals("hashtext") ? "hashtext(?)" : "hashtextextended(?, 0)";
        try (Connection c = dataSource.getConnection();
                var st = c.prepareStatement("select " + call)) {
            st.setString(1, name);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

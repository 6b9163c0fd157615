package dev.cryptopay.reporting.service;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cryptopay.reporting.rest.ReportDtos.TransactionDetail;
import dev.cryptopay.reporting.rest.ReportDtos.TransactionList;
import dev.cryptopay.reporting.store.StoreSchemas;
import dev.cryptopay.reporting.testing.Await;
import dev.cryptopay.reporting.testing.Events;
import dev.cryptopay.support.testing.LockWaits;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
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
 * A transaction's row and its payment rows are read in separate statements, and the projector changes them in one
 * transaction. An answer must show them as of one moment (docs/decisions.md §110). To commit a change exactly between
 * the statements, the test holds an exclusive lock on the payment rows' table: the read takes the transaction's row
 * (and the count), then waits for the lock; the test then marks the transaction and its payment paid, commits, and the
 * read goes on. Under READ COMMITTED the payments' statement would see the payment paid beside the transaction's
 * old status.
 */
@QuarkusTest
class ReadSnapshotTest {

    @Inject
    ReportQueries queries;

    @Inject
    StoreSchemas schemas;

    @Inject
    AgroalDataSource dataSource;

    private final ExecutorService reader = Executors.newSingleThreadExecutor();
    private UUID account;
    private UUID transaction;

    @BeforeEach
    void anOpenTransaction() {
        account = UUID.randomUUID();
        transaction = UUID.randomUUID();
        Instant created = Instant.parse("2026-03-01T10:00:00Z");
        try (Events events = new Events()) {
            events.transaction("transaction.created", Events.transaction(account, UUID.randomUUID(), transaction, 1,
                    0, 0, "0", created, created));
        }
        Await.until(() -> queries.detail(account, transaction).isPresent(), () -> "transaction not projected");
    }

    @AfterEach
    void stopReader() {
        reader.shutdownNow();
    }

    @Test
    void oneTransactionShowsItsStatusAndItsPaymentsAsOfOneMoment() throws Exception {
        TransactionDetail read = readWhilePaid(() -> queries.detail(account, transaction).orElseThrow());

        assertEquals(0, read.status(), "the transaction as the read began");
        assertEquals(0, read.payments().get(0).status(), "its payment as of the same moment, not after the change");
        TransactionDetail after = queries.detail(account, transaction).orElseThrow();
        assertEquals(1, after.status());
        assertEquals(1, after.payments().get(0).status());
    }

    @Test
    void theListingShowsTheCountTheRowsAndTheirPaymentsAsOfOneMoment() throws Exception {
        TransactionFilter ofAccount = new TransactionFilter(account, null, null, List.of(), List.of(), null, null,
                null);

        TransactionList read = readWhilePaid(() -> queries.list(ofAccount, 10, 0));

        assertEquals(1, read.total());
        assertEquals(0, read.transactions().get(0).status(), "the transaction as the read began");
        assertEquals(0, read.transactions().get(0).payments().get(0).status(),
                "its payment as of the same moment, not after the change");
        TransactionList after = queries.list(ofAccount, 10, 0);
        assertEquals(1, after.transactions().get(0).status());
        assertEquals(1, after.transactions().get(0).payments().get(0).status());
    }

    /**
     * Runs {@code read} while the payment rows' table is locked, waits until it is blocked there, then commits the
     * transaction's and its payment's success together (as the projector does) and answers what the read saw.
     */
    private <T> T readWhilePaid(Callable<T> read) throws Exception {
        String schema = schemas.active();
        try (Connection writer = dataSource.getConnection()) {
            writer.setAutoCommit(false);
            execute(writer, "lock table " + schema + ".payment_row in access exclusive mode");
            Future<T> answer = reader.submit(read);
            LockWaits.awaitBlocked(dataSource, answer);
            execute(writer, "update " + schema + ".transaction_row set status = 1, payment_status = 1 "
                    + "where transaction_id = '" + transaction + "'");
            execute(writer, "update " + schema + ".payment_row set status = 1 "
                    + "where transaction_id = '" + transaction + "'");
            writer.commit();
            return answer.get(10, TimeUnit.SECONDS);
        }
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (var statement = c.createStatement()) {
            statement.execute(sql);
        }
    }
}

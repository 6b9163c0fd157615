package dev.cryptopay.transaction.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.support.idempotency.IdempotentCreations;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.security.Caller;
import dev.cryptopay.transaction.rest.TransactionDtos.CreateTransactionRequest;
import dev.cryptopay.transaction.service.NewTransaction;
import dev.cryptopay.transaction.service.TransactionService;
import dev.cryptopay.transaction.view.CreationResult;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.smallrye.mutiny.subscription.UniSubscriber;
import io.smallrye.mutiny.subscription.UniSubscription;
import jakarta.ws.rs.core.Response;
import java.math.BigDecimal;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /transaction}'s answer when the caller is gone before a worker takes the creation up (Quarkus REST
 * cancels the answer when it learns of it): nothing is created and nothing is logged as dropped; with the caller
 * still there a failure reaches it, to be mapped to its problem+json answer.
 */
class CreationCancelledTest {

    /** A service that only counts the creations it is asked for, each refused as a missing identity would be. */
    static final class CountingService extends TransactionService {
        final AtomicInteger creations = new AtomicInteger();

        CountingService() {
            super(null, null, null, null, null, null, null, null, null, null, null);
        }

        @Override
        public IdempotentCreations.Once<CreationResult> create(Caller caller, NewTransaction request,
                String idempotencyKey) {
            creations.incrementAndGet();
            throw ApiException.unauthorized("This endpoint needs an account's key.");
        }
    }

    private final CountingService service = new CountingService();
    private final TransactionResource resource = new TransactionResource(service, null, null, null);
    private final List<Throwable> dropped = new CopyOnWriteArrayList<>();

    @BeforeEach
    void catchDropped() {
        Infrastructure.setDroppedExceptionHandler(dropped::add);
    }

    @AfterEach
    void restore() {
        Infrastructure.resetDroppedExceptionHandler();
    }

    @Test
    void aCallerGoneBeforeTheWorkerStartedCreatesNothingAndNothingIsDropped() throws Exception {
        Outcome outcome = subscribe(true);

        assertTrue(outcome.subscribed.await(10, TimeUnit.SECONDS), "the worker took the answer up");
        Thread.sleep(200); // anything the worker still did after cancelling would have happened by now
        assertEquals(0, service.creations.get(), "no creation for a caller that is gone");
        assertEquals(List.of(), outcome.signals, "no item or failure after the cancellation");
        assertEquals(List.of(), dropped, "no failure dropped (Mutiny logs those as errors)");
    }

    @Test
    void aCallerStillThereGetsTheFailure() throws Exception {
        Outcome outcome = subscribe(false);

        assertTrue(outcome.answered.await(10, TimeUnit.SECONDS), "answered");
        assertEquals(1, service.creations.get());
        assertEquals(1, outcome.signals.size());
        assertInstanceOf(ApiException.class, outcome.signals.get(0));
        assertEquals(List.of(), dropped);
    }

    private record Outcome(CountDownLatch subscribed, CountDownLatch answered, List<Object> signals) {
    }

    private Outcome subscribe(boolean cancelAtOnce) {
        Outcome outcome = new Outcome(new CountDownLatch(1), new CountDownLatch(1), new CopyOnWriteArrayList<>());
        resource.create(null, new CreateTransactionRequest(null, null, new BigDecimal("25"), "USD", "USDC", "base", null,
                null, null)).subscribe().withSubscriber(new UniSubscriber<Response>() {
                    @Override
                    public void onSubscribe(UniSubscription subscription) {
                        if (cancelAtOnce) {
                            subscription.cancel();
                        }
                        outcome.subscribed.countDown();
                    }

                    @Override
                    public void onItem(Response item) {
                        outcome.signals.add(item);
                        outcome.answered.countDown();
                    }

                    @Override
                    public void onFailure(Throwable failure) {
                        outcome.signals.add(failure);
                        outcome.answered.countDown();
                    }
                });
        return outcome;
    }
}

package dev.cryptopay.subscription.billing;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.cryptopay.subscription.domain.BillingClock;
import dev.cryptopay.subscription.domain.PaymentAttempt;
import dev.cryptopay.subscription.domain.PaymentStatus;
import dev.cryptopay.subscription.domain.Subscription;
import dev.cryptopay.subscription.domain.SubscriptionPayment;
import dev.cryptopay.subscription.domain.SubscriptionStateMachine;
import dev.cryptopay.subscription.domain.SubscriptionStatus;
import dev.cryptopay.subscription.rest.SubscriptionDtos.PaymentView;
import dev.cryptopay.subscription.rest.Views;
import dev.cryptopay.subscription.service.Ids;
import dev.cryptopay.subscription.service.Listing;
import dev.cryptopay.subscription.service.SubscriptionService;
import dev.cryptopay.support.idempotency.IdempotentCreations;
import dev.cryptopay.support.jdbc.ConsistentReads;
import dev.cryptopay.support.paging.PageRequest;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.security.Caller;
import dev.cryptopay.support.validation.Validation;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Subscription payments through the API.
 * <ul>
 * <li>Create bills the subscription's next period now, ahead of its date: a PENDING payment with no attempt yet (the
 * billing job opens the first within its interval). Only a CREATED or ACTIVE subscription without an open payment
 * (else 409); an unknown subscription, or another account's, is 400 like any unknown reference in a body.</li>
 * <li>Retry opens a new attempt at once for the subscription's newest payment that is not PAID (FAILED, PENDING or
 * PARTIALLY_PAID). 409 when there is none, when its attempt is still open, or when the subscription is paused or
 * canceled. A retry of a FAILED payment puts it back to PENDING (or PARTIALLY_PAID) for that one attempt.</li>
 * </ul>
 */
@ApplicationScoped
public class PaymentService {

    static final List<String> STATUSES = Arrays.stream(PaymentStatus.values()).map(Enum::name).toList();
    private static final TypeReference<PaymentView> PAYMENT = new TypeReference<>() {
    };

    private final EntityManager em;
    private final BillingClock clock;
    private final Billing billing;
    private final SubscriptionService subscriptions;
    private final ConsistentReads consistentReads;
    private final IdempotentCreations creations;

    public PaymentService(EntityManager em, BillingClock clock, Billing billing, SubscriptionService subscriptions,
            ConsistentReads consistentReads, IdempotentCreations creations) {
        this.em = em;
        this.clock = clock;
        this.billing = billing;
        this.subscriptions = subscriptions;
        this.consistentReads = consistentReads;
        this.creations = creations;
    }

    /**
     * {@link #create(UUID, String)} once per caller and Idempotency-Key (docs/decisions.md §112): a retry the gateway
     * could not answer must not bill the subscription a second time.
     */
    @Transactional
    public IdempotentCreations.Once<PaymentView> create(Caller caller, UUID account, String subscriptionId,
            String idempotencyKey) {
        return creations.once(caller, idempotencyKey, subscriptionId, PAYMENT, () -> create(account, subscriptionId));
    }

    @Transactional
    public PaymentView create(UUID account, String subscriptionId) {
        Validation v = new Validation().requiredText("subscriptionId", subscriptionId);
        UUID id = Ids.field(v, "subscriptionId", subscriptionId);
        v.throwIfInvalid();
        Subscription s = em.find(Subscription.class, id, LockModeType.PESSIMISTIC_WRITE);
        if (s == null || !s.accountId.equals(account)) {
            throw ApiException.validation("subscriptionId", "unknown subscription");
        }
        if (!SubscriptionStateMachine.billable(s.status)) {
            throw ApiException.conflict("invalid_state", "A subscription in " + s.status + " is not billed.");
        }
        if (s.openPaymentId != null) {
            throw ApiException.conflict("invalid_state", "The subscription's payment " + s.openPaymentId
                    + " is still open.");
        }
        return Views.payment(billing.newPayment(s, clock.now()), List.of());
    }

    @Transactional
    public void retry(UUID account, UUID subscriptionId) {
        Subscription s = subscriptions.lock(account, subscriptionId);
        if (s.status == SubscriptionStatus.PAUSED || s.status == SubscriptionStatus.CANCELED) {
            throw ApiException.conflict("invalid_state", "A subscription in " + s.status + " is not billed.");
        }
        SubscriptionPayment p = SubscriptionPayment.<SubscriptionPayment>find(
                "subscriptionId = ?1 and status <> ?2 order by period desc", s.id, PaymentStatus.PAID)
                .firstResultOptional()
                .orElseThrow(() -> ApiException.conflict("invalid_state",
                        "The subscription has no failed or pending payment to retry."));
        p = em.find(SubscriptionPayment.class, p.id, LockModeType.PESSIMISTIC_WRITE);
        if (p.openAttemptId != null) {
            throw ApiException.conflict("invalid_state", "The payment's attempt " + p.openAttemptId
                    + " is still open.");
        }
        if (p.status == PaymentStatus.FAILED) {
            p.moveTo(p.amountPaid.signum() > 0 ? PaymentStatus.PARTIALLY_PAID : PaymentStatus.PENDING);
        }
        s.openPaymentId = p.id;
        billing.openAttempt(s, p, clock.now());
    }

    @Transactional
    public PaymentView get(UUID account, UUID id) {
        consistentReads.begin(); // the payment and then its attempts, which the outcomes change together
        SubscriptionPayment p = SubscriptionPayment.findById(id);
        if (p == null || !p.accountId.equals(account)) {
            throw ApiException.notFound("Subscription payment " + id);
        }
        return Views.payment(p);
    }

    public record Filters(String accountId, String merchantId, String planId, String subscriptionId, String status,
            String from, String to) {
    }

    /** {@code from}/{@code to}: unix seconds on the creation time, both inclusive ({@code to} with its whole second). */
    @Transactional
    public Listing.Page<PaymentView> list(UUID account, Filters f, PageRequest page) {
        consistentReads.begin(); // the total, the page and then the page's attempts
        Ids.ownAccount(account, f.accountId());
        Validation v = new Validation();
        UUID merchant = Ids.field(v, "merchantId", f.merchantId());
        UUID plan = Ids.field(v, "planId", f.planId());
        UUID subscription = Ids.field(v, "subscriptionId", f.subscriptionId());
        v.oneOf("status", f.status(), STATUSES);
        Long from = seconds(v, "from", f.from());
        Long to = seconds(v, "to", f.to());
        v.throwIfInvalid();
        Listing.Page<SubscriptionPayment> found = Listing.of(SubscriptionPayment.class).where("accountId", account)
                .where("merchantId", merchant).where("planId", plan).where("subscriptionId", subscription)
                .where("status", f.status() == null ? null : PaymentStatus.valueOf(f.status()))
                .where("createdAt", ">=", from == null ? null : at(from))
                .where("createdAt", "<", to == null ? null : at(to + 1))
                .fetch(em, page);
        Map<UUID, List<PaymentAttempt>> attempts = found.items().isEmpty() ? Map.of()
                : PaymentAttempt.<PaymentAttempt>list("paymentId in ?1 order by startedAt, id",
                        found.items().stream().map(p -> p.id).toList())
                        .stream().collect(Collectors.groupingBy(a -> a.paymentId));
        return new Listing.Page<>(found.items().stream()
                .map(p -> Views.payment(p, attempts.getOrDefault(p.id, List.of()))).toList(), found.totalCount());
    }

    private static Long seconds(Validation v, String field, String raw) {
        if (raw == null || raw.isBlank()) {
            return null;
        }
        try {
            long value = Long.parseLong(raw.strip());
            if (value < 0 || value > 253_402_300_799L) {
                v.add(field, "must be unix seconds between 0 and 253402300799");
                return null;
            }
            return value;
        } catch (NumberFormatException e) {
            v.add(field, "must be unix seconds (a whole number)");
            return null;
        }
    }

    private static OffsetDateTime at(long seconds) {
        return Instant.ofEpochSecond(seconds).atOffset(ZoneOffset.UTC);
    }
}

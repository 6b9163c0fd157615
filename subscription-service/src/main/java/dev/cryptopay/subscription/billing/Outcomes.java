package dev.cryptopay.subscription.billing;

import dev.cryptopay.subscription.config.SubscriptionConfig;
import dev.cryptopay.subscription.domain.AttemptResult;
import dev.cryptopay.subscription.domain.BillingCalendar;
import dev.cryptopay.subscription.domain.BillingClock;
import dev.cryptopay.subscription.domain.PaymentAttempt;
import dev.cryptopay.subscription.domain.PaymentStatus;
import dev.cryptopay.subscription.domain.Subscription;
import dev.cryptopay.subscription.domain.SubscriptionPayment;
import dev.cryptopay.subscription.domain.SubscriptionStateMachine.Trigger;
import dev.cryptopay.subscription.domain.SubscriptionStatus;
import dev.cryptopay.subscription.mail.Notifications;
import dev.cryptopay.subscription.service.Lifecycle;
import dev.cryptopay.subscription.service.SubscriptionEvents;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.hibernate.Session;

/**
 * What happens to a payment and its subscription when an attempt ends — paid, partly paid, failed — including the
 * dunning of docs/decisions.md §12 and the issue: after a failed attempt the next one opens after the configured wait
 * ({@code retry-schedule}, default 1, 3 and 7 days); when the last automatic attempt failed the payment is FAILED and
 * the subscription PAYMENT_FAILED. Dunning is per payment, so one failing subscription never touches another.
 *
 * <p>Locks: subscription, then payment, then attempt — the same order as the API and the billing job.
 */
@ApplicationScoped
public class Outcomes {

    private final EntityManager em;
    private final BillingClock clock;
    private final SubscriptionConfig config;
    private final Lifecycle lifecycle;
    private final SubscriptionEvents events;
    private final Notifications notifications;

    public Outcomes(EntityManager em, BillingClock clock, SubscriptionConfig config, Lifecycle lifecycle,
            SubscriptionEvents events, Notifications notifications) {
        this.em = em;
        this.clock = clock;
        this.config = config;
        this.lifecycle = lifecycle;
        this.events = events;
        this.notifications = notifications;
    }

    /** An attempt, its payment and its subscription, all locked. */
    public record Locked(Subscription subscription, SubscriptionPayment payment, PaymentAttempt attempt) {
    }

    /**
     * Which of these transaction ids are attempts of this service (one query, nothing locked). Every transaction event
     * of the platform passes here, in batches of any size, so the query goes to JDBC with one SQL text for all of them
     * ({@code = any} of an array). Through Hibernate it cost 40% of this consumer's CPU under load
     * (docs/performance.md, sixteenth step): an HQL {@code in :ids} was translated to SQL again for each new number of
     * ids, and a native query's lookup in Hibernate's interpretation cache compared keys one by one. It does not flush
     * the session: callers ask before they change anything in the transaction.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public Set<UUID> attemptsAmong(Collection<UUID> transactionIds) {
        if (transactionIds.isEmpty()) {
            return Set.of();
        }
        Object[] ids = new HashSet<>(transactionIds).toArray();
        String sql = "select id from payment_attempt where id = any(?)";
        return em.unwrap(Session.class).doReturningWork(connection -> {
            try (PreparedStatement st = connection.prepareStatement(sql)) {
                st.setArray(1, connection.createArrayOf("uuid", ids));
                Set<UUID> found = new HashSet<>();
                try (ResultSet rs = st.executeQuery()) {
                    while (rs.next()) {
                        found.add(rs.getObject(1, UUID.class));
                    }
                }
                return found;
            }
        });
    }

    /** Locks the attempt with its payment and subscription; empty when the id is not one of this service's attempts. */
    @Transactional(Transactional.TxType.MANDATORY)
    public Optional<Locked> lock(UUID attemptId) {
        List<Object[]> ids = em.createQuery("select p.subscriptionId, p.id from PaymentAttempt a, SubscriptionPayment p "
                + "where a.id = :id and p.id = a.paymentId", Object[].class).setParameter("id", attemptId)
                .getResultList();
        if (ids.isEmpty()) {
            return Optional.empty();
        }
        Subscription s = em.find(Subscription.class, ids.get(0)[0], LockModeType.PESSIMISTIC_WRITE);
        SubscriptionPayment p = em.find(SubscriptionPayment.class, ids.get(0)[1], LockModeType.PESSIMISTIC_WRITE);
        PaymentAttempt a = em.find(PaymentAttempt.class, attemptId, LockModeType.PESSIMISTIC_WRITE);
        return Optional.of(new Locked(s, p, a));
    }

    /** Funds confirmed cover the attempt: the payment is PAID and the subscription's calendar moves on. */
    @Transactional(Transactional.TxType.MANDATORY)
    public void paid(Locked l) {
        OffsetDateTime now = clock.now();
        Subscription s = l.subscription();
        SubscriptionPayment p = l.payment();
        PaymentAttempt a = l.attempt();
        a.result = AttemptResult.PAID;
        a.completedAt = now;
        p.amountPaid = p.amountPaid.add(a.requestedAmount).min(p.total);
        p.moveTo(PaymentStatus.PAID);
        p.openAttemptId = null;
        p.nextAttemptAt = null;
        p.updatedAt = now;
        if (p.id.equals(s.openPaymentId)) {
            s.openPaymentId = null;
        }
        s.everPaid = true;
        if (s.lastBillingAt == null || p.billingDate.isAfter(s.lastBillingAt)) {
            s.lastBillingAt = p.billingDate;
        }
        if (p.period >= s.nextPeriod) {
            s.nextPeriod = p.period + 1;
        }
        if (s.status != SubscriptionStatus.CANCELED) {
            s.nextBillingAt = BillingCalendar.date(s.anchorAt.toInstant(), s.billingInterval, s.nextPeriod)
                    .atOffset(now.getOffset());
        }
        s.updatedAt = now;
        lifecycle.move(s, Trigger.BILLING_PAID, "payment " + p.id + " paid");
        events.paymentPaid(p);
    }

    /** Confirmed funds short of the amount: PARTIALLY_PAID, the rest still payable to the same address. */
    @Transactional(Transactional.TxType.MANDATORY)
    public void partlyPaid(Locked l) {
        l.attempt().result = AttemptResult.PARTIALLY_PAID;
        if (l.payment().status == PaymentStatus.PENDING) {
            l.payment().moveTo(PaymentStatus.PARTIALLY_PAID);
            l.payment().updatedAt = clock.now();
        }
    }

    /**
     * The attempt ended without full payment ({@code received}: what it did receive, in the payment's currency).
     * The next attempt is scheduled, or the payment fails finally.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public void failed(Locked l, String reason, BigDecimal received) {
        OffsetDateTime now = clock.now();
        Subscription s = l.subscription();
        SubscriptionPayment p = l.payment();
        PaymentAttempt a = l.attempt();
        a.result = AttemptResult.FAILED;
        a.completedAt = now;
        a.failureReason = reason.length() > 500 ? reason.substring(0, 500) : reason;
        if (received != null && received.signum() > 0) {
            p.amountPaid = p.amountPaid.add(received).min(p.total);
        }
        if (a.id.equals(p.openAttemptId)) {
            p.openAttemptId = null;
        }
        if (p.status == PaymentStatus.PAID) {
            // a stale attempt that ends after another one paid the bill: only the attempt is recorded (PAID is final)
            p.updatedAt = now;
            return;
        }
        p.failedAttempts++;
        p.updatedAt = now;
        List<Duration> schedule = config.retrySchedule();
        boolean retries = p.failedAttempts <= schedule.size();
        if (retries) {
            // a canceled subscription is not dunned any more
            p.nextAttemptAt = s.status == SubscriptionStatus.CANCELED ? null
                    : now.plus(schedule.get(p.failedAttempts - 1));
            p.moveTo(p.amountPaid.signum() > 0 ? PaymentStatus.PARTIALLY_PAID : PaymentStatus.PENDING);
            notifications.attemptFailed(s, p, a, p.nextAttemptAt, now);
            return;
        }
        p.moveTo(PaymentStatus.FAILED);
        p.nextAttemptAt = null;
        if (p.id.equals(s.openPaymentId)) {
            s.openPaymentId = null;
        }
        s.updatedAt = now;
        notifications.attemptFailed(s, p, a, null, now);
        lifecycle.move(s, Trigger.BILLING_FAILED, "payment " + p.id + " failed after " + p.failedAttempts
                + " attempts: " + a.failureReason);
        if (p.failedAttempts == config.automaticAttempts()) {
            notifications.attemptsExhausted(s, p, p.failedAttempts, now);
        }
    }
}

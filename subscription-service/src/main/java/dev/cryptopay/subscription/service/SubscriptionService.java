package dev.cryptopay.subscription.service;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.cryptopay.subscription.domain.BillingClock;
import dev.cryptopay.subscription.domain.BillingInterval;
import dev.cryptopay.subscription.domain.MerchantView;
import dev.cryptopay.subscription.domain.Plan;
import dev.cryptopay.subscription.domain.Subscription;
import dev.cryptopay.subscription.domain.SubscriptionEvent;
import dev.cryptopay.subscription.domain.SubscriptionStateMachine.Trigger;
import dev.cryptopay.subscription.domain.SubscriptionStatus;
import dev.cryptopay.subscription.rest.SubscriptionDtos.SubscriptionRequest;
import dev.cryptopay.subscription.rest.SubscriptionDtos.SubscriptionView;
import dev.cryptopay.subscription.rest.Views;
import dev.cryptopay.support.catalogue.Catalogue;
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
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * Creating, reading and moving subscriptions. Which merchant bills: the plan's merchant when it names one; otherwise
 * the account's only enabled merchant (an account with none or several enabled merchants must name one on the plan:
 * 400). The asset and network must be in the catalogue and accepted by that merchant (400), and the merchant enabled
 * (409 {@code merchant_not_enabled}, as for transactions).
 */
@ApplicationScoped
public class SubscriptionService {

    static final List<String> STATUSES = Arrays.stream(SubscriptionStatus.values()).map(Enum::name).toList();

    private static final TypeReference<SubscriptionView> SUBSCRIPTION = new TypeReference<>() {
    };

    private final EntityManager em;
    private final BillingClock clock;
    private final Lifecycle lifecycle;
    private final ConsistentReads consistentReads;
    private final IdempotentCreations creations;

    public SubscriptionService(EntityManager em, BillingClock clock, Lifecycle lifecycle,
            ConsistentReads consistentReads, IdempotentCreations creations) {
        this.em = em;
        this.clock = clock;
        this.lifecycle = lifecycle;
        this.consistentReads = consistentReads;
        this.creations = creations;
    }

    /**
     * {@link #create(UUID, SubscriptionRequest)} once per caller and Idempotency-Key (docs/decisions.md §112): a
     * subscription is billed every period, so a retry the gateway could not answer must not start a second one.
     */
    @Transactional
    public IdempotentCreations.Once<SubscriptionView> create(Caller caller, UUID account, SubscriptionRequest r,
            String idempotencyKey) {
        return creations.once(caller, idempotencyKey, r, SUBSCRIPTION, () -> Views.subscription(create(account, r)));
    }

    @Transactional
    public Subscription create(UUID account, SubscriptionRequest r) {
        Validation v = new Validation();
        v.requiredText("planId", r.planId())
                .requiredText("customerEmail", r.customerEmail()).email("customerEmail", r.customerEmail())
                .requiredText("walletAddress", r.walletAddress())
                .requiredText("asset", r.asset()).asset("asset", r.asset())
                .requiredText("network", r.network()).network("network", r.network())
                .requiredText("billingInterval", r.billingInterval())
                .oneOf("billingInterval", r.billingInterval(), PlanService.INTERVALS);
        if (r.asset() != null && r.network() != null && Catalogue.get().asset(r.asset()).isPresent()
                && Catalogue.get().network(r.network()).isPresent() && !Catalogue.get().supports(r.asset(), r.network())) {
            v.add("network", r.asset() + " is not offered on " + r.network());
        }
        UUID planId = Ids.field(v, "planId", r.planId());
        Plan plan = planId == null ? null : Plan.findById(planId);
        if (planId != null && (plan == null || !plan.accountId.equals(account))) {
            v.add("planId", "unknown plan");
            plan = null;
        }
        if (plan != null && r.billingInterval() != null && PlanService.INTERVALS.contains(r.billingInterval())
                && plan.billingInterval != BillingInterval.valueOf(r.billingInterval())) {
            v.add("billingInterval", "must be the plan's billing interval, " + plan.billingInterval);
        }
        v.throwIfInvalid();

        MerchantView merchant = billingMerchant(account, plan);
        if (!merchant.accepts(r.asset(), r.network())) {
            throw ApiException.validation("asset", "the merchant does not accept " + r.asset() + " on " + r.network());
        }
        if (!merchant.enabled()) {
            throw ApiException.conflict("merchant_not_enabled", "The plan's merchant is not enabled.");
        }

        OffsetDateTime now = clock.now();
        Subscription s = new Subscription();
        s.id = UUID.randomUUID();
        s.accountId = account;
        s.merchantId = merchant.merchantId;
        s.planId = plan.id;
        s.planName = plan.planName;
        s.customerEmail = r.customerEmail().strip();
        s.walletAddress = r.walletAddress().strip();
        s.asset = r.asset();
        s.network = r.network();
        s.status = SubscriptionStatus.CREATED;
        s.billingInterval = plan.billingInterval;
        s.amount = plan.amount;
        s.currency = plan.currency;
        s.anchorAt = now;
        s.nextPeriod = 0;
        s.nextBillingAt = now; // the first period is billed at once
        s.createdAt = now;
        s.updatedAt = now;
        s.persist();
        lifecycle.created(s);
        return s;
    }

    private static MerchantView billingMerchant(UUID account, Plan plan) {
        if (plan.merchantId != null) {
            return MerchantView.findForAccount(account, plan.merchantId).orElseThrow(
                    () -> ApiException.validation("planId", "the plan's merchant is unknown"));
        }
        List<MerchantView> enabled = MerchantView.enabledOfAccount(account);
        if (enabled.size() != 1) {
            throw ApiException.validation("planId", "the plan names no merchant and the account has "
                    + enabled.size() + " enabled merchants: create a plan with a merchantId");
        }
        return enabled.get(0);
    }

    @Transactional
    public Subscription get(UUID account, UUID id) {
        return own(account, Subscription.findById(id), id);
    }

    /** The subscription with its row lock, for a move. */
    @Transactional(Transactional.TxType.MANDATORY)
    public Subscription lock(UUID account, UUID id) {
        return own(account, em.find(Subscription.class, id, LockModeType.PESSIMISTIC_WRITE), id);
    }

    private static Subscription own(UUID account, Subscription s, UUID id) {
        if (s == null || !s.accountId.equals(account)) {
            throw ApiException.notFound("Subscription " + id);
        }
        return s;
    }

    @Transactional
    public Subscription move(UUID account, UUID id, Trigger trigger, String reason) {
        Validation v = new Validation().text("reason", reason, Validation.MAX_STRING);
        v.throwIfInvalid();
        Subscription s = lock(account, id);
        lifecycle.request(s, trigger, reason);
        return s;
    }

    public record Filters(String accountId, String merchantId, String planId, String customerEmail,
            String walletAddress, String status) {
    }

    @Transactional
    public Listing.Page<Subscription> list(UUID account, Filters f, PageRequest page) {
        consistentReads.begin(); // the total and the page of one moment
        Ids.ownAccount(account, f.accountId());
        Validation v = new Validation();
        UUID merchant = Ids.field(v, "merchantId", f.merchantId());
        UUID plan = Ids.field(v, "planId", f.planId());
        v.oneOf("status", f.status(), STATUSES);
        v.throwIfInvalid();
        return Listing.of(Subscription.class).where("accountId", account).where("merchantId", merchant)
                .where("planId", plan).where("customerEmail", blankToNull(f.customerEmail()))
                .where("walletAddress", blankToNull(f.walletAddress()))
                .where("status", f.status() == null ? null : SubscriptionStatus.valueOf(f.status()))
                .fetch(em, page);
    }

    @Transactional
    public Listing.Page<SubscriptionEvent> events(UUID account, UUID id, PageRequest page) {
        consistentReads.begin();
        get(account, id);
        return Listing.of(SubscriptionEvent.class, "e.id desc").where("subscriptionId", id).fetch(em, page);
    }

    static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}

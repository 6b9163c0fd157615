package dev.cryptopay.subscription.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryptopay.subscription.domain.BillingClock;
import dev.cryptopay.subscription.domain.BillingInterval;
import dev.cryptopay.subscription.domain.MerchantView;
import dev.cryptopay.subscription.domain.Plan;
import dev.cryptopay.subscription.rest.SubscriptionDtos.PlanRequest;
import dev.cryptopay.support.idempotency.IdempotentCreations;
import dev.cryptopay.support.jdbc.ConsistentReads;
import dev.cryptopay.support.paging.PageRequest;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.security.Caller;
import dev.cryptopay.support.validation.Validation;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;
import java.math.BigDecimal;
import java.util.Currency;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

/** Subscription plans of an account. A plan never changes once created. */
@ApplicationScoped
public class PlanService {

    public static final String DEFAULT_CURRENCY = "USD";
    static final List<String> INTERVALS = List.of(BillingInterval.MONTHLY.name(), BillingInterval.YEARLY.name());
    private static final BigDecimal MAX_AMOUNT = new BigDecimal("1000000000000");

    private final EntityManager em;
    private final BillingClock clock;
    private final ConsistentReads consistentReads;
    private final IdempotentCreations creations;

    public PlanService(EntityManager em, BillingClock clock, ConsistentReads consistentReads,
            IdempotentCreations creations) {
        this.em = em;
        this.clock = clock;
        this.consistentReads = consistentReads;
        this.creations = creations;
    }

    /**
     * {@link #create(UUID, PlanRequest)} once per caller and Idempotency-Key (docs/decisions.md §122): a retry the
     * gateway could not answer gets the first plan. {@code answer} is what the API shows of the new plan.
     */
    @Transactional
    public IdempotentCreations.Once<JsonNode> create(Caller caller, UUID account, PlanRequest request,
            String idempotencyKey, Function<Plan, ?> answer) {
        return creations.onceAsJson(caller, idempotencyKey, request, () -> answer.apply(create(account, request)));
    }

    @Transactional
    public Plan create(UUID account, PlanRequest request) {
        if (request.accountId() == null || request.accountId().isBlank()) {
            throw ApiException.validation("accountId", "is required");
        }
        Ids.ownAccount(account, request.accountId());
        Validation v = new Validation();
        UUID merchantId = Ids.field(v, "merchantId", request.merchantId());
        v.text("planName", request.planName(), Validation.MAX_STRING)
                .text("description", request.description(), Validation.MAX_STRING)
                .requiredText("billingInterval", request.billingInterval())
                .oneOf("billingInterval", request.billingInterval(), INTERVALS)
                .currency("currency", request.currency());
        String currency = request.currency() == null ? DEFAULT_CURRENCY : request.currency();
        BigDecimal amount = amount(v, "amount", request.amount(), currency);
        if (merchantId != null && MerchantView.findForAccount(account, merchantId).isEmpty()) {
            v.add("merchantId", "must be a merchant of this account");
        }
        v.throwIfInvalid();
        Plan plan = new Plan();
        plan.id = UUID.randomUUID();
        plan.accountId = account;
        plan.merchantId = merchantId;
        plan.planName = request.planName();
        plan.description = request.description();
        plan.billingInterval = BillingInterval.valueOf(request.billingInterval());
        plan.amount = amount;
        plan.currency = currency;
        plan.createdAt = clock.now();
        plan.persist();
        return plan;
    }

    /**
     * A money amount given as a decimal string: a number, greater than 0, at most 1,000,000,000,000 (docs/decisions.md §1),
     * with no more decimals than the currency has (2 for USD, 0 for JPY).
     */
    static BigDecimal amount(Validation v, String field, String raw, String currency) {
        if (raw == null || raw.isBlank()) {
            v.add(field, "is required");
            return null;
        }
        BigDecimal amount;
        try {
            amount = new BigDecimal(raw.strip());
        } catch (NumberFormatException e) {
            v.add(field, "must be a decimal number such as \"9.99\"");
            return null;
        }
        if (amount.signum() <= 0) {
            v.add(field, "must be greater than 0");
        } else if (amount.compareTo(MAX_AMOUNT) > 0) {
            v.add(field, "must be at most 1000000000000");
        } else {
            int digits = currencyDigits(currency);
            if (amount.stripTrailingZeros().scale() > digits) {
                v.add(field, "must have at most " + digits + " decimals in " + currency);
            }
        }
        return amount.scale() < 0 ? amount.setScale(0) : amount;
    }

    private static int currencyDigits(String currency) {
        try {
            return Math.max(0, Currency.getInstance(currency).getDefaultFractionDigits());
        } catch (IllegalArgumentException | NullPointerException e) {
            return 2;
        }
    }

    @Transactional
    public Plan get(UUID account, UUID planId) {
        Plan plan = Plan.findById(planId);
        if (plan == null || !plan.accountId.equals(account)) {
            throw ApiException.notFound("Plan " + planId);
        }
        return plan;
    }

    @Transactional
    public Listing.Page<Plan> list(UUID account, String accountId, String merchantId, PageRequest page) {
        consistentReads.begin(); // the total and the page of one moment
        Ids.ownAccount(account, accountId);
        Validation v = new Validation();
        UUID merchant = Ids.field(v, "merchantId", merchantId);
        v.throwIfInvalid();
        return Listing.of(Plan.class).where("accountId", account).where("merchantId", merchant).fetch(em, page);
    }
}

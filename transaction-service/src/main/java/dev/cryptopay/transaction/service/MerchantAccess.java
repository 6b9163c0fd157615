package dev.cryptopay.transaction.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.support.cache.ShortLivedCache;
import dev.cryptopay.support.cache.ViewVersion;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.security.Caller;
import dev.cryptopay.support.security.IdentityClaims;
import dev.cryptopay.transaction.client.MerchantConfigurationClient;
import dev.cryptopay.transaction.domain.MerchantView;
import dev.cryptopay.transaction.domain.Transaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.FlushModeType;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.WebApplicationException;
import java.time.OffsetDateTime;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.logging.Logger;

/**
 * Resolves the merchant a caller acts for against this service's merchant view (interface document,
 * Authentication; docs/decisions.md §4). The gateway resolves X-MID and sub-merchant keys itself and passes the result
 * as {@code mid} (with what the caller wrote as {@code mid_ref}); this service trusts {@code mid} and resolves
 * {@code mid_ref} only when no {@code mid} came with it:
 * <ul>
 * <li>{@code mid}: that merchant of the caller's account; if {@code mid_ref} names a different merchant of the
 * account (a scoped key naming another one) → 403. Ownership needs nothing but the merchant's id, so a merchant
 * the view does not hold yet (created a moment earlier; the merchants topic is merely behind) still scopes the
 * caller: reading, paying or cancelling another account's or merchant's transaction is a 404 whatever the state of
 * the view. Its configuration is fetched from merchant-service once, synchronously, only when something needs it
 * ({@link #forCreation}); a failure of that fetch is a 503 with Retry-After;</li>
 * <li>only {@code mid_ref}: resolved by UUID or externalMID within the account; unknown → 404 for an API key's
 * X-MID, 401 for a publishable key's sub-merchant;</li>
 * <li>neither: an API key must send X-MID (400); an unscoped publishable key acts for the whole account —
 * enough to read and pay, not to create (see {@link #forCreation}).</li>
 * </ul>
 *
 * <p>The merchant named by {@code mid} is kept in memory, detached, once read from the view (docs/decisions.md §68,
 * §106): it is answered from memory while the view's version ({@code merchant_view_version}, bumped by a trigger at
 * the commit of every change to the view), read no longer than {@link #VIEW_CACHE_NANOS} ago, is the one it was read
 * at, and dropped at once when this replica's {@link dev.cryptopay.transaction.messaging.MerchantViewConsumer} changes
 * the view. A change consumed by another replica applies here within that second, as a revoked key does at the
 * gateway; a merchant that creates less than once a second is not read again while the view stays as it is.
 * Detached, the row (and its configuration's JSON) is never dirty-checked by the creation's flushes. What a reference
 * ({@code mid_ref}, X-MID as written) names in an account is kept the same way and forgotten with the rows, so a
 * request that writes X-MID as the externalMID does not look it up on every call (docs/performance.md, twenty-first
 * step).
 */
@ApplicationScoped
public class MerchantAccess {

    /** How long ago the view's version may have been read for a merchant kept in memory to be answered (nanoseconds). */
    static final long VIEW_CACHE_NANOS = 1_000_000_000L;

    /** Retry-After of the answer when a merchant's configuration can be had neither from the view nor remotely. */
    static final long VIEW_LAG_RETRY_SECONDS = 1;
    private static final Logger LOG = Logger.getLogger(MerchantAccess.class);

    private final MerchantConfigurationClient merchantService;
    private final JsonWebToken identity;
    private final EntityManager em;
    private final TransactionSynchronizationRegistry transactions;
    private final ObjectMapper mapper;
    /** The view's version, read in the caller's transaction every half second at most while merchants are asked for. */
    private final ViewVersion viewVersion = new ViewVersion(VIEW_CACHE_NANOS, this::readViewVersion);
    private final ShortLivedCache<UUID, MerchantView> views = new ShortLivedCache<>(10_000, viewVersion);
    /** The merchant a reference names within an account, or empty when it names none (kept too). */
    private final ShortLivedCache<Reference, Optional<UUID>> references = new ShortLivedCache<>(10_000, viewVersion);

    /** A merchant reference as the caller wrote it, within the account it was written for. */
    private record Reference(UUID accountId, String written) {
    }

    public MerchantAccess(@RestClient MerchantConfigurationClient merchantService, JsonWebToken identity,
            EntityManager em, TransactionSynchronizationRegistry transactions, ObjectMapper mapper) {
        this.merchantService = merchantService;
        this.mapper = mapper;
        this.identity = identity;
        this.em = em;
        this.transactions = transactions;
    }

    /**
     * Stores a configuration of merchant-service in the view unless the view holds it as new or newer (by version),
     * and then forgets the cached merchants of this replica; true when it was stored. Its two writers: the merchants
     * topic, and a creation that had to read the merchant from merchant-service (docs/decisions.md §84).
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public boolean store(MerchantConfiguration config) {
        String json;
        try {
            json = mapper.writeValueAsString(config);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a merchant configuration that cannot be written as JSON", e);
        }
        boolean stored = MerchantView.save(config, json);
        if (stored) {
            forgetCachedViews();
        }
        return stored;
    }

    /**
     * Forgets every cached merchant now and again when the caller's transaction ends (the view changed on this
     * replica; a request reading the view before that commit must not keep the old row).
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public void forgetCachedViews() {
        views.forget(transactions);
        references.forget(transactions);
    }

    /** The view's version (Flyway V14), without flushing the caller's persistence context first. */
    private long readViewVersion() {
        return ((Number) em.createNativeQuery("select version from merchant_view_version where id = 1")
                .setFlushMode(FlushModeType.COMMIT).getSingleResult()).longValue();
    }

    /** The merchant of the account from the view, kept while the view does not change; empty when it lacks it. */
    private Optional<MerchantView> view(UUID accountId, UUID merchantId) {
        MerchantView view = views.get(merchantId, id -> MerchantView.findForAccount(accountId, id).map(found -> {
            em.detach(found);
            return found;
        }).orElse(null));
        return view != null && view.accountId.equals(accountId) ? Optional.of(view) : Optional.empty();
    }

    /**
     * The merchant of the account that {@code reference} names (by UUID, else by externalMID;
     * {@link MerchantView#resolve}), kept like the rows. The view's (account, externalMID) pairs
     * are not unique, so what a name resolves to is kept, not compared with a cached row.
     */
    private Optional<UUID> named(UUID accountId, String reference) {
        return references.get(new Reference(accountId, reference),
                key -> MerchantView.resolve(key.accountId(), key.written()).map(found -> found.merchantId));
    }

    @Transactional(Transactional.TxType.MANDATORY)
    public CallerScope scope(Caller caller) {
        UUID accountId = caller.accountId()
                .orElseThrow(() -> ApiException.unauthorized("This endpoint needs an account's key."));
        boolean apiKey = !caller.hasRole(IdentityClaims.ROLE_PUBLISHABLE);
        Optional<String> reference = caller.merchantRef();
        Optional<UUID> resolved = caller.merchantId();
        if (resolved.isPresent()) {
            MerchantView merchant = view(accountId, resolved.get())
                    .orElseGet(() -> notYetKnown(accountId, resolved.get()));
            // The reference must not name another merchant of the account. Looked up on every request, this was 15%
            // of transaction-service's CPU on a GET with an API key and X-MID (docs/performance.md, twentieth step);
            // what it names is now kept for a second, as the row is.
            if (reference.isPresent()
                    && !named(accountId, reference.get()).orElse(merchant.merchantId).equals(merchant.merchantId)) {
                throw ApiException.forbidden("This publishable key is scoped to another merchant.");
            }
            return new CallerScope(accountId, Optional.of(merchant), apiKey);
        }
        if (reference.isPresent()) {
            Optional<MerchantView> named = MerchantView.resolve(accountId, reference.get());
            if (named.isEmpty()) {
                throw apiKey ? ApiException.notFound("Merchant " + reference.get())
                        : ApiException.unauthorized("Unknown sub-merchant " + reference.get() + ".");
            }
            return new CallerScope(accountId, named, apiKey);
        }
        if (apiKey) {
            throw ApiException.validation("X-MID", "is required with an API key on this endpoint");
        }
        return new CallerScope(accountId, Optional.empty(), false);
    }

    /**
     * The merchant a new transaction is for, with its configuration; an account-wide publishable key must name a
     * sub-merchant. A merchant the view does not hold yet is fetched from merchant-service (once, for this request).
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public MerchantView forCreation(CallerScope scope) {
        MerchantView merchant = scope.merchant().orElseThrow(() -> new ApiException(400, "merchant_required",
                "Merchant required",
                "This publishable key is not scoped to a merchant: use a merchant-scoped publishable key, the "
                        + "sub-merchant form pk_…:<merchant UUID or externalMID>, or an API key with X-MID.",
                null, null));
        return merchant.config != null ? merchant : fetch(merchant.accountId, merchant.merchantId);
    }

    /**
     * The merchant of an existing transaction, with its configuration (a further payment request, a verification):
     * from the view, or, while the view does not hold it yet, read once from merchant-service as for a creation.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public MerchantView ofTransaction(Transaction tx) {
        MerchantView merchant = MerchantView.findById(tx.merchantId);
        return merchant != null ? merchant : fetch(tx.accountId, tx.merchantId);
    }

    /**
     * Stands for a merchant the gateway vouched for ({@code mid}) that the view does not hold yet: its id and
     * account decide ownership; it has no configuration until {@link #forCreation} fetches it. Never persisted.
     */
    private static MerchantView notYetKnown(UUID accountId, UUID merchantId) {
        MerchantView placeholder = new MerchantView();
        placeholder.merchantId = merchantId;
        placeholder.accountId = accountId;
        return placeholder;
    }

    /**
     * One synchronous read of the merchant's effective configuration from merchant-service, with the caller's own
     * identity token (so it can read only the caller's merchant). The answer serves this request and is stored in the
     * view with the creation (by version, as the topic's events are): the transaction's later steps — detection,
     * compliance decisions, fees at settlement — read the view and must find the configuration it was created
     * under even while the topic still lags (docs/decisions.md §84).
     */
    private MerchantView fetch(UUID accountId, UUID merchantId) {
        MerchantConfiguration config;
        try {
            config = merchantService.configuration("Bearer " + identity.getRawToken(), merchantId.toString());
        } catch (WebApplicationException e) {
            if (e.getResponse().getStatus() == 404) {
                throw ApiException.notFound("Merchant " + merchantId);
            }
            LOG.warnf("merchant configuration read answered %d", e.getResponse().getStatus());
            throw lagging();
        } catch (RuntimeException e) {
            LOG.warnf("merchant configuration read failed: %s", e.getMessage());
            throw lagging();
        }
        if (config == null || !merchantId.toString().equals(config.merchantId())
                || !accountId.toString().equals(config.accountId())) {
            throw lagging();
        }
        LOG.debugf("merchant %s not in the view yet; read its configuration from merchant-service", merchantId);
        MerchantView fetched = new MerchantView();
        fetched.merchantId = merchantId;
        fetched.accountId = accountId;
        fetched.externalMID = config.externalMID();
        fetched.status = config.status();
        fetched.version = config.version();
        fetched.config = config;
        fetched.updatedAt = OffsetDateTime.now();
        store(config);
        return fetched;
    }

    private static ApiException lagging() {
        return ApiException.unavailable("The merchant's configuration cannot be read right now; retry in a moment.",
                VIEW_LAG_RETRY_SECONDS);
    }
}

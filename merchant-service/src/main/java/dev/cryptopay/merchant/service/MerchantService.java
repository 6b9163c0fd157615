package dev.cryptopay.merchant.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.merchant.domain.Account;
import dev.cryptopay.merchant.domain.Merchant;
import dev.cryptopay.merchant.domain.MerchantLogo;
import dev.cryptopay.support.environment.Environment;
import dev.cryptopay.support.idempotency.IdempotentCreations;
import dev.cryptopay.support.jdbc.ConsistentReads;
import dev.cryptopay.support.jdbc.TransactionLocks;
import dev.cryptopay.support.paging.PageRequest;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.security.Caller;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

/** Merchants of an account: create, replace, read, list, archive, logo. Every change publishes the merchant. */
@ApplicationScoped
public class MerchantService {

    private final MerchantEvents events;
    private final boolean sandbox;
    private final ConsistentReads consistentReads;
    private final IdempotentCreations creations;

    public MerchantService(MerchantEvents events, Environment environment, ConsistentReads consistentReads,
            IdempotentCreations creations) {
        this.events = events;
        this.sandbox = environment.isSandbox();
        this.consistentReads = consistentReads;
        this.creations = creations;
    }

    public record Page(List<Merchant> merchants, long totalCount) {
    }

    /**
     * {@link #create(UUID, MerchantDraft)} once per caller and Idempotency-Key (docs/decisions.md §122): a retry the
     * gateway could not answer gets the first answer, not a second merchant. {@code answer} is what the API shows of
     * the new merchant, kept as JSON for the retries.
     */
    @Transactional
    public IdempotentCreations.Once<JsonNode> create(Caller caller, UUID accountId, MerchantDraft body,
            String idempotencyKey, Function<Merchant, ?> answer) {
        return creations.onceAsJson(caller, idempotencyKey, body, () -> answer.apply(create(accountId, body)));
    }

    /**
     * New merchants are enabled in the sandbox and under review in production (docs/decisions.md §11). The body is checked
     * here (docs/decisions.md §35): every bad field named in one 400.
     */
    @Transactional
    public Merchant create(UUID accountId, MerchantDraft body) {
        MerchantDraftValidator.validate(body, false, null);
        MerchantDraft draft = body.normalized();
        Account account = account(accountId);
        if (draft.externalMID() != null) {
            // Two creations with one externalMID at once: the second waits here until the first commits and then
            // finds its merchant (409), where it would otherwise have failed on the unique index at commit (500).
            TransactionLocks.take(externalMidLock(accountId, draft.externalMID()));
            if (Merchant.findByExternalMID(accountId, draft.externalMID()).isPresent()) {
                throw ApiException.conflict("external_mid_taken",
                        "Another merchant of this account already has externalMID " + draft.externalMID() + ".");
            }
        }
        OffsetDateTime now = OffsetDateTime.now();
        Merchant merchant = new Merchant();
        merchant.id = UUID.randomUUID();
        merchant.accountId = accountId;
        merchant.externalMID = draft.externalMID();
        merchant.status = sandbox ? Merchant.ENABLED : Merchant.UNDER_REVIEW;
        merchant.version = 1;
        merchant.createdAt = now;
        apply(merchant, draft, now);
        merchant.persist();
        events.merchantChanged(account, merchant);
        return merchant;
    }

    /** Full replacement of the writable fields; externalMID stays, and so does logoFilename when not sent. */
    @Transactional
    public Merchant update(UUID accountId, UUID merchantId, MerchantDraft body) {
        Account account = account(accountId);
        Merchant merchant = lockMerchant(accountId, merchantId);
        MerchantDraftValidator.validate(body, true, merchant.logoFilename);
        apply(merchant, body.normalized(), OffsetDateTime.now());
        merchant.version++;
        events.merchantChanged(account, merchant);
        return merchant;
    }

    @Transactional
    public Merchant get(UUID accountId, UUID merchantId) {
        return Merchant.findForAccount(accountId, merchantId).orElseThrow(() -> ApiException.notFound("Merchant"));
    }

    @Transactional
    public Page list(UUID accountId, PageRequest page) {
        consistentReads.begin(); // the page and the total of one moment
        return new Page(Merchant.listPage(accountId, page.index(), page.limit()), Merchant.countListed(accountId));
    }

    /** Archives (status -1): the merchant leaves listings and takes no new transactions; Get still answers. */
    @Transactional
    public void archive(UUID accountId, UUID merchantId) {
        Account account = account(accountId);
        Merchant merchant = lockMerchant(accountId, merchantId);
        if (merchant.archivedAt != null) {
            return;
        }
        merchant.archivedAt = OffsetDateTime.now();
        merchant.updatedAt = merchant.archivedAt;
        merchant.status = Merchant.DISABLED;
        merchant.version++;
        events.merchantChanged(account, merchant);
    }

    @Transactional
    public Merchant storeLogo(UUID accountId, UUID merchantId, byte[] content, LogoFormat format) {
        Merchant merchant = lockMerchant(accountId, merchantId);
        MerchantLogo logo = MerchantLogo.<MerchantLogo>findByIdOptional(merchantId).orElseGet(() -> {
            MerchantLogo fresh = new MerchantLogo();
            fresh.merchantId = merchantId;
            return fresh;
        });
        logo.contentType = format.mediaType();
        logo.content = content;
        logo.updatedAt = OffsetDateTime.now();
        logo.persist();
        merchant.logoFilename = merchantId + "." + format.extension();
        merchant.updatedAt = logo.updatedAt;
        return merchant;
    }

    @Transactional
    public Optional<MerchantLogo> logo(UUID accountId, UUID merchantId) {
        get(accountId, merchantId);
        return MerchantLogo.findByIdOptional(merchantId);
    }

    /** The merchant's effective configuration, exactly as it is published on the merchants topic. */
    @Transactional
    public MerchantConfiguration effectiveConfiguration(UUID accountId, UUID merchantId) {
        Merchant merchant = get(accountId, merchantId);
        Account account = Account.<Account>findByIdOptional(accountId)
                .orElseThrow(() -> ApiException.notFound("Merchant"));
        return events.effective(account, merchant);
    }

    /** A merchant of the account named by its UUID or its externalMID (X-MID, sub-merchant keys). */
    @Transactional
    public Optional<Merchant> resolve(UUID accountId, String reference) {
        try {
            Optional<Merchant> byId = Merchant.findForAccount(accountId, UUID.fromString(reference));
            if (byId.isPresent()) {
                return byId;
            }
        } catch (IllegalArgumentException notAUuid) {
            // fall through to externalMID
        }
        return Merchant.findByExternalMID(accountId, reference);
    }

    private static void apply(Merchant merchant, MerchantDraft draft, OffsetDateTime now) {
        merchant.name = draft.name();
        merchant.dba = draft.dba();
        merchant.address1 = draft.address1();
        merchant.address2 = draft.address2();
        merchant.city = draft.city();
        merchant.region = draft.region();
        merchant.country = draft.country();
        merchant.descriptor = draft.dba() != null ? draft.dba() : draft.name();
        merchant.discountRate = draft.discountRate();
        if (draft.logoFilename() != null) {
            merchant.logoFilename = draft.logoFilename();
        }
        merchant.settings = draft.settings();
        merchant.updatedAt = now;
    }

    /**
     * The account, share-locked until the merchant's change commits: its event carries the account's settings and
     * version, and an account update (which takes the row for update and then re-publishes every merchant) must
     * either see this change or be seen by it. Without the lock each of two concurrent changes published its own
     * half under the same version (account + merchant), and consumers kept the first (docs/decisions.md §111).
     */
    static Account account(UUID accountId) {
        return Account.<Account>findByIdOptional(accountId, LockModeType.PESSIMISTIC_READ)
                .orElseThrow(() -> ApiException.notFound("Account"));
    }

    /** The name of the {@link TransactionLocks} lock that creations with {@code externalMID} take. */
    public static String externalMidLock(UUID accountId, String externalMID) {
        return "merchant.external_mid:" + accountId + ":" + externalMID;
    }

    private static Merchant lockMerchant(UUID accountId, UUID merchantId) {
        return Merchant.lockForAccount(accountId, merchantId).orElseThrow(() -> ApiException.notFound("Merchant"));
    }
}

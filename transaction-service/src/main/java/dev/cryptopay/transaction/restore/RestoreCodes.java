package dev.cryptopay.transaction.restore;

import dev.cryptopay.support.jdbc.TransactionLocks;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.transaction.config.TransactionServiceConfig;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;
import java.security.SecureRandom;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

/**
 * The one-time codes of the KYC restore (docs/decisions.md §64): six digits from {@link SecureRandom}, stored only as
 * an HMAC, single use, {@code code-lifetime} long (10 minutes), spent after {@code max-attempts} wrong entries (5),
 * and at most {@code codes-per-email} per e-mail within an account and {@code codes-per-transaction} per transaction
 * in a {@code window}. A code is issued for every request, whether or not the e-mail has a stored record, so neither
 * the answer nor the limits tell a known e-mail from an unknown one; only a known one is sent an e-mail.
 */
@ApplicationScoped
public class RestoreCodes {

    /** The one answer to a code that cannot restore: wrong, expired, used, spent, or for an unknown e-mail. */
    public static ApiException invalid() {
        return new ApiException(422, "restore_code_invalid", "Restore code invalid",
                "The code does not restore a verification for this e-mail and transaction: it is wrong, expired, "
                        + "already used or has had too many tries. Ask for a new code or verify with documents.",
                null, null);
    }

    private static final SecureRandom RANDOM = new SecureRandom();

    private final EntityManager em;
    private final RestoreCodeHasher hasher;
    private final TransactionServiceConfig.KycRestore config;

    public RestoreCodes(EntityManager em, RestoreCodeHasher hasher, TransactionServiceConfig config) {
        this.em = em;
        this.hasher = hasher;
        this.config = config.kycRestore();
    }

    /** A code issued for an e-mail; the caller mails it when the e-mail has a stored record. */
    public record Issued(String email, String code, OffsetDateTime expiresAt) {
    }

    /**
     * Issues a code for {@code email} on a transaction, or 429 (with Retry-After) when the e-mail or the transaction
     * had its share within the window. The two limits are counted under a lock each, the e-mail's first and then
     * the transaction's (every caller takes them in that order), held until the caller's transaction ends: two
     * requests at once cannot both count the last free code and both take it.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public Issued issue(UUID accountId, UUID transactionId, String email, OffsetDateTime now) {
        String emailHash = hasher.email(email);
        TransactionLocks.take("kyc-restore-email:" + accountId + ":" + emailHash);
        TransactionLocks.take("kyc-restore-transaction:" + transactionId);
        OffsetDateTime since = now.minus(config.window());
        long perEmail = count("account_id = :account and email_hash = :email", since,
                q -> q.setParameter("account", accountId).setParameter("email", emailHash));
        long perTransaction = count("transaction_id = :tx", since, q -> q.setParameter("tx", transactionId));
        if (perEmail >= config.codesPerEmail() || perTransaction >= config.codesPerTransaction()) {
            throw new ApiException(429, "rate_limited", "Too many requests",
                    "Too many codes were asked for; try again later.", null, config.window().toSeconds());
        }
        String code = String.format("%06d", RANDOM.nextInt(1_000_000));
        UUID id = UUID.randomUUID();
        OffsetDateTime expiresAt = now.plus(config.codeLifetime());
        em.createNativeQuery("insert into kyc_restore_code (id, transaction_id, account_id, email_hash, code_hash, "
                + "attempts, created_at, expires_at) values (:id, :tx, :account, :email, :code, 0, :now, :expires)")
                .setParameter("id", id).setParameter("tx", transactionId).setParameter("account", accountId)
                .setParameter("email", emailHash).setParameter("code", hasher.code(id.toString(), code))
                .setParameter("now", now).setParameter("expires", expiresAt)
                .executeUpdate();
        return new Issued(email, code, expiresAt);
    }

    /**
     * Redeems {@code code} for {@code email} on a transaction within the caller's transaction: the latest live code
     * of the pair is marked used (so a concurrent second redemption waits on the row and then finds it used), or the
     * wrong entry is counted in a transaction of its own (it stays counted whatever happens next) and the one
     * {@link #invalid()} problem is thrown.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public void redeem(UUID transactionId, String email, String code, OffsetDateTime now) {
        String emailHash = hasher.email(email);
        @SuppressWarnings("unchecked")
        List<Object[]> rows = em.createNativeQuery("select cast(id as text), code_hash from kyc_restore_code "
                + "where transaction_id = :tx and email_hash = :email and used_at is null and expires_at > :now "
                + "and attempts < :max order by created_at desc limit 1")
                .setParameter("tx", transactionId).setParameter("email", emailHash).setParameter("now", now)
                .setParameter("max", config.maxAttempts())
                .getResultList();
        if (rows.isEmpty()) {
            throw invalid();
        }
        String id = (String) rows.get(0)[0];
        if (!RestoreCodeHasher.same(hasher.code(id, code), (String) rows.get(0)[1])) {
            QuarkusTransaction.requiringNew().run(() -> em.createNativeQuery("update kyc_restore_code set "
                    + "attempts = attempts + 1 where id = cast(:id as uuid)").setParameter("id", id).executeUpdate());
            throw invalid();
        }
        int used = em.createNativeQuery("update kyc_restore_code set used_at = :now where id = cast(:id as uuid) "
                + "and used_at is null and attempts < :max")
                .setParameter("now", now).setParameter("id", id).setParameter("max", config.maxAttempts())
                .executeUpdate();
        if (used == 0) {
            throw invalid();
        }
    }

    private long count(String where, OffsetDateTime since,
            java.util.function.UnaryOperator<jakarta.persistence.Query> bind) {
        return ((Number) bind.apply(em.createNativeQuery("select count(*) from kyc_restore_code where " + where
                + " and created_at > :since").setParameter("since", since)).getSingleResult()).longValue();
    }
}

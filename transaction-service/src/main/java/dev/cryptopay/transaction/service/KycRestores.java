package dev.cryptopay.transaction.service;

import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.security.Caller;
import dev.cryptopay.transaction.config.TransactionServiceConfig;
import dev.cryptopay.transaction.domain.Clock;
import dev.cryptopay.transaction.domain.Transaction;
import dev.cryptopay.transaction.domain.TransactionState;
import dev.cryptopay.transaction.restore.RestoreCodes;
import io.quarkus.mailer.Mail;
import io.quarkus.mailer.reactive.ReactiveMailer;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * KYC restore, step 1 (docs/decisions.md §64): issues a one-time code for an e-mail on a transaction waiting for
 * verification and, when the account keeps a verified record for that e-mail (§45), mails it. The request does the
 * same work for a known and an unknown e-mail (issue a code, look the record up) and commits before the e-mail is
 * handed to the mailer, which sends it off the request's thread: status, body and time of the answer are the same.
 */
@ApplicationScoped
public class KycRestores {

    private static final Logger LOG = Logger.getLogger(KycRestores.class);

    private final TransactionService transactions;
    private final MerchantAccess access;
    private final RestoreCodes codes;
    private final EntityManager em;
    private final ReactiveMailer mailer;
    private final TransactionServiceConfig.KycRestore config;

    public KycRestores(TransactionService transactions, MerchantAccess access, RestoreCodes codes, EntityManager em,
            ReactiveMailer mailer, TransactionServiceConfig config) {
        this.transactions = transactions;
        this.access = access;
        this.codes = codes;
        this.em = em;
        this.mailer = mailer;
        this.config = config.kycRestore();
    }

    public void requestCode(Caller caller, String transactionId, String email) {
        Optional<RestoreCodes.Issued> toSend = QuarkusTransaction.requiringNew().call(() -> {
            Transaction tx = transactions.visible(access.scope(caller), transactionId, false);
            if (tx.state() != TransactionState.WAITING_FOR_KYC) {
                throw ApiException.conflict("invalid_state", "Only a transaction waiting for verification (status -3) "
                        + "takes a restore code; this one has status " + tx.status + ".");
            }
            RestoreCodes.Issued issued = codes.issue(tx.accountId, tx.id, email, Clock.now());
            boolean known = ((Number) em.createNativeQuery("select count(*) from kyc_customer "
                    + "where account_id = :account and email = :email")
                    .setParameter("account", tx.accountId)
                    .setParameter("email", email.toLowerCase(Locale.ROOT))
                    .getSingleResult()).longValue() > 0;
            return known ? Optional.of(issued) : Optional.<RestoreCodes.Issued>empty();
        });
        toSend.ifPresent(this::send);
    }

    /** How long one attempt to hand an e-mail to the SMTP server may take before it is abandoned and tried again. */
    private static final Duration SEND_ATTEMPT_TIMEOUT = Duration.ofSeconds(5);
    private static final int SEND_RETRIES = 3;

    /**
     * Hands the e-mail to the mailer and returns at once; the sending runs on the mailer's event loop. An attempt that
     * has not finished within {@link #SEND_ATTEMPT_TIMEOUT} is abandoned and tried again on a new connection, up to
     * {@link #SEND_RETRIES} times: a send was seen to wait without end against the tests' SMTP server in about one
     * run in several (cause not found; the blocking mailer would wait indefinitely too, quarkusio/quarkus#51042), and a
     * customer waiting for a code should not depend on one connection. An abandoned attempt that still completes
     * later sends the same code twice, which is harmless. A final failure is logged (the customer can ask again).
     */
    private void send(RestoreCodes.Issued issued) {
        long minutes = Math.max(1, config.codeLifetime().toMinutes());
        Mail mail = Mail.withText(issued.email(), "Your verification code",
                "Your verification code is " + issued.code() + ".\n\n"
                        + "Enter it on the payment page to reuse the verification you completed before. It works "
                        + "once and for " + minutes + " minutes.\n\n"
                        + "If you did not ask for it, ignore this e-mail; nobody can use your details without it.\n")
                .setFrom(config.mailFrom());
        // deferred: every retry builds and sends the message again (a new connection: keep-alive is off)
        Uni.createFrom().deferred(() -> mailer.send(mail))
                .ifNoItem().after(SEND_ATTEMPT_TIMEOUT).fail()
                .onFailure().invoke(e -> LOG.warnf("KYC restore code e-mail attempt failed, trying again: %s", e))
                .onFailure().retry().withBackOff(Duration.ofMillis(200)).atMost(SEND_RETRIES)
                .subscribe().with(done -> {
                }, e -> LOG.warnf("KYC restore code e-mail failed: %s", e.getMessage()));
    }
}

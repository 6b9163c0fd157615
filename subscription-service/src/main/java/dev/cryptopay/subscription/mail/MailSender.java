package dev.cryptopay.subscription.mail;

import dev.cryptopay.subscription.config.SubscriptionConfig;
import dev.cryptopay.subscription.domain.Notification;
import dev.cryptopay.support.lifecycle.Stopping;
import dev.cryptopay.support.time.IdleBackoff;
import dev.cryptopay.support.time.PacedJob;
import io.quarkus.mailer.Mail;
import io.quarkus.mailer.Mailer;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.persistence.EntityManager;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Sends queued e-mails with Quarkus Mailer (SMTP). Rows are claimed with {@code for update skip locked}, so replicas
 * never send one twice while both run; one whose sending failed is tried again after
 * {@code cryptopay.subscriptions.mail.retry-after}. Woken right after a transaction that queued one committed; the
 * timed runs are the safety net (crash, SMTP outage, another replica's rows), every 5 s while an e-mail waits and
 * backing off to 30 s while none does.
 */
@ApplicationScoped
public class MailSender {

    private static final Logger LOG = Logger.getLogger(MailSender.class);
    private static final int BATCH = 20;

    private final EntityManager em;
    private final Mailer mailer;
    private final SubscriptionConfig config;
    /**
     * The sender's thread and the pace of its safety net (docs/decisions.md §105): every {@code interval} (5 s) while
     * an e-mail waits to be sent, backing off up to {@code max-idle-interval} (30 s) while none does.
     */
    private final PacedJob job;

    public MailSender(EntityManager em, Mailer mailer, SubscriptionConfig config) {
        this.em = em;
        this.mailer = mailer;
        this.config = config;
        this.job = new PacedJob("mail-sender", new IdleBackoff(config.mail().interval(), config.mail().maxIdleInterval()),
                timed -> {
                    sendPending();
                    return nothingWaits();
                });
    }

    /** Sends soon on the sender's thread; wake-ups that arrive before that run begins are merged. */
    public void wake() {
        job.runSoon();
    }

    void start(@Observes StartupEvent event) {
        job.start(Duration.ofSeconds(5));
    }

    void stop(@Observes ShutdownEvent event) {
        job.stop();
    }

    /** Whether no e-mail waits to be sent, due or not (a lookup in the pending rows' partial index). */
    boolean nothingWaits() {
        try {
            return QuarkusTransaction.requiringNew().call(() -> !(Boolean) em.createNativeQuery(
                    "select exists (select 1 from notification where sent_at is null)").getSingleResult());
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Sends every due e-mail; answers how many were sent. */
    public int sendPending() {
        int sent = 0;
        try {
            int batch;
            do {
                int[] counts = QuarkusTransaction.requiringNew().call(this::sendBatch);
                batch = counts[0];
                sent += counts[1];
            } while (batch == BATCH && !job.stopped());
        } catch (RuntimeException e) {
            Stopping.logPaused(LOG, job.stopped(), "mail sender paused, will retry: %s", e.getMessage());
        }
        return sent;
    }

    private int[] sendBatch() {
        @SuppressWarnings("unchecked")
        List<UUID> ids = em.createNativeQuery("select id from notification where sent_at is null and next_try_at <= now() "
                + "order by next_try_at limit " + BATCH + " for update skip locked", UUID.class).getResultList();
        int sent = 0;
        for (UUID id : ids) {
            Notification n = em.find(Notification.class, id);
            n.attempts++;
            try {
                mailer.send(Mail.withText(n.recipient, n.subject, n.body).setFrom(config.mail().from()));
                n.sentAt = OffsetDateTime.now();
                sent++;
            } catch (RuntimeException e) {
                n.lastError = truncate(e.getMessage());
                n.nextTryAt = OffsetDateTime.now().plus(config.mail().retryAfter());
                LOG.warnf("e-mail %s to %s not sent (try %d): %s", n.id, n.recipient, n.attempts, e.getMessage());
            }
        }
        return new int[] { ids.size(), sent };
    }

    private static String truncate(String message) {
        if (message == null) {
            return "unknown error";
        }
        return message.length() > 500 ? message.substring(0, 500) : message;
    }
}

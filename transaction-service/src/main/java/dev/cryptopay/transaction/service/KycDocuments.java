package dev.cryptopay.transaction.service;

import dev.cryptopay.support.environment.StartupChecks;
import dev.cryptopay.transaction.config.TransactionServiceConfig;
import dev.cryptopay.transaction.domain.Clock;
import dev.cryptopay.transaction.domain.KycDocument;
import dev.cryptopay.transaction.kyc.DocumentCipher;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.Startup;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * KYC documents at rest (docs/decisions.md §46): sealed with AES-256-GCM under the configured key when stored,
 * documents stored in clear before this release sealed on start, and every document deleted once it is older than
 * the retention period (the verification's result, {@code kycDetails} on the transaction, stays).
 */
@ApplicationScoped
@Startup(StartupChecks.PRIORITY) // the key is checked before the Kafka channels connect
public class KycDocuments {

    private static final Logger LOG = Logger.getLogger(KycDocuments.class);

    /**
     * SHA-256 of the committed LOCAL DEVELOPMENT key ({@code LOCAL-DEVELOPMENT-ONLY-kyc-key!!}, in the dev and test
     * profiles, deploy/local/start, docker-compose.yml and the system tests): refused in production.
     */
    static final String DEVELOPMENT_KEY_FINGERPRINT = DocumentCipher.fingerprint(
            "TE9DQUwtREVWRUxPUE1FTlQtT05MWS1reWMta2V5ISE=");

    private final DocumentCipher cipher;
    private final TransactionServiceConfig.Kyc config;
    private final EntityManager em;

    public KycDocuments(TransactionServiceConfig config, dev.cryptopay.support.environment.Environment environment,
            EntityManager em) {
        this.config = config.kyc();
        this.em = em;
        this.cipher = DocumentCipher.fromBase64(this.config.documentKey());
        if (environment.isProduction()
                && DEVELOPMENT_KEY_FINGERPRINT.equals(DocumentCipher.fingerprint(this.config.documentKey()))) {
            throw new IllegalStateException("cryptopay.transaction.kyc.document-key (KYC_DOCUMENT_ENCRYPTION_KEY) is the "
                    + "committed LOCAL DEVELOPMENT key; production needs its own (openssl rand -base64 32)");
        }
        if (this.config.documentRetention().isNegative() || this.config.documentRetention().isZero()) {
            throw new IllegalStateException("cryptopay.transaction.kyc.document-retention must be positive");
        }
    }

    /** Stores one document of a verification, sealed. */
    @Transactional(Transactional.TxType.MANDATORY)
    public KycDocument store(UUID transactionId, String side, String contentType, byte[] content,
            OffsetDateTime now) {
        KycDocument document = new KycDocument();
        document.id = UUID.randomUUID();
        document.transactionId = transactionId;
        document.side = side;
        document.contentType = contentType;
        document.sizeBytes = content.length;
        document.content = cipher.seal(document.id, content);
        document.encrypted = true;
        document.createdAt = now;
        document.persist();
        return document;
    }

    /** A stored document's bytes (opened with the key; rows stored in clear before sealing answer as they are). */
    public byte[] content(KycDocument document) {
        return document.encrypted ? cipher.open(document.id, document.content) : document.content;
    }

    /** Seals the documents stored in clear before this release, a batch per transaction; replicas share the work. */
    void sealLegacy(@Observes StartupEvent start) {
        int sealed = 0;
        while (true) {
            int done = QuarkusTransaction.requiringNew().call(() -> {
                @SuppressWarnings("unchecked")
                List<KycDocument> plain = em.createNativeQuery("select * from kyc_document where not encrypted "
                        + "limit :batch for update skip locked", KycDocument.class)
                        .setParameter("batch", config.batch()).getResultList();
                for (KycDocument document : plain) {
                    document.content = cipher.seal(document.id, document.content);
                    document.encrypted = true;
                }
                return plain.size();
            });
            sealed += done;
            if (done == 0) {
                break;
            }
        }
        if (sealed > 0) {
            LOG.infof("KYC documents: %d stored in clear were sealed with the configured key", sealed);
        }
    }

    /** Deletes documents older than the retention period, in batches. */
    @Scheduled(every = "${cryptopay.transaction.kyc.purge-interval:1h}", delayed = "5s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void purge() {
        OffsetDateTime cutoff = Clock.now().minus(config.documentRetention());
        int deleted = 0;
        while (true) {
            int done = QuarkusTransaction.requiringNew().call(() -> em.createNativeQuery(
                    "delete from kyc_document where id in (select id from kyc_document where created_at < :cutoff "
                            + "limit :batch for update skip locked)")
                    .setParameter("cutoff", cutoff).setParameter("batch", config.batch()).executeUpdate());
            deleted += done;
            if (done == 0) {
                break;
            }
        }
        if (deleted > 0) {
            LOG.infof("KYC documents: %d older than %s deleted (retention)", deleted, config.documentRetention());
        }
    }
}

package dev.cryptopay.webhook.service;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.persistence.EntityManager;
import java.util.List;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Seals, at start-up, the signing secrets written in clear before they were encrypted at rest (docs/decisions.md
 * §42; migration V5 made room for the sealed form). Rows are taken with {@code skip locked}, so replicas starting
 * together share the work; a row is only rewritten while it still holds the clear value it was read with.
 */
@ApplicationScoped
public class SecretsAtRest {

    private static final Logger LOG = Logger.getLogger(SecretsAtRest.class);
    private static final int BATCH = 500;

    private final EntityManager em;
    private final SigningSecrets secrets;

    public SecretsAtRest(EntityManager em, SigningSecrets secrets) {
        this.em = em;
        this.secrets = secrets;
    }

    void onStart(@Observes StartupEvent event) {
        int sealed = 0;
        int done;
        do {
            done = QuarkusTransaction.requiringNew().call(this::sealBatch);
            sealed += done;
        } while (done == BATCH);
        if (sealed > 0) {
            LOG.infof("sealed %d webhook signing secrets kept in clear until now", sealed);
        }
    }

    /** Seals up to {@value #BATCH} clear secrets; answers how many. */
    int sealBatch() {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = em.createNativeQuery("select id, signing_key from webhook where signing_key like 'wk\\_%' "
                + "order by id limit " + BATCH + " for update skip locked").getResultList();
        for (Object[] row : rows) {
            UUID id = (UUID) row[0];
            String clear = (String) row[1];
            em.createNativeQuery("update webhook set signing_key = ?2 where id = ?1 and signing_key = ?3")
                    .setParameter(1, id).setParameter(2, secrets.seal(id, clear)).setParameter(3, clear)
                    .executeUpdate();
        }
        return rows.size();
    }
}

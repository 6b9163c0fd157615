package dev.cryptopay.gateway.idempotency;

import dev.cryptopay.gateway.config.GatewayConfig;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;
import java.time.OffsetDateTime;
import java.util.List;

/**
 * Idempotency-Key records (docs/decisions.md §6), one place for every creating POST. The first request claims the key
 * with its body's hash; a retry with the same body replays the stored answer, one with another body is 422,
 * and one arriving while the first is still in flight is 409. Server failures (5xx) are not stored, so the
 * client may retry them.
 */
@ApplicationScoped
public class IdempotencyStore {

    public sealed interface Outcome {
    }

    /** The key is new (or its record expired): go ahead, then {@link #complete} or {@link #release}. */
    public record Proceed() implements Outcome {
    }

    public record Replay(int status, String contentType, byte[] body) implements Outcome {
    }

    public record Mismatch() implements Outcome {
    }

    public record InFlight() implements Outcome {
    }

    private final EntityManager em;
    private final GatewayConfig.Idempotency config;

    public IdempotencyStore(EntityManager em, GatewayConfig config) {
        this.em = em;
        this.config = config.idempotency();
    }

    @Transactional
    public Outcome begin(String scope, String key, String requestHash) {
        OffsetDateTime now = OffsetDateTime.now();
        // Expired records, and first requests that never finished, no longer hold the key.
        em.createNativeQuery("""
                delete from idempotency_record where scope = ?1 and idempotency_key = ?2
                  and (expires_at < ?3 or (response_status is null and created_at < ?4))""")
                .setParameter(1, scope).setParameter(2, key).setParameter(3, now)
                .setParameter(4, now.minus(config.inFlightTimeout()))
                .executeUpdate();
        int claimed = em.createNativeQuery("""
                insert into idempotency_record (scope, idempotency_key, request_hash, created_at, expires_at)
                values (?1, ?2, ?3, ?4, ?5) on conflict do nothing""")
                .setParameter(1, scope).setParameter(2, key).setParameter(3, requestHash).setParameter(4, now)
                .setParameter(5, now.plus(config.retention()))
                .executeUpdate();
        if (claimed == 1) {
            return new Proceed();
        }
        @SuppressWarnings("unchecked")
        List<Object[]> rows = em.createNativeQuery("""
                select request_hash, response_status, response_type, response_body from idempotency_record
                where scope = ?1 and idempotency_key = ?2""")
                .setParameter(1, scope).setParameter(2, key).getResultList();
        if (rows.isEmpty()) {
            return new InFlight();
        }
        Object[] row = rows.get(0);
        if (!requestHash.equals(row[0])) {
            return new Mismatch();
        }
        if (row[1] == null) {
            return new InFlight();
        }
        return new Replay(((Number) row[1]).intValue(), (String) row[2], (byte[]) row[3]);
    }

    @Transactional
    public void complete(String scope, String key, int status, String contentType, byte[] body) {
        em.createNativeQuery("""
                update idempotency_record set response_status = ?3, response_type = ?4, response_body = ?5
                where scope = ?1 and idempotency_key = ?2""")
                .setParameter(1, scope).setParameter(2, key).setParameter(3, status).setParameter(4, contentType)
                .setParameter(5, body).executeUpdate();
    }

    /** Forgets a claim whose request failed on the server side, so a retry runs again. */
    @Transactional
    public void release(String scope, String key) {
        em.createNativeQuery("delete from idempotency_record where scope = ?1 and idempotency_key = ?2 "
                + "and response_status is null").setParameter(1, scope).setParameter(2, key).executeUpdate();
    }

    @Scheduled(every = "10m", delayed = "1m",
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    @Transactional
    void purgeExpired() {
        em.createNativeQuery("delete from idempotency_record where expires_at < now()").executeUpdate();
    }
}

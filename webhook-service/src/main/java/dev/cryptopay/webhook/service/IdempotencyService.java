package dev.cryptopay.webhook.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.problem.FieldError;
import dev.cryptopay.support.security.KeyHash;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * {@code Idempotency-Key} for creating POSTs (decisions §6), per account, for 24 hours: the same key and body
 * replay the first answer; the same key with another body is 422; while the first request is still being handled,
 * a second one is 409. A key whose first request failed is released, so the client may try again with it.
 */
@ApplicationScoped
public class IdempotencyService {

    public static final String HEADER = "Idempotency-Key";
    /** A first request that has held its key this long without finishing is taken to have died with its instance. */
    private static final int STALE_SECONDS = 60;

    /** The stored first answer. */
    public record Replay(int status, String body) {
    }

    private final EntityManager em;
    private final ObjectMapper mapper;

    public IdempotencyService(EntityManager em, ObjectMapper mapper) {
        this.em = em;
        this.mapper = mapper;
    }

    /** Hash of what makes two requests "the same": the endpoint and the parsed body. */
    public String fingerprint(String endpoint, Object body) {
        try {
            return KeyHash.of(endpoint + "\n" + mapper.writeValueAsString(body));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public static void checkKey(String key) {
        if (key != null && (key.isBlank() || key.length() > 255)) {
            throw ApiException.validation(List.of(new FieldError(HEADER, "must be 1 to 255 characters")));
        }
    }

    /**
     * Claims {@code key} for a first request (empty answer: go ahead and call {@link #complete}) or returns the
     * answer to replay. Commits on its own, so a concurrent request with the same key sees the claim.
     */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public Optional<Replay> begin(UUID accountId, String key, String fingerprint) {
        em.createNativeQuery("delete from idempotency_record where account_id = ?1 and idempotency_key = ?2 and "
                + "(created_at < now() - interval '24 hours' or (response_status is null and created_at < now() - "
                + "make_interval(secs => ?3)))")
                .setParameter(1, accountId).setParameter(2, key).setParameter(3, STALE_SECONDS).executeUpdate();
        int inserted = em.createNativeQuery("insert into idempotency_record (account_id, idempotency_key, request_hash) "
                + "values (?1, ?2, ?3) on conflict do nothing")
                .setParameter(1, accountId).setParameter(2, key).setParameter(3, fingerprint).executeUpdate();
        if (inserted == 1) {
            return Optional.empty();
        }
        Object[] row = (Object[]) em.createNativeQuery("select request_hash, response_status, response_body "
                + "from idempotency_record where account_id = ?1 and idempotency_key = ?2")
                .setParameter(1, accountId).setParameter(2, key).getSingleResult();
        if (!fingerprint.equals(row[0])) {
            throw new ApiException(422, "idempotency_key_reused", "Unprocessable request",
                    "This Idempotency-Key was already used with a different request.", null, null);
        }
        if (row[1] == null) {
            throw ApiException.conflict("idempotency_request_in_progress",
                    "A request with this Idempotency-Key is still being handled; retry shortly.");
        }
        return Optional.of(new Replay(((Number) row[1]).intValue(), (String) row[2]));
    }

    /** Stores the first answer; runs in the transaction that creates the resource, so both commit together. */
    @Transactional(Transactional.TxType.MANDATORY)
    public void complete(UUID accountId, String key, int status, Object body) {
        String json;
        try {
            json = mapper.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        em.createNativeQuery("update idempotency_record set response_status = ?3, response_body = ?4 "
                + "where account_id = ?1 and idempotency_key = ?2")
                .setParameter(1, accountId).setParameter(2, key).setParameter(3, status).setParameter(4, json)
                .executeUpdate();
    }

    /** Releases a claimed key after its first request failed. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public void release(UUID accountId, String key) {
        em.createNativeQuery("delete from idempotency_record where account_id = ?1 and idempotency_key = ?2 "
                + "and response_status is null")
                .setParameter(1, accountId).setParameter(2, key).executeUpdate();
    }

    @Scheduled(every = "1h", delayed = "1m")
    @Transactional
    void purgeExpired() {
        em.createNativeQuery("delete from idempotency_record where created_at < now() - interval '24 hours'")
                .executeUpdate();
    }
}

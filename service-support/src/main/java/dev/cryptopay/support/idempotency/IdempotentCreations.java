package dev.cryptopay.support.idempotency;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.security.Caller;
import dev.cryptopay.support.security.KeyHash;
import dev.cryptopay.support.web.IdempotencyKeys;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.function.Supplier;

/**
 * Every creating POST happens once per caller and Idempotency-Key, whatever the gateway saw (docs/decisions.md §112,
 * §122): a transaction, a refund, a subscription, a subscription payment, a merchant, a key, a webhook, a plan. The
 * gateway replays the answers it has seen; but when it loses an answer (its time limit passed, or the client hung up
 * and the proxy dropped the service's stream) it cannot know whether the service committed, and a retry after the
 * gateway freed the key would create a second transaction, pay a second refund or issue a second key. Here the key is
 * claimed in the creation's own database transaction, with the answer: a retry waits for a first request still
 * running, and gets the first answer once it has committed; a first request that failed left nothing behind. The
 * answer is kept without the secrets it issued ({@link IssuedSecrets}: a replay has them {@code null}, as the
 * gateway's replays do, §28).
 * <p>
 * A service that uses it has the {@code idempotent_creation} table (transaction-service's V16, subscription-service's
 * V3, merchant-service's V4, webhook-service's V6) and sets {@code cryptopay.idempotency.purge-interval} (1h) to
 * delete records past their 24 hours; without the setting the purge is off, so services without the table never touch
 * it.
 */
@ApplicationScoped
public class IdempotentCreations {

    /** As long as the gateway keeps its records (docs/api-conventions.md "Idempotency"). */
    static final Duration RETENTION = Duration.ofHours(24);

    private static final TypeReference<JsonNode> JSON = new TypeReference<>() {
    };

    /** A creation's answer, and whether it is the first request's, given again. */
    public record Once<T>(T answer, boolean replayed) {

        /** 201 with the answer; a first request's answer given again says so, as the gateway's replays do. */
        public Response created() {
            Response.ResponseBuilder response = Response.status(Response.Status.CREATED).entity(answer);
            return replayed ? response.header("Idempotent-Replayed", "true").build() : response.build();
        }
    }

    private final EntityManager em;
    private final ObjectMapper mapper;

    public IdempotentCreations(EntityManager em, ObjectMapper mapper) {
        this.em = em;
        this.mapper = mapper;
    }

    /**
     * The first answer under {@code key} for this caller, or {@code creation}'s, stored with it; {@code request} is
     * what the creation was asked (another request under the same key is 422, as at the gateway). Without a key, just
     * {@code creation}. Call it before anything the creation writes: the claim waits for a concurrent first request
     * with the same key until that one commits or rolls back.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public <T> Once<T> once(Caller caller, String key, Object request, TypeReference<T> type, Supplier<T> creation) {
        if (key == null) {
            return new Once<>(creation.get(), false);
        }
        if (!IdempotencyKeys.valid(key)) {
            throw ApiException.validation(IdempotencyKeys.HEADER, IdempotencyKeys.INVALID);
        }
        String scope = scope(caller);
        try {
            String requestHash = KeyHash.of(mapper.writeValueAsString(request));
            int claimed = em.createNativeQuery("insert into idempotent_creation (scope, idempotency_key, "
                    + "request_hash, created_at) values (?1, ?2, ?3, ?4) on conflict do nothing")
                    .setParameter(1, scope).setParameter(2, key).setParameter(3, requestHash)
                    .setParameter(4, OffsetDateTime.now()).executeUpdate();
            if (claimed == 0) {
                List<?> first = em.createNativeQuery("select request_hash, answer from idempotent_creation "
                        + "where scope = ?1 and idempotency_key = ?2")
                        .setParameter(1, scope).setParameter(2, key).getResultList();
                if (first.isEmpty()) { // purged in the meantime: a day old, so no retry of it is still expected
                    throw ApiException.conflict("idempotency_in_flight", "Retry with this Idempotency-Key shortly.");
                }
                Object[] row = (Object[]) first.get(0);
                if (!requestHash.equals(row[0])) {
                    throw new ApiException(422, "idempotency_key_reused", "Unprocessable request",
                            "This Idempotency-Key was used with a different request.", null, null);
                }
                return new Once<>(mapper.readValue((String) row[1], type), true);
            }
            T answer = creation.get();
            em.createNativeQuery("update idempotent_creation set answer = ?3 where scope = ?1 and idempotency_key = ?2")
                    .setParameter(1, scope).setParameter(2, key)
                    .setParameter(3, mapper.writeValueAsString(IssuedSecrets.withoutSecrets(mapper, answer)))
                    .executeUpdate();
            return new Once<>(answer, false);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an idempotent creation's answer did not convert", e);
        }
    }

    /**
     * {@link #once} for an answer kept and replayed as JSON, as it was written: for answers Jackson cannot read back
     * into their type (a record with an unwrapped part, such as a merchant's settings) and those that need no type.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public Once<JsonNode> onceAsJson(Caller caller, String key, Object request, Supplier<?> creation) {
        return once(caller, key, request, JSON, () -> mapper.valueToTree(creation.get()));
    }

    /** The caller as the gateway scopes its own records: key type, account, key, merchant (docs/decisions.md §28). */
    private static String scope(Caller caller) {
        return IdempotencyKeys.scope(caller.keyType(), caller.accountId().orElse(null), caller.keyId(),
                caller.merchantId().orElse(null), caller.merchantRef().orElse(null));
    }

    @Scheduled(every = "${cryptopay.idempotency.purge-interval:off}", delayed = "5m",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    @Transactional
    void purgeExpired() {
        em.createNativeQuery("delete from idempotent_creation where created_at < ?1")
                .setParameter(1, OffsetDateTime.now().minus(RETENTION)).executeUpdate();
    }
}

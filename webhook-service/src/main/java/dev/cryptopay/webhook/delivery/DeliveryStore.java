package dev.cryptopay.webhook.delivery;

import dev.cryptopay.events.TimeOrderedIds;
import dev.cryptopay.support.jdbc.CustomPlans;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The dispatcher's two statements on the delivery table, in plain JDBC because they run thousands of times a
 * second under load: claiming due deliveries and recording attempts.
 *
 * <p>Claiming takes row locks with {@code FOR UPDATE SKIP LOCKED} and stamps a lease in the same statement, so two
 * instances never claim the same delivery while its lease runs. An instance that dies mid-attempt leaves the lease
 * to expire; the delivery is then claimed again and re-sent with the same {@code webhook-id} (at-least-once).
 */
@ApplicationScoped
public class DeliveryStore {

    /** A delivery this instance now owns until its lease ends, with what an attempt needs. */
    public record Claimed(UUID id, UUID webhookId, String eventId, String payload, int attempts, int retryStep,
            int generation, String url, String sealedSigningKey, String sealedPreviousSigningKey) {
    }

    /** The result of one attempt of a claimed delivery. */
    public record Outcome(Claimed delivery, OffsetDateTime attemptedAt, int durationMs, Integer httpStatus,
            String error, boolean succeeded) {

        public int attemptNumber() {
            return delivery.attempts() + 1;
        }
    }

    /**
     * Due deliveries of enabled webhooks, at most {@code free.get(webhook)} (else {@code defaultCap}) per webhook,
     * oldest due first, skipping saturated webhooks and rows another instance is locking right now.
     *
     * <ol>
     * <li>{@code hooks}: the webhooks with pending deliveries, one index probe each (loose index scan on
     * {@code delivery_pending_by_webhook}).</li>
     * <li>{@code slots}: those still enabled and not saturated, with their free slots.</li>
     * <li>{@code picked}: per webhook its oldest due, unleased rows, at most its free slots (an index range scan
     * that stops at the first row not yet due).</li>
     * <li>{@code locked}: row locks, skipping rows locked elsewhere; then the lease is stamped.</li>
     * </ol>
     * The intermediate steps are materialized so the plan cannot degrade into re-running them per row.
     */
    private static final String CLAIM = """
            with recursive hooks(webhook_id) as (
                (select webhook_id from delivery where status = 'pending' order by webhook_id limit 1)
                union all
                select (select d.webhook_id from delivery d
                        where d.status = 'pending' and d.webhook_id > h.webhook_id
                        order by d.webhook_id limit 1)
                from hooks h where h.webhook_id is not null
            ),
            slots as materialized (
                select h.webhook_id, coalesce(f.free, ?) as free
                from hooks h
                join webhook w on w.id = h.webhook_id and w.status = 1 and w.deleted_at is null
                left join unnest(?::uuid[], ?::int[]) as f(webhook_id, free) on f.webhook_id = h.webhook_id
                where h.webhook_id <> all(?::uuid[])
            ),
            picked as materialized (
                select p.id, p.next_attempt_at from slots s
                cross join lateral (
                    select d.id, d.next_attempt_at from delivery d
                    where d.webhook_id = s.webhook_id and d.status = 'pending' and d.next_attempt_at <= now()
                      and (d.lease_until is null or d.lease_until < now())
                    order by d.next_attempt_at, d.id
                    limit s.free
                ) p
                order by p.next_attempt_at, p.id
                limit ?
            ),
            locked as (
                select d.id from delivery d join picked p on p.id = d.id
                where d.status = 'pending' and d.next_attempt_at <= now()
                  and (d.lease_until is null or d.lease_until < now())
                for update of d skip locked
            )
            update delivery d set lease_until = now() + ? * interval '1 millisecond'
            from locked, webhook w, event_payload e
            where d.id = locked.id and w.id = d.webhook_id and e.event_id = d.event_id
            returning d.id, d.webhook_id, d.event_id, e.payload, d.attempts, d.retry_step, d.generation,
                      w.url, w.signing_key,
                      case when w.previous_key_expires_at > now() then w.previous_signing_key end
            """;

    private static final String INSERT_ATTEMPT = """
            insert into delivery_attempt (id, delivery_id, webhook_id, attempt, attempted_at, http_status, error,
                                          duration_ms, succeeded)
            values (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """;

    private static final String DELIVERED = """
            update delivery set attempts = greatest(attempts, ?), status = 'delivered', next_attempt_at = null,
                                lease_until = null, updated_at = now()
            where id = ? and generation = ?
            """;

    /**
     * A failed attempt: the next one after the given wait, or failed when the schedule is exhausted (wait null).
     * A webhook disabled or deleted meanwhile gets no retry.
     */
    private static final String FAILED_ATTEMPT = """
            update delivery d set attempts = greatest(d.attempts, ?),
                status = case when ?::bigint is null then 'failed'
                              when exists (select 1 from webhook w where w.id = d.webhook_id and w.status = 1
                                           and w.deleted_at is null) then 'pending'
                              else 'cancelled' end,
                retry_step = ?,
                next_attempt_at = case when ?::bigint is null then null else now() + ? * interval '1 millisecond' end,
                lease_until = null, updated_at = now()
            where d.id = ? and d.generation = ?
            """;

    /**
     * Locks a batch's deliveries in id order before changing them. Disabling a webhook cancels its pending
     * deliveries in id order too, so the two never wait for each other in a cycle (no deadlock).
     */
    private static final String LOCK_IN_ORDER = "select id from delivery where id = any(?::uuid[]) order by id for update";

    /** The delivery was redelivered while this attempt ran: count the attempt, leave the new request alone. */
    private static final String COUNT_ONLY = "update delivery set attempts = greatest(attempts, ?) where id = ?";

    private final AgroalDataSource dataSource;

    public DeliveryStore(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    public List<Claimed> claim(Collection<UUID> saturated, Map<UUID, Integer> free, int defaultCap, int limit,
            Duration lease) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(true);
            try (PreparedStatement st = connection.prepareStatement(CLAIM)) {
                UUID[] webhooks = free.keySet().toArray(UUID[]::new);
                Integer[] caps = new Integer[webhooks.length];
                for (int i = 0; i < webhooks.length; i++) {
                    caps[i] = free.get(webhooks[i]);
                }
                st.setInt(1, defaultCap);
                st.setArray(2, connection.createArrayOf("uuid", webhooks));
                st.setArray(3, connection.createArrayOf("int4", caps));
                st.setArray(4, connection.createArrayOf("uuid", saturated.toArray(UUID[]::new)));
                st.setInt(5, limit);
                st.setLong(6, lease.toMillis());
                List<Claimed> claimed = new ArrayList<>();
                try (ResultSet rs = st.executeQuery()) {
                    while (rs.next()) {
                        claimed.add(new Claimed(rs.getObject(1, UUID.class), rs.getObject(2, UUID.class),
                                rs.getString(3), rs.getString(4), rs.getInt(5), rs.getInt(6), rs.getInt(7),
                                rs.getString(8), rs.getString(9), rs.getString(10)));
                    }
                }
                return claimed;
            }
        }
    }

    /**
     * Records attempts and moves their deliveries on, all in one transaction. {@code retryWaits} is the
     * schedule: after the n-th failure since the last (re)delivery request the next attempt waits retryWaits[n-1].
     */
    public void record(List<Outcome> outcomes, List<Duration> retryWaits) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try (PreparedStatement lock = CustomPlans.eachExecution(connection.prepareStatement(LOCK_IN_ORDER));
                    PreparedStatement insert = connection.prepareStatement(INSERT_ATTEMPT);
                    PreparedStatement delivered = connection.prepareStatement(DELIVERED);
                    PreparedStatement failed = connection.prepareStatement(FAILED_ATTEMPT)) {
                lock.setArray(1, connection.createArrayOf("uuid",
                        outcomes.stream().map(o -> o.delivery().id()).distinct().toArray(UUID[]::new)));
                lock.executeQuery().close();
                List<Outcome> successes = new ArrayList<>();
                List<Outcome> failures = new ArrayList<>();
                for (Outcome o : outcomes) {
                    insert.setObject(1, TimeOrderedIds.next());
                    insert.setObject(2, o.delivery().id());
                    insert.setObject(3, o.delivery().webhookId());
                    insert.setInt(4, o.attemptNumber());
                    insert.setObject(5, o.attemptedAt());
                    if (o.httpStatus() == null) {
                        insert.setNull(6, Types.INTEGER);
                    } else {
                        insert.setInt(6, o.httpStatus());
                    }
                    insert.setString(7, o.error());
                    insert.setInt(8, o.durationMs());
                    insert.setBoolean(9, o.succeeded());
                    insert.addBatch();
                    if (o.succeeded()) {
                        delivered.setInt(1, o.attemptNumber());
                        delivered.setObject(2, o.delivery().id());
                        delivered.setInt(3, o.delivery().generation());
                        delivered.addBatch();
                        successes.add(o);
                    } else {
                        int step = o.delivery().retryStep();
                        Duration wait = retryWait(o, retryWaits);
                        Long waitMillis = wait == null ? null : wait.toMillis();
                        failed.setInt(1, o.attemptNumber());
                        setNullableLong(failed, 2, waitMillis);
                        failed.setInt(3, step + 1);
                        setNullableLong(failed, 4, waitMillis);
                        setNullableLong(failed, 5, waitMillis);
                        failed.setObject(6, o.delivery().id());
                        failed.setInt(7, o.delivery().generation());
                        failed.addBatch();
                        failures.add(o);
                    }
                }
                insert.executeBatch();
                List<Outcome> stale = new ArrayList<>();
                collectStale(successes.isEmpty() ? new int[0] : delivered.executeBatch(), successes, stale);
                collectStale(failures.isEmpty() ? new int[0] : failed.executeBatch(), failures, stale);
                if (!stale.isEmpty()) {
                    try (PreparedStatement count = connection.prepareStatement(COUNT_ONLY)) {
                        for (Outcome o : stale) {
                            count.setInt(1, o.attemptNumber());
                            count.setObject(2, o.delivery().id());
                            count.addBatch();
                        }
                        count.executeBatch();
                    }
                }
                connection.commit();
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        }
    }

    /**
     * How long after this failed attempt the next one waits: the schedule's wait at the delivery's retry step, or null
     * when the schedule is exhausted (the delivery fails). The dispatcher uses it too, to wake when the retry is due.
     */
    static Duration retryWait(Outcome failed, List<Duration> retryWaits) {
        int step = failed.delivery().retryStep();
        return step < retryWaits.size() ? retryWaits.get(step) : null;
    }

    private static void collectStale(int[] counts, List<Outcome> outcomes, List<Outcome> stale) {
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] == 0) {
                stale.add(outcomes.get(i));
            }
        }
    }

    private static void setNullableLong(PreparedStatement st, int index, Long value) throws SQLException {
        if (value == null) {
            st.setNull(index, Types.BIGINT);
        } else {
            st.setLong(index, value);
        }
    }
}

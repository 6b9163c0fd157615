package dev.cryptopay.webhook.messaging;

import dev.cryptopay.events.EventTypes;
import dev.cryptopay.events.TimeOrderedIds;
import dev.cryptopay.support.inbox.Inbox;
import dev.cryptopay.webhook.domain.Delivery;
import dev.cryptopay.webhook.domain.Webhook;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Turns a batch of events into pending deliveries, in one database transaction together with the inbox markers:
 * an event id seen before is skipped, so however often Kafka hands an event over, each subscribed webhook gets
 * one delivery of it. The dispatcher sends them after the commit.
 *
 * <p>The markers are written by {@link Inbox#firstDeliveries}, the inbox guard for a whole batch in one statement
 * (a database round trip per event cost 3-6 ms each and capped ingestion near 200 events/s on a small machine).
 */
@ApplicationScoped
public class EventIngest {

    static final String CONSUMER = "webhook.deliveries";
    private static final Logger LOG = Logger.getLogger(EventIngest.class);

    /**
     * Enabled webhooks of an account, share-locked until commit: disabling or deleting one (which locks it for
     * update and cancels its pending deliveries) waits for this transaction, or this one sees it disabled.
     */
    private static final String SUBSCRIBERS = "select id, events from webhook "
            + "where account_id = ? and status = 1 and deleted_at is null for share";
    /** The body, once per event that goes to at least one webhook. */
    private static final String INSERT_PAYLOAD = "insert into event_payload (event_id, event_type, payload) "
            + "values (?, ?, ?) on conflict do nothing";
    private static final String INSERT = "insert into delivery (id, webhook_id, account_id, event_id, event_type, "
            + "status, next_attempt_at) values (?, ?, ?, ?, ?, '" + Delivery.PENDING + "', now()) "
            + "on conflict (webhook_id, event_id) do nothing";

    private record Subscriber(UUID webhookId, List<String> events) {

        boolean wants(String type) {
            return events.contains(Webhook.ALL_EVENTS) || events.contains(type);
        }
    }

    private final AgroalDataSource dataSource;
    private final Inbox inbox;

    public EventIngest(AgroalDataSource dataSource, Inbox inbox) {
        this.dataSource = dataSource;
        this.inbox = inbox;
    }

    /** Returns how many deliveries the batch created. */
    @Transactional
    public int ingest(List<String> values) throws SQLException {
        int created = 0;
        // Within the transaction the pool hands out the transaction's own connection.
        try (Connection connection = dataSource.getConnection();
                PreparedStatement subscribers = connection.prepareStatement(SUBSCRIBERS);
                PreparedStatement payloads = connection.prepareStatement(INSERT_PAYLOAD);
                PreparedStatement insert = connection.prepareStatement(INSERT)) {
            Map<String, IncomingEvent> events = new LinkedHashMap<>();
            for (String value : values) {
                try {
                    IncomingEvent event = IncomingEvent.parse(value);
                    events.putIfAbsent(event.id(), event);
                } catch (IllegalArgumentException e) {
                    LOG.warnf("skipping a record that is not a usable CloudEvent: %s", e.getMessage());
                }
            }
            Set<String> fresh = inbox.firstDeliveries(CONSUMER, events.keySet());
            Map<UUID, List<Subscriber>> byAccount = new HashMap<>();
            for (IncomingEvent event : events.values()) {
                if (!fresh.contains(event.id()) || !EventTypes.WEBHOOK_TYPES.contains(event.type())) {
                    continue;
                }
                if (event.accountId().isEmpty()) {
                    LOG.warnf("event %s (%s) names no account (data.accountID / data.accountId); no webhook gets it",
                            event.id(), event.type());
                    continue;
                }
                UUID account = event.accountId().get();
                List<Subscriber> targets = byAccount.get(account);
                if (targets == null) {
                    targets = subscribers(subscribers, account);
                    byAccount.put(account, targets);
                }
                boolean bodyStored = false;
                for (Subscriber target : targets) {
                    if (!target.wants(event.type())) {
                        continue;
                    }
                    if (!bodyStored) {
                        payloads.setString(1, event.id());
                        payloads.setString(2, event.type());
                        payloads.setString(3, event.webhookBody());
                        payloads.addBatch();
                        bodyStored = true;
                    }
                    insert.setObject(1, TimeOrderedIds.next());
                    insert.setObject(2, target.webhookId());
                    insert.setObject(3, account);
                    insert.setString(4, event.id());
                    insert.setString(5, event.type());
                    insert.addBatch();
                    created++;
                }
            }
            if (created > 0) {
                payloads.executeBatch();
                insert.executeBatch();
            }
        }
        return created;
    }

    private static List<Subscriber> subscribers(PreparedStatement query, UUID account) throws SQLException {
        query.setObject(1, account);
        List<Subscriber> found = new ArrayList<>();
        try (ResultSet rs = query.executeQuery()) {
            while (rs.next()) {
                Array events = rs.getArray(2);
                found.add(new Subscriber(rs.getObject(1, UUID.class), Arrays.asList((String[]) events.getArray())));
            }
        }
        return found;
    }
}

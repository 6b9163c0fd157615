package dev.cryptopay.support.outbox;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * Outbox retention (docs/decisions.md §96) on the real database: rows published before the cutoff go, a batch per
 * transaction; a row not yet published stays whatever its age, and so does a row written long ago but published
 * after the cutoff (as one held back by a broker outage), and everything recent.
 */
@QuarkusTest
class OutboxPrunerTest {

    @Inject
    OutboxPruner pruner;
    @Inject
    DataSource dataSource;

    @Test
    void deletesOnlyRowsPublishedBeforeTheCutoffInBatches() throws Exception {
        String topic = RelayFixture.newTopic(); // the relay may send the unpublished row meanwhile: a real topic
        Instant now = Instant.now();
        Instant tenDaysAgo = now.minus(Duration.ofDays(10));
        // Rows written ten days ago carry numbers below every row of this database (numbers follow the order of
        // writing, which the pruner relies on), the recent one the next number.
        long seq = oldestSeq() - 1000;
        for (int i = 0; i < 5; i++) {
            insert(seq++, topic, tenDaysAgo, now.minus(Duration.ofDays(9)));
        }
        String neverPublished = insert(seq++, topic, tenDaysAgo, null);
        String publishedLate = insert(seq++, topic, tenDaysAgo, now.minus(Duration.ofHours(1)));
        String recent = insert(null, topic, now, now);

        assertEquals(5, pruner.prune(OffsetDateTime.now().minus(Duration.ofDays(7)), 2),
                "the five rows published nine days ago, in batches of two");

        assertEquals(new TreeSet<>(Set.of(neverPublished, publishedLate, recent)), remaining(topic),
                "the unpublished row, the one published an hour ago and the recent one stay");
        assertEquals(0, pruner.prune(OffsetDateTime.now().minus(Duration.ofDays(7)), 2), "nothing more to delete");
    }

    private long oldestSeq() throws Exception {
        try (Connection c = dataSource.getConnection();
                PreparedStatement st = c.prepareStatement("select least(coalesce(min(seq), 0), 0) from outbox_event");
                ResultSet rs = st.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** One row; {@code seq} null takes the next number. */
    private String insert(Long seq, String topic, Instant createdAt, Instant publishedAt) throws Exception {
        String id = UUID.randomUUID().toString();
        try (Connection c = dataSource.getConnection(); PreparedStatement st = c.prepareStatement(
                "insert into outbox_event (seq, id, topic, message_key, event_type, payload, created_at, published_at) "
                        + "values (coalesce(?, nextval('outbox_event_seq_seq')), ?::uuid, ?, 'key', 'test.pruned', "
                        + "'{}', ?, ?)")) {
            st.setObject(1, seq, Types.BIGINT);
            st.setString(2, id);
            st.setString(3, topic);
            st.setTimestamp(4, Timestamp.from(createdAt));
            st.setTimestamp(5, publishedAt == null ? null : Timestamp.from(publishedAt));
            st.executeUpdate();
        }
        return id;
    }

    private Set<String> remaining(String topic) throws Exception {
        Set<String> ids = new TreeSet<>();
        try (Connection c = dataSource.getConnection();
                PreparedStatement st = c.prepareStatement("select id::text from outbox_event where topic = ?")) {
            st.setString(1, topic);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getString(1));
                }
            }
        }
        return ids;
    }
}

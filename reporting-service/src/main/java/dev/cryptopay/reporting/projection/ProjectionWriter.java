package dev.cryptopay.reporting.projection;

import dev.cryptopay.reporting.store.StoreSchemas;
import io.agroal.api.AgroalDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/** Applies one polled batch of a topic to the live store in one database transaction. */
@ApplicationScoped
public class ProjectionWriter {

    private final AgroalDataSource dataSource;
    private final StoreSchemas schemas;
    private final MeterRegistry meters;

    public ProjectionWriter(AgroalDataSource dataSource, StoreSchemas schemas, MeterRegistry meters) {
        this.dataSource = dataSource;
        this.schemas = schemas;
        this.meters = meters;
    }

    @Transactional
    public Projector.Outcome write(String topic, List<String> values) throws SQLException {
        // Within the transaction the pool hands out the transaction's own connection.
        try (Connection c = dataSource.getConnection()) {
            String schema = schemas.lockShared(c);
            Projector.Outcome outcome = Projector.apply(c, schema, topic, values);
            count(topic, outcome);
            return outcome;
        }
    }

    void count(String topic, Projector.Outcome outcome) {
        meters.counter("reporting.events", "topic", topic, "result", "applied").increment(outcome.applied());
        meters.counter("reporting.events", "topic", topic, "result", "duplicate").increment(outcome.duplicates());
        meters.counter("reporting.events", "topic", topic, "result", "malformed").increment(outcome.malformed());
    }
}

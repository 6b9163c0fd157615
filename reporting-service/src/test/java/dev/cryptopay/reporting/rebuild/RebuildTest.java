package dev.cryptopay.reporting.rebuild;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cryptopay.events.Topics;
import dev.cryptopay.reporting.messaging.LagMonitor;
import dev.cryptopay.reporting.testing.Api;
import dev.cryptopay.reporting.testing.Await;
import dev.cryptopay.reporting.testing.Events;
import dev.cryptopay.support.testing.TestTokens;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The rebuild from offset zero into a fresh schema, and the lag it is judged by. The live store has consumed every
 * event on the test broker (of all earlier runs and tests too: duplicates, reorderings, gaps); once the lag is zero,
 * the rebuilt store must equal it table by table, row by row.
 */
@QuarkusTest
class RebuildTest {

    /** quarkus.management.test-port of reporting-service. */
    private static final int MANAGEMENT_TEST_PORT = 9185;

    private static final List<String> TABLES = List.of("event_log", "transaction_row", "payment_row", "refund_row",
            "merchant_row");

    @Inject
    AgroalDataSource dataSource;

    @Inject
    LagMonitor lag;

    @BeforeEach
    void configure() {
        Api.configure();
    }

    @Test
    void theRebuiltStoreEqualsTheLiveOneAndTakesOver() throws Exception {
        UUID account = UUID.randomUUID();
        UUID merchant = UUID.randomUUID();
        UUID tx = UUID.randomUUID();
        Instant created = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        try (Events events = new Events()) {
            events.merchant(Events.merchant(account, merchant, 1, "weekly", "2026-01-05T00:00:00Z", created));
            ObjectNode v3 = Events.transaction(account, merchant, tx, 3, 1, 1, "100", created, created.plusSeconds(9));
            v3.set("merchantFees", Events.fees("0.02", "0.25", "deduct", "10", "5"));
            String success = events.transaction("transaction.success", v3);
            events.transaction("transaction.created", Events.transaction(account, merchant, tx, 1, 0, 0, "0", created,
                    created));
            events.send(Topics.TRANSACTIONS, tx.toString(), success);
            events.refund("refund.completed", Events.refund(account, merchant, tx, UUID.randomUUID(), 2, 1, "10",
                    created, created.plusSeconds(30)));
        }
        Await.until(() -> Api.get(account, "transactions/" + tx).getList("refunds").size() == 1,
                () -> "events not projected");
        Await.until(() -> caughtUp(), () -> "live projection still lags: " + lag.lag());

        JsonPath started = given().auth().oauth2(TestTokens.operator()).post("/operator/reporting/rebuild")
                .then().statusCode(202).body("status", equalTo("running")).extract().jsonPath();
        String target = started.getString("targetSchema");
        String previous = started.getString("activeSchema");
        assertNotEquals(previous, target);
        given().auth().oauth2(TestTokens.operator()).post("/operator/reporting/rebuild").then().statusCode(409)
                .body("code", equalTo("rebuild_running"));
        Await.until(() -> !"running".equals(status().getString("status")), () -> "rebuild still running");
        JsonPath done = status();
        assertEquals("done", done.getString("status"), done.prettify());
        assertEquals(target, done.getString("activeSchema"));
        assertTrue(done.getLong("events") > 0);

        for (String table : TABLES) {
            assertEquals(0, difference(previous, target, table), table + " rows live but not rebuilt");
            assertEquals(0, difference(target, previous, table), table + " rows rebuilt but not live");
            assertEquals(count(previous, table), count(target, table), table);
        }
        assertTrue(count(target, "transaction_row") > 0);

        // the new store serves, and the live consumers write into it
        JsonPath row = Api.get(account, "transactions/" + tx);
        assertEquals(1, row.getInt("status"));
        assertEquals(1, Api.get(account, "transactions", "merchantID", merchant.toString()).getInt("total"));
        UUID later = UUID.randomUUID();
        try (Events events = new Events()) {
            events.transaction("transaction.created", Events.transaction(account, merchant, later, 1, 0, 0, "0",
                    created, created));
        }
        Await.until(() -> Api.get(account, "transactions").getInt("total") == 2, () -> "new event not projected");
        assertEquals(1, count(target, "transaction_row where transaction_id = '" + later + "'"));
    }

    @Test
    void lagIsAMetricAndInTheReadinessDetail() throws Exception {
        Map<String, Long> measured = lag.measureNow();
        assertTrue(measured.keySet().containsAll(List.of(Topics.TRANSACTIONS, Topics.REFUNDS, Topics.MERCHANTS)));
        measured.values().forEach(value -> assertTrue(value >= 0, measured.toString()));
        // Health and metrics live on the management port (quarkus.management.test-port), not on the API port.
        given().port(MANAGEMENT_TEST_PORT).get("/q/health/ready").then().statusCode(200)
                .body("checks.find { it.name == 'reporting-projection' }.status", equalTo("UP"))
                .body("checks.find { it.name == 'reporting-projection' }.data", org.hamcrest.Matchers.hasKey(
                        "lag." + Topics.TRANSACTIONS));
        given().port(MANAGEMENT_TEST_PORT).get("/q/metrics").then().statusCode(200)
                .body(containsString("reporting_consumer_lag{topic=\"" + Topics.TRANSACTIONS + "\"}"))
                .body(containsString("reporting_version_gaps{topic=\"" + Topics.TRANSACTIONS + "\"}"));
    }

    private boolean caughtUp() {
        try {
            return lag.measureNow().values().stream().allMatch(v -> v == 0);
        } catch (Exception e) {
            return false;
        }
    }

    private static JsonPath status() {
        return given().auth().oauth2(TestTokens.operator()).get("/operator/reporting/rebuild").then().statusCode(200)
                .extract().jsonPath();
    }

    private long difference(String a, String b, String table) throws SQLException {
        return single("select count(*) from (select * from " + a + "." + table + " except all select * from " + b
                + "." + table + ") d");
    }

    private long count(String schema, String tableAndWhere) throws SQLException {
        return single("select count(*) from " + schema + "." + tableAndWhere);
    }

    private long single(String sql) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}

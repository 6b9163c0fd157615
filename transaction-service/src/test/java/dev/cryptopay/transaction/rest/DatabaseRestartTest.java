package dev.cryptopay.transaction.rest;

import static dev.cryptopay.transaction.rest.Fixtures.body;
import static dev.cryptopay.transaction.rest.Fixtures.create;
import static dev.cryptopay.transaction.rest.Fixtures.merchant;
import static dev.cryptopay.transaction.rest.Fixtures.publishable;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.events.MerchantConfiguration;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The database ends every session of the service, as a restart or a failover does (docs/decisions.md §131): the
 * pools check a connection not used for a second before handing it out, so creations after that second all succeed,
 * and a request that meets a dead connection sooner is answered 503 with Retry-After, never 500.
 */
@QuarkusTest
class DatabaseRestartTest {

    private static final String BODY = body("10", "USD", "BTC", "bitcoin");
    /** How far past the pools' foreground-validation interval the test waits (a scheduling margin). */
    private static final long VALIDATION_MARGIN_MS = 300;

    @Inject
    AgroalDataSource dataSource;

    /** A connection idle this long is checked before use (both pools: the addresses' takes the same setting). */
    @ConfigProperty(name = "quarkus.datasource.jdbc.foreground-validation-interval")
    Duration validationInterval;

    @BeforeAll
    static void setUp() {
        Fixtures.configureRestAssured();
    }

    @Test
    void creationsAfterTheSessionsEndedSucceedOnceTheirConnectionsWereIdleASecond() throws Exception {
        MerchantConfiguration m = merchant(c -> c);
        for (int i = 0; i < 3; i++) { // connections in both pools (the creation's and the address indexes')
            create(publishable(m), BODY);
        }
        assertTrue(endEveryOtherSession() >= 2, "the service's pooled sessions were not ended");
        waitPastValidationInterval();
        for (int i = 0; i < 5; i++) {
            create(publishable(m), BODY); // 201, or the fixture fails
        }
    }

    @Test
    void aRequestThatMeetsADeadConnectionIsAnswered503NotAnInternalError() throws Exception {
        MerchantConfiguration m = merchant(c -> c);
        create(publishable(m), BODY);
        endEveryOtherSession();
        // At once: the connections were used within the second, so they are not checked and some request may meet one.
        for (int i = 0; i < 5; i++) {
            Response answer = publishable(m).contentType(ContentType.JSON).body(BODY).when().post("/transaction");
            if (answer.statusCode() != 201) {
                assertEquals(503, answer.statusCode(), answer.asString());
                assertEquals("service_unavailable", answer.jsonPath().getString("code"));
                assertEquals("1", answer.getHeader("Retry-After"));
            }
        }
        // The test classes after this one share the pools. The dead connections these requests did not meet were last
        // used less than a second ago and would be handed out unchecked (a fresh clone's run failed the next class on
        // one): wait until each is checked before use, as the service itself recovers a second after a restart.
        waitPastValidationInterval();
    }

    private void waitPastValidationInterval() throws InterruptedException {
        Thread.sleep(validationInterval.toMillis() + VALIDATION_MARGIN_MS);
    }

    /** Ends every session of this database's user but the one asking, as the server does at a restart. */
    private int endEveryOtherSession() throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("select count(*) filter (where pg_terminate_backend(pid)) "
                        + "from pg_stat_activity where datname = current_database() and usename = current_user "
                        + "and pid <> pg_backend_pid()")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}

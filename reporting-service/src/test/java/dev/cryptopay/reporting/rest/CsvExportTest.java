package dev.cryptopay.reporting.rest;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cryptopay.reporting.service.CsvExport;
import dev.cryptopay.reporting.testing.Api;
import dev.cryptopay.reporting.testing.Await;
import dev.cryptopay.reporting.testing.Events;
import dev.cryptopay.support.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The listing as CSV: every matching row regardless of limit/offset, RFC 4180, formula injection neutralised. */
@QuarkusTest
class CsvExportTest {

    static final UUID ACCOUNT = UUID.randomUUID();
    static final int ROWS = 1203;

    private static boolean projected;

    /** Once per class, but inside the running application (REST Assured knows its port only then). */
    @BeforeEach
    void project() {
        Api.configure();
        if (projected) {
            return;
        }
        projected = true;
        try (Events events = new Events()) {
            Instant base = Instant.parse("2026-01-01T00:00:00Z");
            for (int i = 0; i < ROWS; i++) {
                UUID id = UUID.randomUUID();
                Instant created = base.plusSeconds(60L * i);
                ObjectNode data = Events.transaction(ACCOUNT, UUID.randomUUID(), id, 1, 0, 0, "0", created, created);
                if (i == ROWS - 2) {
                    data.put("status", -1);
                }
                if (i == ROWS - 1) {
                    data.put("descriptor", "=HYPERLINK(\"http://evil\",\"x\")");
                    data.put("referenceNumber", "line1\nline2, \"quoted\"");
                    data.put("externalMID", "@SUM(A1)");
                    data.put("cancellationReason", "-2+3");
                }
                events.transaction("transaction.created", data);
            }
        }
        Await.until(() -> given().auth().oauth2(TestTokens.admin(ACCOUNT)).get("/accounts/" + ACCOUNT + "/transactions")
                .then().extract().jsonPath().getInt("total") == ROWS, () -> "projection incomplete");
    }

    @Test
    void everyRowStreamsRegardlessOfLimitAndOffset() {
        var response = given().auth().oauth2(TestTokens.admin(ACCOUNT)).accept("text/csv")
                .queryParam("limit", 1).queryParam("offset", 5)
                .get("/accounts/" + ACCOUNT + "/transactions").then().statusCode(200)
                .contentType("text/csv").extract();
        String body = response.asString();
        assertTrue(body.endsWith("\r\n"));
        String[] lines = body.split("\r\n");
        assertEquals(String.join(",", CsvExport.HEADER), lines[0]);
        // the newest (the crafted one) first; its quoted field holds a newline, so it spans a "\n" but no "\r\n"
        assertEquals(ROWS + 1, lines.length);
        String crafted = lines[1];
        assertTrue(crafted.contains(",'@SUM(A1),\"'=HYPERLINK(\"\"http://evil\"\",\"\"x\"\")\","), crafted);
        assertTrue(crafted.contains(",\"line1\nline2, \"\"quoted\"\"\","), crafted);
        assertTrue(crafted.contains(",'-2+3,"), crafted);
        // statuses are numbers, not text: a negative one is not escaped
        assertEquals("-1", lines[2].split(",")[6]);
    }

    @Test
    void filtersApplyToTheExport() {
        String body = given().auth().oauth2(TestTokens.admin(ACCOUNT)).accept("text/csv")
                .queryParam("fromDate", "2026-01-01T00:00:00Z").queryParam("toDate", "2026-01-01T00:09:00Z")
                .get("/accounts/" + ACCOUNT + "/transactions").then().statusCode(200).extract().asString();
        List<String> lines = List.of(body.split("\r\n"));
        assertEquals(11, lines.size());
        assertTrue(lines.get(1).contains(",2026-01-01T00:09:00Z,"), lines.get(1));
    }

    @Test
    void jsonStaysTheDefault() {
        given().auth().oauth2(TestTokens.admin(ACCOUNT)).accept("*/*").get("/accounts/" + ACCOUNT + "/transactions")
                .then().statusCode(200).contentType("application/json");
        given().auth().oauth2(TestTokens.admin(ACCOUNT)).accept("application/json, text/csv")
                .get("/accounts/" + ACCOUNT + "/transactions").then().statusCode(200).contentType("application/json");
    }
}

package dev.cryptopay.systemtests.security;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.startsWith;

import dev.cryptopay.systemtests.SandboxAccount;
import dev.cryptopay.systemtests.Suite;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Security issue, Low: "{@code ?page=2147483647&limit=100} answers 500". Every paginated listing of the gateway caps
 * the offset at ten million items (docs/decisions.md §21): the last page that starts within it answers 200 (empty),
 * the first beyond it and the largest int answer 400 problem+json naming {@code page}; none is a 500.
 */
class PageCapIT {

    private static SandboxAccount account;
    private static String webhook;

    @BeforeAll
    static void setUp() {
        Suite.throughGateway();
        account = SandboxAccount.create("Page cap IT");
        webhook = given().header("X-Api-Key", account.apiKey()).contentType(ContentType.JSON)
                .body("{\"name\":\"pages\",\"url\":\"https://example.com/hook\",\"events\":[\"transaction.success\"]}")
                .post("/accounts/" + account.accountId() + "/webhooks").then().statusCode(201).extract().path("uuid");
    }

    static Stream<Arguments> listings() {
        Supplier<RequestSpecification> apiKey = () -> given().header("X-Api-Key", account.apiKey());
        Supplier<RequestSpecification> withAccount = () -> given().header("X-Api-Key", account.apiKey())
                .header("X-Account-Id", account.accountId());
        return Stream.of(
                Arguments.of("merchants", apiKey, (Supplier<String>) () -> "/accounts/" + account.accountId() + "/merchants"),
                Arguments.of("transactions", withAccount, (Supplier<String>) () -> "/transactions"),
                Arguments.of("plans", apiKey, (Supplier<String>) () -> "/subscriptionplans"),
                Arguments.of("subscriptions", apiKey, (Supplier<String>) () -> "/subscriptions"),
                Arguments.of("subscription payments", apiKey, (Supplier<String>) () -> "/subscriptionpayments"),
                Arguments.of("webhook deliveries", apiKey, (Supplier<String>) () -> "/accounts/" + account.accountId()
                        + "/webhooks/" + webhook + "/deliveries"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("listings")
    void theOffsetIsCappedWithA400NeverA500(String name, Supplier<RequestSpecification> caller, Supplier<String> path) {
        // (100,001 − 1) × 100 = 10,000,000: the last page that may start
        caller.get().queryParam("limit", 100).queryParam("page", 100_001).get(path.get())
                .then().statusCode(200);
        for (String page : List.of("100002", "2147483647")) {
            caller.get().queryParam("limit", 100).queryParam("page", page).get(path.get())
                    .then().statusCode(400)
                    .contentType(startsWith("application/problem+json"))
                    .body("status", equalTo(400))
                    .body("errors.field", hasItem("page"));
        }
    }
}

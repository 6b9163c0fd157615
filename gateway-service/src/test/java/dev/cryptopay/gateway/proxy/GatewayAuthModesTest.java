package dev.cryptopay.gateway.proxy;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.notNullValue;

import dev.cryptopay.gateway.auth.StoredKey;
import dev.cryptopay.support.security.KeyHash;
import dev.cryptopay.support.testing.TestTokens;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.specification.RequestSpecification;
import io.smallrye.jwt.build.Jwt;
import java.time.OffsetDateTime;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Authentication decisions of the gateway, route by route. No downstream service runs during this module's
 * tests, so a request the gateway lets through answers 503 (service unavailable, as problem+json with
 * Retry-After) and one it refuses answers 401/403/400 from the gateway itself.
 */
@QuarkusTest
class GatewayAuthModesTest {

    static final UUID ACCOUNT = UUID.randomUUID();
    static final UUID OTHER_ACCOUNT = UUID.randomUUID();
    static final UUID SCOPED_MERCHANT = UUID.randomUUID();
    static final String ADMIN = "ak_admin_" + ACCOUNT;
    static final String READ_ONLY = "ak_read_" + ACCOUNT;
    static final String REVOKED = "ak_revoked_" + ACCOUNT;
    static final String PUBLISHABLE = "pk_pub_" + ACCOUNT;
    static final String UNSCOPED_PUBLISHABLE = "pk_all_" + ACCOUNT;
    static final UUID TILL = UUID.randomUUID();
    static final UUID FOREIGN_MERCHANT = UUID.randomUUID();

    @BeforeAll
    static void seedKeyStore() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
        QuarkusTransaction.requiringNew().run(() -> {
            store(ADMIN, "api", "admin", 1, null);
            store(READ_ONLY, "api", "read_only", 1, null);
            store(REVOKED, "api", "admin", -1, null);
            store(PUBLISHABLE, "publishable", null, 1, SCOPED_MERCHANT);
            store(UNSCOPED_PUBLISHABLE, "publishable", null, 1, null);
            SeededKeys.merchant(SCOPED_MERCHANT, ACCOUNT, "scoped-shop");
            SeededKeys.merchant(TILL, ACCOUNT, "till-7");
            SeededKeys.merchant(FOREIGN_MERCHANT, OTHER_ACCOUNT, "foreign-shop");
        });
    }

    private static void store(String key, String type, String role, int status, UUID merchant) {
        StoredKey stored = new StoredKey();
        stored.keyHash = KeyHash.of(key);
        stored.keyId = UUID.randomUUID();
        stored.accountId = ACCOUNT;
        stored.keyType = type;
        stored.role = role;
        stored.merchantUUID = merchant;
        stored.status = status;
        stored.version = 1;
        stored.updatedAt = OffsetDateTime.now();
        stored.persist();
    }

    @ParameterizedTest(name = "{0} {1} with {2} -> {3}")
    @CsvSource({
            // public lookups: no key needed
            "GET, /assets, none, 503",
            // API-key routes
            "GET, /accounts/{a}/keys, none, 401",
            "GET, /accounts/{a}/keys, unknown, 401",
            "GET, /accounts/{a}/keys, revoked, 401",
            "GET, /accounts/{a}/keys, publishable, 401",
            "GET, /accounts/{a}/keys, admin, 503",
            "GET, /accounts/{a}/keys, read_only, 503",
            "POST, /accounts/{a}/keys, read_only, 403",
            "DELETE, /accounts/{a}/keys/k1, read_only, 403",
            "POST, /accounts/{a}/keys, admin, 503",
            // publishable routes
            "GET, /merchant/config, none, 401",
            "GET, /merchant/config, admin, 401",
            "GET, /merchant/config, publishable, 503",
            "GET, /merchant/config, publishable_sub, 503",
            "GET, /merchant/config, publishable_sub_by_uuid, 503",
            "GET, /merchant/config, publishable_unknown_sub, 401",
            "GET, /merchant/config, scoped_publishable_other_sub, 403",
            // API key + X-MID (UUID or externalMID of a merchant of the key's account)
            "PATCH, /transaction/t1/cancel, admin, 400",
            "PATCH, /transaction/t1/cancel, admin_mid, 503",
            "PATCH, /transaction/t1/cancel, admin_mid_uuid, 503",
            "PATCH, /transaction/t1/cancel, admin_other_account_mid, 403",
            "PATCH, /transaction/t1/cancel, admin_unknown_mid, 403",
            "PATCH, /transaction/t1/cancel, publishable, 401",
            "GET, /transaction/t1, publishable, 503",
            "GET, /transaction/t1, admin_mid, 503",
            "GET, /transaction/t1, publishable_sub, 503",
            "GET, /transaction/t1, admin, 400",
            // API key + X-Account-Id
            "GET, /transactions, admin, 400",
            "GET, /transactions, admin_account, 503",
            "GET, /transactions, admin_other_account, 403",
            // operator
            "POST, /operator/accounts, none, 401",
            "POST, /operator/accounts, admin, 401",
            "POST, /operator/accounts, internal_token, 401",
            "POST, /operator/accounts, operator, 503",
            "POST, /operator/accounts, operator_without_group, 403",
            "POST, /operator/accounts, operator_without_audience, 401",
            "POST, /operator/accounts, operator_other_audience, 401",
            "POST, /operator/accounts, operator_two_hours, 401",
    })
    void decidesAuthenticationPerRoute(String method, String template, String credentials, int status) {
        String path = template.replace("{a}", ACCOUNT.toString());
        given().spec(with(credentials)).body("{}").contentType("application/json")
                .when().request(method, path)
                .then().statusCode(status)
                .contentType("application/problem+json")
                .header("X-Request-Id", notNullValue());
    }

    private static RequestSpecification with(String credentials) {
        RequestSpecification spec = given();
        return switch (credentials) {
            case "none" -> spec;
            case "unknown" -> spec.header("X-Api-Key", "ak_unknown");
            case "revoked" -> spec.header("X-Api-Key", REVOKED);
            case "admin" -> spec.header("X-API-Key", ADMIN);
            case "read_only" -> spec.header("X-Api-Key", READ_ONLY);
            case "publishable" -> spec.header("X-Publishable-Key", PUBLISHABLE);
            case "publishable_sub" -> spec.header("X-Publishable-Key", UNSCOPED_PUBLISHABLE + ":till-7");
            case "publishable_sub_by_uuid" -> spec.header("X-Publishable-Key", UNSCOPED_PUBLISHABLE + ":" + TILL);
            case "publishable_unknown_sub" -> spec.header("X-Publishable-Key", UNSCOPED_PUBLISHABLE + ":nope");
            case "scoped_publishable_other_sub" -> spec.header("X-Publishable-Key", PUBLISHABLE + ":till-7");
            case "admin_mid" -> spec.header("X-Api-Key", ADMIN).header("X-MID", "till-7");
            case "admin_mid_uuid" -> spec.header("X-Api-Key", ADMIN).header("X-MID", TILL.toString());
            case "admin_other_account_mid" -> spec.header("X-Api-Key", ADMIN).header("X-MID", FOREIGN_MERCHANT.toString());
            case "admin_unknown_mid" -> spec.header("X-Api-Key", ADMIN).header("X-MID", "ghost");
            case "admin_account" -> spec.header("X-Api-Key", ADMIN).header("X-Account-Id", ACCOUNT.toString());
            case "admin_other_account" -> spec.header("X-Api-Key", ADMIN)
                    .header("X-Account-Id", OTHER_ACCOUNT.toString());
            case "internal_token" -> spec.auth().oauth2(TestTokens.admin(ACCOUNT));
            case "operator" -> spec.auth().oauth2(operatorToken("operator"));
            case "operator_without_group" -> spec.auth().oauth2(operatorToken("viewer"));
            case "operator_without_audience" -> spec.auth().oauth2(operatorToken(null, 300));
            case "operator_other_audience" -> spec.auth().oauth2(operatorToken("cryptopay-services", 300));
            case "operator_two_hours" -> spec.auth().oauth2(operatorToken("cryptopay-operator-api", 7200));
            default -> throw new IllegalArgumentException(credentials);
        };
    }

    private static String operatorToken(String group) {
        String key = TestTokens.key().replace("local-dev-internal-private", "local-dev-operator-private");
        return Jwt.issuer("https://operator.payments.local").audience("cryptopay-operator-api").subject("test-operator")
                .groups(group).expiresIn(300).sign(key);
    }

    /** An operator token with the operator group, {@code audience} (none when null) and {@code lifetime} seconds. */
    private static String operatorToken(String audience, long lifetime) {
        String key = TestTokens.key().replace("local-dev-internal-private", "local-dev-operator-private");
        var claims = Jwt.issuer("https://operator.payments.local").subject("test-operator").groups("operator")
                .expiresIn(lifetime);
        return (audience == null ? claims : claims.audience(audience)).sign(key);
    }
}

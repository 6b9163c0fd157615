package dev.cryptopay.support.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.smallrye.config.common.MapBackedConfigSource;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The limits of one account: its own overrides where the operator set them, the platform defaults elsewhere. */
class AccountLimitsTest {

    private static final UUID BIG = UUID.fromString("3f0c2a52-7d8e-4b1e-9d55-0c6f1e0a9b10");
    private static final UUID OTHER = UUID.fromString("11111111-2222-3333-4444-555555555555");

    private static AccountLimits limits(Map<String, String> properties) {
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .withMapping(AccountLimitsConfig.class)
                .withSources(new MapBackedConfigSource("test", properties) {
                })
                .build();
        return new AccountLimits(config.getConfigMapping(AccountLimitsConfig.class));
    }

    @Test
    void documentedDefaultsWithoutConfiguration() {
        assertEquals(new AccountLimits.Limits(100, 100, 10_000), limits(Map.of()).forAccount(OTHER));
    }

    @Test
    void anOverrideReplacesOnlyWhatItNames() {
        AccountLimits limits = limits(Map.of(
                "cryptopay.limits.webhooks", "20",
                "cryptopay.limits.accounts.\"" + BIG + "\".api-keys", "500",
                "cryptopay.limits.accounts.\"" + BIG + "\".open-transactions-per-merchant", "250000"));
        assertEquals(new AccountLimits.Limits(500, 20, 250_000), limits.forAccount(BIG));
        assertEquals(new AccountLimits.Limits(100, 20, 10_000), limits.forAccount(OTHER));
        assertEquals(new AccountLimits.Limits(100, 20, 10_000), limits.forAccount(null));
    }

    @Test
    void requestRatesHaveDefaultsAndPerAccountOverrides() {
        AccountLimits limits = limits(Map.of(
                "cryptopay.limits.request-burst", "50",
                "cryptopay.limits.accounts.\"" + BIG + "\".requests-per-second", "1000"));
        assertEquals(new AccountLimits.Rate(1000, 50), limits.rateForAccount(BIG));
        assertEquals(new AccountLimits.Rate(200, 50), limits.rateForAccount(OTHER));
        assertEquals(new AccountLimits.Rate(200, 400), limits(Map.of()).rateForAccount(null));
    }

    @Test
    void theTimeToMakeSoManyRequestsCountsEveryGatewayReplica() {
        // Defaults: 6 replicas, each lets through a burst of 400 and then 200 a second.
        assertEquals(2.5, limits(Map.of()).secondsToMake(OTHER, 6 * (400 + 500)));
        AccountLimits limits = limits(Map.of(
                "cryptopay.limits.gateway-replicas", "2",
                "cryptopay.limits.accounts.\"" + BIG + "\".requests-per-second", "1000",
                "cryptopay.limits.accounts.\"" + BIG + "\".request-burst", "3000"));
        assertEquals(10.0, limits.secondsToMake(BIG, 2 * (3000 + 10_000)));
        assertEquals(0.0, limits.secondsToMake(OTHER, 800), "the two replicas' bursts alone make 800 at once");
        assertEquals(0.0, limits.secondsToMake(OTHER, 5));
        AccountLimits stopped = limits(Map.of("cryptopay.limits.requests-per-second", "0",
                "cryptopay.limits.request-burst", "0", "cryptopay.limits.gateway-replicas", "0"));
        assertEquals(10.0, stopped.secondsToMake(OTHER, 10), "a rate of 0 counts as the gateway's least, 1 a second");
    }

    @Test
    void anUpperCaseAccountIdInConfigurationIsNotLost() {
        // Operators paste UUIDs as they come; lookups use the lower-case form, so the configuration must too.
        AccountLimits limits = limits(Map.of(
                "cryptopay.limits.accounts.\"" + BIG.toString().toUpperCase() + "\".api-keys", "7"));
        assertEquals(7, limits.forAccount(BIG).apiKeys());
    }
}

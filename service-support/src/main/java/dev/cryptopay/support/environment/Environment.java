package dev.cryptopay.support.environment;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Which deployment this is (docs/decisions.md §17; the sandbox itself is §9): the one switch between the sandbox
 * (simulated chain, default test extended public keys, test networks, operator clock and rate controls) and
 * production (real networks only, strict webhook address policy, development keys refused).
 *
 * <p>Read from {@code cryptopay.environment} ({@code CRYPTOPAY_ENVIRONMENT}) once, by {@link EnvironmentConfig}; inject
 * this enum wherever behaviour differs. Only the exact names {@code sandbox} and {@code production} are accepted: a
 * missing or misspelt value stops the service at start-up instead of silently running as either.
 */
public enum Environment {
    SANDBOX("sandbox"),
    PRODUCTION("production");

    private final String wireName;

    Environment(String wireName) {
        this.wireName = wireName;
    }

    /** The value as configured and as shown to clients: {@code sandbox} or {@code production}. */
    public String wireName() {
        return wireName;
    }

    public boolean isSandbox() {
        return this == SANDBOX;
    }

    public boolean isProduction() {
        return this == PRODUCTION;
    }

    /**
     * The environment a configured value names, exactly {@code sandbox} or {@code production} (surrounding blanks
     * ignored). Anything else, {@code prod}, {@code Sandbox} or an empty value included, is refused with a message
     * that names the setting and the accepted values.
     */
    public static Environment parse(String value) {
        String trimmed = value == null ? "" : value.strip();
        for (Environment environment : values()) {
            if (environment.wireName.equals(trimmed)) {
                return environment;
            }
        }
        throw new IllegalArgumentException("cryptopay.environment (CRYPTOPAY_ENVIRONMENT) is "
                + (trimmed.isEmpty() ? "not set" : "'" + trimmed + "'") + "; it must be exactly one of "
                + Arrays.stream(values()).map(Environment::wireName).collect(Collectors.joining(" or "))
                + " (docs/decisions.md §17). The service does not start without it.");
    }

    @Override
    public String toString() {
        return wireName.toUpperCase(Locale.ROOT);
    }
}

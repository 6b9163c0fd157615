package dev.cryptopay.support.lifecycle;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** What a service's stop waits for (docs/decisions.md §119). */
@ConfigMapping(prefix = "cryptopay.stop")
public interface StopConfig {

    /**
     * How long the stop waits for the Kafka consumers' batches in hand before the datasources close. A batch is one
     * database transaction of at most a few thousand events, well under a second on a working database; one that takes
     * longer is left uncommitted and read again by the next start. Quarkus' wait for HTTP requests in flight
     * ({@code quarkus.shutdown.timeout}) comes before it, so a deployment's grace period must cover both
     * ({@code terminationGracePeriodSeconds} in deploy/k8s).
     */
    @WithDefault("5s")
    Duration batchWait();
}

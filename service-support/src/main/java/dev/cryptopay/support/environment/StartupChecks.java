package dev.cryptopay.support.environment;

import jakarta.interceptor.Interceptor;

/**
 * When the checks that may refuse a start run: {@code @Startup(StartupChecks.PRIORITY)} on a bean whose creation
 * checks the environment or a key. SmallRye Reactive Messaging connects the Kafka channels at start-up with priority
 * {@code LIBRARY_BEFORE} (1000); a check at the default priority (2500) ran after it, so a refused service had already
 * joined its consumer groups, which rebalanced the running replicas' consumers, and it then spent 3 s closing each
 * consumer before it exited (8-11 s for a service with three). Run before messaging, a refused start touches no
 * consumer group and exits within a second or two of reading its configuration.
 */
public final class StartupChecks {

    /** Just before SmallRye Reactive Messaging's start-up observer. */
    public static final int PRIORITY = Interceptor.Priority.LIBRARY_BEFORE - 1;

    private StartupChecks() {
    }
}

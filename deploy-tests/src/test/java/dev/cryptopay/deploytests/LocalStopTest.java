package dev.cryptopay.deploytests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * deploy/local/lib.sh's {@code stop_pidfile} on a service that records its AOT cache (docs/decisions.md §88): stopped
 * within 45 s of its start it warns that the cache will hold only that short run; a service that reads its cache
 * stops without the warning. The service is a {@code sleep} named like a recording JVM.
 */
class LocalStopTest {

    @TempDir
    Path dir;

    @Test
    void aRecordingRunStoppedRightAfterItsStartIsToldItsCacheIsThin() {
        Repo.Result stop = stop("-XX:AOTCacheOutput=/nowhere/transaction-0.aot");
        assertEquals(0, stop.exitCode(), stop.stderr());
        assertTrue(stop.stdout().contains("it writes its AOT cache first"), stop.stdout());
        assertTrue(stop.stderr().contains("its AOT cache records a run of only"), stop.stderr());
        assertTrue(stop.stderr().contains("/.local/cds/transaction-*.aot"), stop.stderr());
        assertTrue(stop.stdout().contains("transaction-service: stopped"), stop.stdout());
    }

    @Test
    void aRunThatReadsItsCacheStopsWithoutTheWarning() {
        Repo.Result stop = stop("-XX:AOTCache=/nowhere/transaction-0.aot");
        assertEquals(0, stop.exitCode(), stop.stderr());
        assertFalse(stop.stderr().contains("AOT cache"), stop.stderr());
        assertTrue(stop.stdout().contains("transaction-service: stopped"), stop.stdout());
    }

    /** Starts a stand-in whose command line carries {@code option}, writes its pid files, and stops it. */
    private Repo.Result stop(String option) {
        String marker = "stand-in-" + UUID.randomUUID();
        Path pidfile = dir.resolve("transaction.pid");
        String script = """
                . deploy/local/lib.sh
                bash -c 'exec -a "%s %s" sleep 60' &
                pid=$!
                sleep 0.3
                echo "$pid" > '%s'
                _cmdline_of "$pid" > '%s.cmd'
                stop_pidfile '%s' transaction-service
                if kill -0 "$pid" 2>/dev/null; then echo "still running" >&2; exit 1; fi
                """.formatted(marker, option, pidfile, pidfile, pidfile);
        return Repo.run(Repo.command("bash", "-c", script));
    }
}

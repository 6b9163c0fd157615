package dev.cryptopay.transaction.screening;

import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.transaction.config.TransactionServiceConfig;
import dev.cryptopay.transaction.screening.ScreeningLists.EntryIn;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Loads {@code SCREENING_LIST_FILE} when the service starts (docs/transactions.md "Compliance"): a CSV file with the
 * header {@code list,network,address,category,exchangeName,source}, one entry a line ({@code #} starts a comment);
 * every list the file names is replaced by the file's entries. A file that cannot be read or holds an invalid entry
 * stops the start: a platform must not run believing it screens against a list it never loaded.
 */
@ApplicationScoped
public class ScreeningListFile {

    private static final Logger LOG = Logger.getLogger(ScreeningListFile.class);
    static final String HEADER = "list,network,address,category,exchangeName,source";

    private final ScreeningLists lists;
    private final TransactionServiceConfig config;

    public ScreeningListFile(ScreeningLists lists, TransactionServiceConfig config) {
        this.lists = lists;
        this.config = config;
    }

    void onStart(@Observes StartupEvent event) {
        config.screening().listFile().filter(f -> !f.isBlank()).ifPresent(this::load);
    }

    void load(String file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(Path.of(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("SCREENING_LIST_FILE " + file + " cannot be read", e);
        }
        Map<String, List<EntryIn>> byList = parse(lines);
        byList.forEach((list, entries) -> {
            try {
                lists.replace(list, entries);
            } catch (ApiException e) {
                throw new IllegalStateException("SCREENING_LIST_FILE " + file + ", list " + list + ": "
                        + e.getMessage(), e);
            }
            LOG.infof("Screening list %s loaded from %s: %d entries", list, file, entries.size());
        });
    }

    static Map<String, List<EntryIn>> parse(List<String> lines) {
        Map<String, List<EntryIn>> byList = new LinkedHashMap<>();
        boolean header = true;
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (header) {
                header = false;
                if (!line.replace(" ", "").equalsIgnoreCase(HEADER)) {
                    throw new IllegalStateException("The screening list file must start with the header " + HEADER);
                }
                continue;
            }
            String[] cells = line.split(",", -1);
            if (cells.length != 6) {
                throw new IllegalStateException("Screening list file line " + (n + 1) + ": 6 columns expected ("
                        + HEADER + ")");
            }
            byList.computeIfAbsent(cells[0].strip(), k -> new ArrayList<>()).add(new EntryIn(cells[1].strip(),
                    cells[2].strip(), cells[3].strip(), blankToNull(cells[4]), cells[5].strip()));
        }
        return byList;
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}

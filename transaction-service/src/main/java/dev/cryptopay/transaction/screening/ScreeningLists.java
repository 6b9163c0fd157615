package dev.cryptopay.transaction.screening;

import dev.cryptopay.support.catalogue.Catalogue;
import dev.cryptopay.support.jdbc.ConsistentReads;
import dev.cryptopay.support.paging.PageMetadata;
import dev.cryptopay.support.paging.PageRequest;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.validation.Validation;
import dev.cryptopay.transaction.domain.Clock;
import dev.cryptopay.transaction.screening.ScreeningResult.Category;
import io.quarkus.panache.common.Page;
import io.quarkus.panache.common.Sort;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The operator's screening lists and the provider's service switch (docs/decisions.md §60, §61). Lists are named
 * ({@code ofac-sdn}, {@code exchanges}, …); replacing one leaves the others. Lookups: an entry matches an address on
 * its network, or on every network when its network is {@code *}; EVM addresses compare without case (an EIP-55
 * checksum is a spelling), every other address exactly. Several matches: the worst category wins.
 */
@ApplicationScoped
public class ScreeningLists implements ScreeningProvider {

    private static final Pattern EVM_ADDRESS = Pattern.compile("0x[0-9a-fA-F]{40}");
    public static final String ALL_NETWORKS = "*";
    /** Most entries one call may send. */
    public static final int MAX_ENTRIES = 10_000;

    private final ConsistentReads consistentReads;

    public ScreeningLists(ConsistentReads consistentReads) {
        this.consistentReads = consistentReads;
    }

    /** One entry as the operator sends it (and as the list file holds it). */
    public record EntryIn(String network, String address, String category, String exchangeName, String source) {
    }

    public record EntryOut(String entryID, String list, String network, String address, String category,
            String exchangeName, String source, String createdAt) {
    }

    public record Listing(List<EntryOut> entries, PageMetadata metadata) {
    }

    public record Status(boolean available, String reason, String updatedAt) {
    }

    @Override
    @Transactional(Transactional.TxType.REQUIRED)
    public ScreeningResult screen(String network, String address) throws ScreeningUnavailableException {
        ScreeningStatus status = ScreeningStatus.findById(ScreeningStatus.ROW);
        if (status != null && !status.available) {
            throw new ScreeningUnavailableException("The screening provider is out of service"
                    + (status.reason == null ? "" : ": " + status.reason));
        }
        if (address == null || address.isBlank()) {
            return ScreeningResult.clear();
        }
        List<ScreeningEntry> matches = ScreeningEntry.list("addressKey = ?1 and (network = ?2 or network = ?3)",
                addressKey(network, address.strip()), network, ALL_NETWORKS);
        return matches.stream()
                .min(Comparator.comparing((ScreeningEntry e) -> Category.ofWire(e.category)).thenComparing(e -> e.id))
                .map(e -> new ScreeningResult(Category.ofWire(e.category), e.listName + ":" + e.source,
                        e.exchangeName))
                .orElse(ScreeningResult.clear());
    }

    /** Replaces every entry of {@code list} with {@code entries}; answers how many the list now has. */
    @Transactional
    public long replace(String list, List<EntryIn> entries) {
        List<ScreeningEntry> rows = validate(list, entries);
        ScreeningEntry.delete("listName", list);
        rows.forEach(r -> r.persist());
        return rows.size();
    }

    /** Adds {@code entries} to {@code list} (an address already on the list under the same category stays once). */
    @Transactional
    public long add(String list, List<EntryIn> entries) {
        for (ScreeningEntry row : validate(list, entries)) {
            long existing = ScreeningEntry.count("listName = ?1 and network = ?2 and addressKey = ?3 and category = ?4",
                    list, row.network, row.addressKey, row.category);
            if (existing == 0) {
                row.persist();
            }
        }
        return ScreeningEntry.count("listName", list);
    }

    @Transactional
    public Listing list(PageRequest page, String list, String address) {
        consistentReads.begin(); // the total and the page of one version of a list replaced whole
        StringBuilder query = new StringBuilder("1 = 1");
        Map<String, Object> params = new LinkedHashMap<>();
        if (list != null && !list.isBlank()) {
            query.append(" and listName = :list");
            params.put("list", list.strip());
        }
        if (address != null && !address.isBlank()) {
            query.append(" and (addressKey = :exact or addressKey = :lower)");
            params.put("exact", address.strip());
            params.put("lower", address.strip().toLowerCase(Locale.ROOT));
        }
        var found = ScreeningEntry.<ScreeningEntry>find(query.toString(),
                Sort.by("listName").and("addressKey").and("id"), params);
        long total = found.count();
        List<EntryOut> entries = found.page(Page.of(page.index(), page.limit())).list().stream()
                .map(ScreeningLists::view).toList();
        return new Listing(entries, page.metadata(total, entries.size()));
    }

    @Transactional
    public Status status() {
        ScreeningStatus status = ScreeningStatus.findById(ScreeningStatus.ROW);
        return new Status(status.available, status.reason, status.updatedAt.toInstant().toString());
    }

    /** The operator's switch: {@code available} false takes the provider out of service (vendor-status). */
    @Transactional
    public Status setStatus(boolean available, String reason) {
        ScreeningStatus status = ScreeningStatus.findById(ScreeningStatus.ROW);
        status.available = available;
        status.reason = available ? null : reason;
        status.updatedAt = Clock.now();
        return status();
    }

    /** EVM-shaped addresses (0x and 40 hex digits) or any address of an EVM network: lower-cased; else as is. */
    public static String addressKey(String network, String address) {
        boolean evm = EVM_ADDRESS.matcher(address).matches() || Catalogue.get().network(network)
                .map(n -> "evm".equals(n.family())).orElse(false);
        return evm ? address.toLowerCase(Locale.ROOT) : address;
    }

    private static List<ScreeningEntry> validate(String list, List<EntryIn> entries) {
        Validation v = new Validation();
        if (list == null || !list.matches("[a-z0-9][a-z0-9._-]{0,63}")) {
            throw ApiException.validation("list", "must be 1–64 characters of a–z, 0–9, '.', '_' or '-'");
        }
        if (entries == null) {
            throw ApiException.validation("entries", "is required: an array of {network, address, category, "
                    + "exchangeName, source}");
        }
        if (entries.size() > MAX_ENTRIES) {
            throw ApiException.validation("entries", "at most " + MAX_ENTRIES + " entries per call");
        }
        OffsetDateTime now = Clock.now();
        List<ScreeningEntry> rows = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            EntryIn in = entries.get(i);
            String at = "entries[" + i + "].";
            if (in == null) {
                v.add("entries[" + i + "]", "must be an object");
                continue;
            }
            v.requiredText(at + "network", in.network()).requiredText(at + "address", in.address())
                    .requiredText(at + "category", in.category()).requiredText(at + "source", in.source())
                    .text(at + "address", in.address(), 128).text(at + "exchangeName", in.exchangeName(),
                            Validation.MAX_STRING)
                    .text(at + "source", in.source(), Validation.MAX_STRING);
            if (in.network() != null && !ALL_NETWORKS.equals(in.network())
                    && Catalogue.get().network(in.network()).isEmpty()) {
                v.add(at + "network", "must be a network of GET /assets, or * for every network");
            }
            Category category = Category.ofWire(in.category());
            if (in.category() != null && (category == null || category == Category.CLEAR)) {
                v.add(at + "category", "must be one of sanctioned, fraud, high-risk, custodial-exchange");
            }
            if (category == Category.CUSTODIAL_EXCHANGE && (in.exchangeName() == null || in.exchangeName().isBlank())) {
                v.add(at + "exchangeName", "is required for a custodial-exchange entry");
            }
            if (in.network() == null || in.address() == null || in.address().isBlank() || category == null
                    || category == Category.CLEAR || in.source() == null
                    || category == Category.CUSTODIAL_EXCHANGE && (in.exchangeName() == null
                            || in.exchangeName().isBlank())) {
                continue;
            }
            ScreeningEntry row = new ScreeningEntry();
            row.id = UUID.randomUUID();
            row.listName = list;
            row.network = in.network().strip();
            row.address = in.address().strip();
            row.addressKey = addressKey(row.network, row.address);
            row.category = category.wire();
            row.exchangeName = category == Category.CUSTODIAL_EXCHANGE ? in.exchangeName().strip() : null;
            row.source = in.source().strip();
            row.createdAt = now;
            rows.add(row);
        }
        v.throwIfInvalid();
        return rows;
    }

    private static EntryOut view(ScreeningEntry e) {
        return new EntryOut(e.id.toString(), e.listName, e.network, e.address, e.category, e.exchangeName, e.source,
                e.createdAt.toInstant().toString());
    }
}

package dev.cryptopay.transaction.screening;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cryptopay.support.catalogue.Catalogue;
import dev.cryptopay.transaction.screening.ScreeningLists.EntryIn;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The list file format of docs/transactions.md "Compliance", and the committed example in deploy/local. */
class ScreeningListFileTest {

    @Test
    void theExampleFileParsesIntoValidEntriesByList() throws Exception {
        Map<String, List<EntryIn>> lists = ScreeningListFile.parse(
                Files.readAllLines(Path.of("../deploy/local/screening-list.example.csv")));
        assertEquals(List.of("ofac-sdn", "exchanges", "fraud-cases"), List.copyOf(lists.keySet()));
        assertEquals(2, lists.get("ofac-sdn").size());
        EntryIn exchange = lists.get("exchanges").get(0);
        assertEquals("custodial-exchange", exchange.category());
        assertEquals("Example Exchange", exchange.exchangeName());
        assertNull(lists.get("ofac-sdn").get(0).exchangeName(), "an empty cell is no exchange");
        for (List<EntryIn> entries : lists.values()) {
            for (EntryIn e : entries) {
                assertNotNull(ScreeningResult.Category.ofWire(e.category()), e.toString());
                if (!"*".equals(e.network())) {
                    assertNotNull(Catalogue.get().network(e.network()).orElse(null), e.toString());
                }
            }
        }
    }

    @Test
    void aFileWithoutTheHeaderOrWithMissingColumnsIsRefused() {
        assertThrows(IllegalStateException.class, () -> ScreeningListFile.parse(List.of("a,b,c")));
        assertThrows(IllegalStateException.class, () -> ScreeningListFile.parse(List.of(ScreeningListFile.HEADER,
                "ofac-sdn,bitcoin,tb1qxyz,sanctioned")));
    }

    @Test
    void evmAddressesAreKeyedWithoutCaseAndOthersAsWritten() {
        assertEquals("0xabcdef0000000000000000000000000000000001",
                ScreeningLists.addressKey("*", "0xABCDEF0000000000000000000000000000000001"));
        assertEquals("0xabcdef0000000000000000000000000000000001",
                ScreeningLists.addressKey("ethereum", "0xAbCdEf0000000000000000000000000000000001"));
        assertEquals("mzBc4XEFSdzCDcTxAgf6EZXgsZWpztRhef",
                ScreeningLists.addressKey("bitcoin", "mzBc4XEFSdzCDcTxAgf6EZXgsZWpztRhef"));
    }
}

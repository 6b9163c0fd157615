package dev.cryptopay.support.paging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cryptopay.support.problem.ApiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PageRequestTest {

    @Test
    void defaultsToTheFirstPageOfTwenty() {
        assertEquals(new PageRequest(1, 20), PageRequest.of(null, null));
        assertEquals(new PageRequest(1, 20), PageRequest.of("", " "));
    }

    @Test
    void clampsLargeLimitsAndReportsTheUsedSize() {
        PageRequest request = PageRequest.of("1000", "3");
        assertEquals(100, request.limit());
        assertEquals(200, request.offset());
        assertEquals(new PageMetadata(250, 50, 3, 100), request.metadata(250, 50));
    }

    @ParameterizedTest
    @CsvSource({ "0, 1, limit", "-5, 1, limit", "abc, 1, limit", "10, 0, page", "10, x, page", "1.5, 1, limit" })
    void refusesValuesBelowOneOrNotWhole(String limit, String page, String field) {
        ApiException e = assertThrows(ApiException.class, () -> PageRequest.of(limit, page));
        assertEquals(400, e.status());
        assertEquals(field, e.errors().get(0).field());
    }

    @Test
    void aPageBeyondTenMillionItemsIsRefusedNotOverflowed() {
        ApiException e = assertThrows(ApiException.class, () -> PageRequest.of("100", "2147483647"));
        assertEquals(400, e.status());
        assertEquals("page", e.errors().get(0).field());
        assertThrows(ApiException.class, () -> PageRequest.of("100", "100002"));
        // the last page that may still start: (100001 − 1) × 100 = 10,000,000
        assertEquals(10_000_000L, PageRequest.of("100", "100001").offset());
    }
}

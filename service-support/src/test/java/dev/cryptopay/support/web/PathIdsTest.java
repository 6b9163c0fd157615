package dev.cryptopay.support.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cryptopay.support.problem.ApiException;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class PathIdsTest {

    @Test
    void readsAUuid() {
        UUID id = UUID.randomUUID();
        assertEquals(id, PathIds.uuid(id.toString(), "Merchant"));
    }

    @Test
    void anythingElseIsANotFoundNamingWhatWasAskedFor() {
        ApiException e = assertThrows(ApiException.class, () -> PathIds.uuid("not-a-uuid", "Merchant"));
        assertEquals(404, e.status());
        assertEquals("not_found", e.code());
        assertEquals("Merchant not-a-uuid was not found.", e.getMessage());
        assertEquals(404, assertThrows(ApiException.class, () -> PathIds.uuid(null, "Key")).status());
    }
}

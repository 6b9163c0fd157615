package dev.cryptopay.support.web;

import dev.cryptopay.support.problem.ApiException;
import java.util.UUID;

/**
 * Path identifiers: one that is not a UUID cannot name anything, so it is a 404 like any unknown id
 * (never a 400: the caller cannot learn more from a malformed id than from an unknown one).
 */
public final class PathIds {

    private PathIds() {
    }

    /**
     * @param value the path segment as received
     * @param what  what the segment names ("Account", "Merchant", …), used in the 404's detail
     * @return the UUID it spells
     * @throws ApiException 404 when {@code value} is not a UUID
     */
    public static UUID uuid(String value, String what) {
        if (value == null) {
            throw ApiException.notFound(what + " null");
        }
        try {
            return UUID.fromString(value);
        } catch (IllegalArgumentException e) {
            throw ApiException.notFound(what + " " + value);
        }
    }
}

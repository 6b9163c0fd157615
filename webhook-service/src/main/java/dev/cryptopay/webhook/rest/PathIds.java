package dev.cryptopay.webhook.rest;

import dev.cryptopay.support.problem.ApiException;
import java.util.UUID;

/** Path identifiers: one that is not a UUID cannot name anything, so it is a 404 like any unknown id. */
final class PathIds {

    private PathIds() {
    }

    static UUID uuid(String value, String what) {
        try {
            return UUID.fromString(value);
        } catch (IllegalArgumentException e) {
            throw ApiException.notFound(what + " " + value);
        }
    }
}

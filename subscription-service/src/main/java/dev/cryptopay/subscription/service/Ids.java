package dev.cryptopay.subscription.service;

import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.validation.Validation;
import dev.cryptopay.support.web.PathIds;
import java.util.UUID;

/** Identifiers in paths (not a UUID: cannot name anything, so 404) and in bodies or queries (not a UUID: 400). */
public final class Ids {

    private Ids() {
    }

    public static UUID path(String value, String what) {
        return PathIds.uuid(value, what);
    }

    /** Parses an optional UUID field; a malformed one is added to {@code validation} and answers null. */
    public static UUID field(Validation validation, String field, String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return UUID.fromString(value.strip());
        } catch (IllegalArgumentException e) {
            validation.add(field, "must be a UUID");
            return null;
        }
    }

    /**
     * An {@code accountId} given in a body or query must be the key's own account (docs/decisions.md §1: 403 otherwise).
     */
    public static void ownAccount(UUID own, String given) {
        if (given != null && !given.isBlank() && !given.strip().equalsIgnoreCase(own.toString())) {
            throw ApiException.forbidden("accountId is not the account of this key.");
        }
    }
}

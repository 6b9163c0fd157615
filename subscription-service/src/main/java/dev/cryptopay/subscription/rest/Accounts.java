package dev.cryptopay.subscription.rest;

import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.security.Caller;
import java.util.UUID;

/** The caller's account: every record of this service belongs to exactly one. */
final class Accounts {

    private Accounts() {
    }

    static UUID own(Caller caller) {
        return caller.accountId().orElseThrow(() -> ApiException.forbidden("This endpoint needs an account's API key."));
    }
}

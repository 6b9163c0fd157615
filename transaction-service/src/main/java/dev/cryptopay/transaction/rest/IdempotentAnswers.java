package dev.cryptopay.transaction.rest;

import dev.cryptopay.transaction.service.IdempotentCreations;
import jakarta.ws.rs.core.Response;

/** The 201 of a creation that honours Idempotency-Key in this service as well (docs/decisions.md §112). */
final class IdempotentAnswers {

    private IdempotentAnswers() {
    }

    /** 201 with the answer; a first request's answer given again says so, as the gateway's replays do. */
    static Response created(IdempotentCreations.Once<?> once) {
        Response.ResponseBuilder answer = Response.status(Response.Status.CREATED).entity(once.answer());
        return once.replayed() ? answer.header("Idempotent-Replayed", "true").build() : answer.build();
    }
}

package dev.cryptopay.transaction.rest;

import dev.cryptopay.support.security.IdentityClaims;
import dev.cryptopay.support.validation.Validation;
import dev.cryptopay.transaction.service.RefundService;
import dev.cryptopay.transaction.view.TransactionView;
import dev.cryptopay.transaction.view.TransactionViews;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/**
 * {@code PATCH /operator/refunds/{refundID}} (operator token): for networks paid out by hand, the operator records
 * a leg's payout: {@code {"status": 2, "txnHash": "…"}} (broadcast), {@code {"status": 1}} (completed) or
 * {@code {"status": -1, "reason": "…"}} (failed). Answers the refund leg.
 */
@Path("/operator/refunds/{refundID}")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(IdentityClaims.ROLE_OPERATOR)
public class OperatorRefundsResource {

    public record RefundMove(Integer status, String txnHash, String reason) {
    }

    private final RefundService refunds;

    public OperatorRefundsResource(RefundService refunds) {
        this.refunds = refunds;
    }

    @PATCH
    @Consumes(MediaType.APPLICATION_JSON)
    public TransactionView.RefundView move(@PathParam("refundID") String refundId, RefundMove body) {
        RefundMove move = body == null ? new RefundMove(null, null, null) : body;
        Validation v = new Validation()
                .required("status", move.status())
                .oneOf("status", move.status() == null ? null : move.status().toString(), List.of("2", "1", "-1"))
                .text("txnHash", move.txnHash(), Validation.MAX_STRING)
                .text("reason", move.reason(), Validation.MAX_STRING);
        if (move.status() != null && move.status() == 2) {
            v.requiredText("txnHash", move.txnHash());
        }
        if (move.status() != null && move.status() == -1) {
            v.requiredText("reason", move.reason());
        }
        v.throwIfInvalid();
        return TransactionViews.refund(refunds.operatorMove(refundId, move.status(), move.txnHash(), move.reason()));
    }
}

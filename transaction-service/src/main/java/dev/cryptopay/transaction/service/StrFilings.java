package dev.cryptopay.transaction.service;

import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.transaction.domain.Clock;
import dev.cryptopay.transaction.domain.ResolutionLog;
import dev.cryptopay.transaction.domain.Transaction;
import dev.cryptopay.transaction.view.TransactionViews;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;
import java.util.UUID;

/**
 * Suspicious-transaction report filings (docs/decisions.md §67): an operator records the reference the financial
 * intelligence unit gave the report, once. The same reference again is an idempotent repeat; another one is 409. The
 * filing appends a resolution-log entry and writes no event of its own (the event types are fixed, §7): the
 * reference travels on the transaction's next event, which carries the whole transaction.
 */
@ApplicationScoped
public class StrFilings {

    /** The transaction after the filing, and whether this call recorded it (false: an idempotent repeat). */
    public record Filed(Transaction transaction, boolean recorded) {
    }

    @Transactional
    public Filed file(String transactionId, String reference, String operatorSubject) {
        UUID id;
        try {
            id = UUID.fromString(transactionId);
        } catch (IllegalArgumentException e) {
            throw ApiException.notFound("Transaction " + transactionId);
        }
        Transaction tx = Transaction.<Transaction>findByIdOptional(id, LockModeType.PESSIMISTIC_WRITE)
                .orElseThrow(() -> ApiException.notFound("Transaction " + transactionId));
        if (tx.strFilingReference != null) {
            if (tx.strFilingReference.equals(reference)) {
                return new Filed(tx, false);
            }
            throw ApiException.conflict("str_already_filed", "A suspicious-transaction report was already filed for "
                    + "this transaction under another reference.");
        }
        String now = TransactionViews.time(Clock.now());
        tx.strFilingReference = reference;
        tx.logResolution(new ResolutionLog(now, ResolutionLog.Trigger.STR, "strFiling", null,
                ResolutionLog.Outcome.FILED, ResolutionLog.operator(operatorSubject), "STR filed: " + reference));
        return new Filed(tx, true);
    }
}

package dev.cryptopay.transaction.service;

import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.transaction.domain.MerchantView;
import dev.cryptopay.transaction.domain.Transaction;
import java.util.Optional;
import java.util.UUID;

/**
 * What a caller may act on: its account, narrowed to one merchant when the key or X-MID names one.
 *
 * @param apiKey true for an API key (X-MID), false for a publishable key
 */
public record CallerScope(UUID accountId, Optional<MerchantView> merchant, boolean apiKey) {

    /** The caller's transaction (locked for a change when {@code forUpdate}); others' and unknown ids are 404. */
    public Transaction transaction(String transactionId, boolean forUpdate) {
        UUID id;
        try {
            id = UUID.fromString(transactionId);
        } catch (IllegalArgumentException e) {
            throw ApiException.notFound("Transaction " + transactionId);
        }
        return (forUpdate ? Transaction.lockForAccount(accountId, id) : Transaction.findForAccount(accountId, id))
                .filter(this::covers)
                .orElseThrow(() -> ApiException.notFound("Transaction " + transactionId));
    }

    /** True when the transaction is visible to this caller; others are answered 404 like unknown ids. */
    public boolean covers(Transaction tx) {
        return tx.accountId.equals(accountId) && merchant.map(m -> m.merchantId.equals(tx.merchantId)).orElse(true);
    }
}

package dev.cryptopay.transaction.service;

import dev.cryptopay.support.paging.PageRequest;
import java.time.Instant;
import java.util.List;

/**
 * Filters of GET /transactions, already parsed: statuses (any of), sub-merchant (UUID or externalMID),
 * reference number, and createdAt in [startTime, endBefore).
 */
public record TransactionQuery(List<Integer> statuses, String subMerchantId, String referenceNumber,
        Instant startTime, Instant endBefore, PageRequest page) {
}

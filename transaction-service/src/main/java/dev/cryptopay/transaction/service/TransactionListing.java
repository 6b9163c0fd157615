package dev.cryptopay.transaction.service;

import dev.cryptopay.support.jdbc.ConsistentReads;
import dev.cryptopay.support.paging.PageMetadata;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.security.Caller;
import dev.cryptopay.transaction.domain.MerchantView;
import dev.cryptopay.transaction.domain.Transaction;
import dev.cryptopay.transaction.view.TransactionRows;
import dev.cryptopay.transaction.view.TransactionView;
import io.quarkus.panache.common.Page;
import io.quarkus.panache.common.Parameters;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** GET /transactions: an account's transactions (all its merchants), filtered, newest first, paged. */
@ApplicationScoped
public class TransactionListing {

    private final ConsistentReads consistentReads;

    public TransactionListing(ConsistentReads consistentReads) {
        this.consistentReads = consistentReads;
    }

    public record Listing(List<TransactionView> transactions, PageMetadata metadata) {
    }

    @Transactional
    public Listing list(Caller caller, TransactionQuery query) {
        consistentReads.begin();
        UUID accountId = caller.accountId()
                .orElseThrow(() -> ApiException.unauthorized("This endpoint needs an account's API key."));
        StringBuilder where = new StringBuilder("accountId = :account");
        Parameters params = Parameters.with("account", accountId);
        if (!query.statuses().isEmpty()) {
            where.append(" and status in :statuses");
            params.and("statuses", query.statuses());
        }
        if (query.subMerchantId() != null) {
            Optional<MerchantView> merchant = MerchantView.resolve(accountId, query.subMerchantId());
            if (merchant.isEmpty()) {
                return new Listing(List.of(), query.page().metadata(0, 0));
            }
            where.append(" and merchantId = :merchant");
            params.and("merchant", merchant.get().merchantId);
        }
        if (query.referenceNumber() != null) {
            where.append(" and referenceNumber = :reference");
            params.and("reference", query.referenceNumber());
        }
        if (query.startTime() != null) {
            where.append(" and createdAt >= :start");
            params.and("start", query.startTime().atOffset(ZoneOffset.UTC));
        }
        if (query.endBefore() != null) {
            where.append(" and createdAt < :end");
            params.and("end", query.endBefore().atOffset(ZoneOffset.UTC));
        }
        long total = Transaction.count(where.toString(), params);
        List<Transaction> page = Transaction.<Transaction>find(where + " order by createdAt desc, id desc", params)
                .page(Page.of(query.page().index(), query.page().limit())).list();
        TransactionRows rows = TransactionRows.of(page);
        List<TransactionView> views = page.stream().map(rows::view).toList();
        return new Listing(views, query.page().metadata(total, views.size()));
    }

}

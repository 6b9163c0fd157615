package dev.cryptopay.transaction.rest;

import dev.cryptopay.support.paging.PageRequest;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.time.QueryTime;
import dev.cryptopay.support.validation.Validation;
import dev.cryptopay.transaction.domain.TransactionState;
import dev.cryptopay.transaction.quote.Money;
import dev.cryptopay.transaction.rest.TransactionDtos.CreateTransactionRequest;
import dev.cryptopay.transaction.rest.TransactionDtos.Prefill;
import dev.cryptopay.transaction.service.NewTransaction;
import dev.cryptopay.transaction.service.TransactionQuery;
import dev.cryptopay.transaction.service.TransactionService;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Currency;
import java.util.List;

/** Field checks of the transaction requests (docs/decisions.md §1, §5); merchant-dependent rules are the service's. */
final class TransactionRequests {

    private TransactionRequests() {
    }

    static NewTransaction validate(CreateTransactionRequest body) {
        if (body == null) {
            throw ApiException.badRequest("A JSON body is required.");
        }
        Validation v = new Validation()
                .text("descriptor", body.descriptor(), Validation.MAX_STRING)
                .text("referenceNumber", body.referenceNumber(), Validation.MAX_STRING)
                .text("quoteID", body.quoteID(), Validation.MAX_STRING)
                .required("amount", body.amount())
                .requiredText("amountCurrency", body.amountCurrency())
                .currency("amountCurrency", body.amountCurrency())
                .requiredText("asset", body.asset())
                .asset("asset", body.asset())
                .requiredText("network", body.network())
                .network("network", body.network());
        Money.checkAmount(v, "amount", body.amount());
        if (body.amount() != null && body.amountCurrency() != null && isCurrency(body.amountCurrency())) {
            int digits = Currency.getInstance(body.amountCurrency()).getDefaultFractionDigits();
            if (digits >= 0 && body.amount().stripTrailingZeros().scale() > digits) {
                v.add("amount", "has more decimals than " + body.amountCurrency() + " has (" + digits + ")");
            }
        }
        if (body.fxRate() != null) {
            Money.checkAmount(v, "fxRate", body.fxRate());
        }
        Prefill p = body.optional();
        if (p != null) {
            v.text("optional.firstName", p.firstName(), Validation.MAX_STRING)
                    .text("optional.lastName", p.lastName(), Validation.MAX_STRING)
                    .email("optional.email", p.email())
                    .text("optional.street1", p.street1(), Validation.MAX_STRING)
                    .text("optional.street2", p.street2(), Validation.MAX_STRING)
                    .text("optional.city", p.city(), Validation.MAX_STRING)
                    .text("optional.region", p.region(), Validation.MAX_STRING)
                    .text("optional.postalCode", p.postalCode(), Validation.MAX_STRING)
                    .country("optional.country", p.country());
        }
        v.throwIfInvalid();
        BigDecimal amount = body.amount();
        int digits = Currency.getInstance(body.amountCurrency()).getDefaultFractionDigits();
        if (digits >= 0 && amount.scale() < digits) {
            amount = amount.setScale(digits);
        }
        return new NewTransaction(blankToNull(body.descriptor()), blankToNull(body.referenceNumber()), amount,
                body.amountCurrency(), body.asset(), body.network(), body.fxRate(), blankToNull(body.quoteID()),
                p == null ? null : TransactionService.prefill(p.firstName(), p.lastName(), p.email(), p.street1(),
                        p.street2(), p.city(), p.region(), p.postalCode(), p.country()));
    }

    /** Query of GET /transactions; limit and page are required here (interface document). */
    static TransactionQuery query(String limit, String page, String status, String subMerchantId,
            String referenceNumber, String startTime, String endTime) {
        Validation v = new Validation();
        if (limit == null || limit.isBlank()) {
            v.add("limit", "is required");
        }
        if (page == null || page.isBlank()) {
            v.add("page", "is required");
        }
        List<Integer> statuses = new ArrayList<>();
        if (status != null && !status.isBlank()) {
            for (String part : status.split(",")) {
                try {
                    int value = Integer.parseInt(part.strip());
                    if (java.util.Arrays.stream(TransactionState.values()).noneMatch(s -> s.wire() == value)) {
                        v.add("status", "must be a comma-separated list of 0, 1, -1, -2, -3, -4");
                        break;
                    }
                    statuses.add(value);
                } catch (NumberFormatException e) {
                    v.add("status", "must be a comma-separated list of 0, 1, -1, -2, -3, -4");
                    break;
                }
            }
        }
        v.text("subMerchantId", subMerchantId, Validation.MAX_STRING)
                .text("referenceNumber", referenceNumber, Validation.MAX_STRING);
        Instant start = QueryTime.start(v, "startTime", startTime);
        Instant endBefore = QueryTime.endExclusive(v, "endTime", endTime);
        if (start != null && endBefore != null && !start.isBefore(endBefore)) {
            v.add("endTime", "must not be before startTime");
        }
        v.throwIfInvalid();
        PageRequest paging = PageRequest.of(limit, page);
        return new TransactionQuery(statuses, blankToNull(subMerchantId), blankToNull(referenceNumber), start,
                endBefore, paging);
    }

    private static boolean isCurrency(String code) {
        try {
            Currency.getInstance(code);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** {@code POST /transaction/{id}/verification/code} (docs/decisions.md §64). */
    public record RestoreCodeRequest(String email) {
    }

    /** {@code POST /transaction/{id}/verification/restore}; asset, network and originatorWallet as a verification. */
    public record RestoreRequest(String email, String code, String asset, String network, String originatorWallet) {
    }

    /** The e-mail a code is asked for: required, an e-mail address. */
    static String validate(RestoreCodeRequest body) {
        String email = body == null ? null : body.email();
        new Validation().requiredText("email", email).text("email", email, Validation.MAX_STRING)
                .email("email", blankToNull(email)).throwIfInvalid();
        return email.strip();
    }

    /** A restore: an e-mail address, a six-digit code, optional asset/network/originatorWallet as a verification. */
    static RestoreRequest validate(RestoreRequest body) {
        RestoreRequest r = body == null ? new RestoreRequest(null, null, null, null, null) : body;
        Validation v = new Validation().requiredText("email", r.email()).text("email", r.email(), Validation.MAX_STRING)
                .email("email", blankToNull(r.email()))
                .requiredText("code", r.code())
                .text("asset", r.asset(), Validation.MAX_STRING).asset("asset", blankToNull(r.asset()))
                .text("network", r.network(), Validation.MAX_STRING).network("network", blankToNull(r.network()))
                .text("originatorWallet", r.originatorWallet(), Validation.MAX_STRING);
        if (r.code() != null && !r.code().matches("[0-9]{6}")) {
            v.add("code", "must be the six digits of the e-mailed code");
        }
        v.throwIfInvalid();
        return r;
    }

    static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }
}

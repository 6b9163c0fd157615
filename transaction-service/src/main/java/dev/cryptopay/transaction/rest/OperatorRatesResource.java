package dev.cryptopay.transaction.rest;

import dev.cryptopay.support.catalogue.Catalogue;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.security.IdentityClaims;
import dev.cryptopay.support.validation.Validation;
import dev.cryptopay.transaction.domain.Clock;
import dev.cryptopay.transaction.domain.ExchangeRate;
import dev.cryptopay.transaction.quote.Money;
import dev.cryptopay.transaction.rates.RateTableService.RateUpdate;
import dev.cryptopay.transaction.rates.RateTableService;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The operator's rate table (docs/decisions.md §4): {@code PUT} sets some rows, {@code GET} reads them all. Body and
 * answer: {@code {"rates":[{"code":"EUR","usd":"1.08","asOf":"2026-11-21T10:00:00Z"}]}} — {@code usd} is USD per
 * one unit of the fiat currency or crypto asset (string or number), {@code asOf} is optional (now).
 */
@Path("/operator/rates")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(IdentityClaims.ROLE_OPERATOR)
public class OperatorRatesResource {

    public record RateIn(String code, BigDecimal usd, String asOf) {
    }

    public record RatesIn(List<RateIn> rates) {
    }

    public record RateOut(String code, String kind, BigDecimal usd, String asOf, String updatedAt) {
    }

    public record RatesOut(List<RateOut> rates) {
    }

    private final RateTableService table;

    public OperatorRatesResource(RateTableService table) {
        this.table = table;
    }

    @GET
    public RatesOut get() {
        return view(table.all());
    }

    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    public RatesOut put(RatesIn body) {
        if (body == null || body.rates() == null || body.rates().isEmpty()) {
            throw ApiException.validation("rates", "is required: a non-empty array of {code, usd, asOf}");
        }
        Validation v = new Validation();
        List<RateUpdate> updates = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        OffsetDateTime now = Clock.now();
        for (int i = 0; i < body.rates().size(); i++) {
            RateIn rate = body.rates().get(i);
            String at = "rates[" + i + "].";
            if (rate == null) {
                v.add("rates[" + i + "]", "must be an object");
                continue;
            }
            String kind = kind(rate.code());
            if (rate.code() == null || rate.code().isBlank()) {
                v.add(at + "code", "is required");
            } else if (kind == null) {
                v.add(at + "code", "must be an ISO 4217 currency code or an asset of GET /assets");
            } else if (!seen.add(rate.code())) {
                v.add(at + "code", "appears more than once");
            }
            v.required(at + "usd", rate.usd());
            if (rate.usd() != null && (rate.usd().signum() <= 0 || rate.usd().compareTo(Money.MAX_AMOUNT) > 0)) {
                v.add(at + "usd", "must be greater than 0 and at most 1000000000000");
            }
            if ("USD".equals(rate.code()) && rate.usd() != null && rate.usd().compareTo(BigDecimal.ONE) != 0) {
                v.add(at + "usd", "USD is always 1");
            }
            OffsetDateTime asOf = now;
            if (rate.asOf() != null) {
                try {
                    asOf = OffsetDateTime.parse(rate.asOf());
                    if (asOf.isAfter(now.plusMinutes(5))) {
                        v.add(at + "asOf", "must not be in the future");
                    }
                } catch (DateTimeParseException e) {
                    v.add(at + "asOf", "must be an RFC 3339 timestamp such as 2026-11-21T10:00:00Z");
                }
            }
            updates.add(new RateUpdate(rate.code(), kind, rate.usd(), asOf));
        }
        v.throwIfInvalid();
        return view(table.set(updates));
    }

    /**
     * fiat for an ISO 4217 code, crypto for a catalogue asset or a network's native asset (POL, TRX: gas fees are
     * paid in them, and refunds of tokens convert the fee at their rate), null for neither.
     */
    private static String kind(String code) {
        if (code == null) {
            return null;
        }
        if (Catalogue.get().asset(code).isPresent()
                || Catalogue.get().networks().stream().anyMatch(n -> n.nativeAsset().equals(code))) {
            return ExchangeRate.CRYPTO;
        }
        Validation check = new Validation().currency("code", code);
        return check.hasErrors() ? null : ExchangeRate.FIAT;
    }

    private static RatesOut view(List<ExchangeRate> rows) {
        return new RatesOut(rows.stream().map(r -> new RateOut(r.code, r.kind, r.usd,
                r.asOf.toInstant().toString(), r.updatedAt.toInstant().toString())).toList());
    }
}

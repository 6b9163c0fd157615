package dev.cryptopay.reporting.rest;

import dev.cryptopay.reporting.rest.ReportDtos.SettlementList;
import dev.cryptopay.reporting.rest.ReportDtos.Summary;
import dev.cryptopay.reporting.rest.ReportDtos.TransactionDetail;
import dev.cryptopay.reporting.service.CsvExport;
import dev.cryptopay.reporting.service.ReportQueries;
import dev.cryptopay.reporting.service.TransactionFilter;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.security.Caller;
import dev.cryptopay.support.security.IdentityClaims;
import dev.cryptopay.support.validation.Validation;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import java.util.List;
import java.util.UUID;

/**
 * Reporting (interface document, "Reporting"), served from the reporting store only. API keys of the path's
 * account, admin or read_only (every endpoint here is a GET); another account's path is 403, another account's
 * transaction 404.
 */
@Path("/accounts/{accountUUID}")
@RolesAllowed({ IdentityClaims.ROLE_ADMIN, IdentityClaims.ROLE_READ_ONLY })
public class ReportingResource {

    public static final String TEXT_CSV = "text/csv";

    private final ReportQueries queries;
    private final CsvExport csv;
    private final Caller caller;

    public ReportingResource(ReportQueries queries, CsvExport csv, Caller caller) {
        this.queries = queries;
        this.csv = csv;
        this.caller = caller;
    }

    @GET
    @Path("reporting/summary")
    @Produces(MediaType.APPLICATION_JSON)
    public Summary summary(@PathParam("accountUUID") String accountUUID, @QueryParam("merchantID") String merchantID,
            @QueryParam("fromDate") String fromDate, @QueryParam("toDate") String toDate) {
        UUID account = account(accountUUID);
        Validation v = new Validation();
        UUID merchant = ReportRequests.merchant(v, merchantID);
        ReportRequests.Range range = ReportRequests.range(v, fromDate, toDate);
        v.throwIfInvalid();
        return queries.summary(account, merchant, range.from(), range.toExclusive());
    }

    /** An extension: the settlement periods with activity, so a payout can be reconciled. */
    @GET
    @Path("reporting/settlements")
    @Produces(MediaType.APPLICATION_JSON)
    public SettlementList settlements(@PathParam("accountUUID") String accountUUID,
            @QueryParam("merchantID") String merchantID, @QueryParam("fromDate") String fromDate,
            @QueryParam("toDate") String toDate, @QueryParam("limit") String limit,
            @QueryParam("offset") String offset) {
        UUID account = account(accountUUID);
        Validation v = new Validation();
        UUID merchant = ReportRequests.merchant(v, merchantID);
        ReportRequests.Range range = ReportRequests.range(v, fromDate, toDate);
        ReportRequests.Paging paging = ReportRequests.paging(v, limit, offset);
        v.throwIfInvalid();
        return queries.settlements(account, merchant, range.from(), range.toExclusive(), paging.limit(),
                paging.offset());
    }

    /** JSON page ({@code limit}/{@code offset}), or with {@code Accept: text/csv} every matching row as CSV. */
    @GET
    @Path("transactions")
    @Produces({ MediaType.APPLICATION_JSON, TEXT_CSV })
    public Response transactions(@PathParam("accountUUID") String accountUUID,
            @QueryParam("merchantID") String merchantID, @QueryParam("referenceNumber") String referenceNumber,
            @QueryParam("statuses") List<String> statuses, @QueryParam("paymentStatuses") List<String> paymentStatuses,
            @QueryParam("currency") String currency, @QueryParam("fromDate") String fromDate,
            @QueryParam("toDate") String toDate, @QueryParam("limit") String limit,
            @QueryParam("offset") String offset, @Context HttpHeaders headers) {
        UUID account = account(accountUUID);
        Validation v = new Validation();
        TransactionFilter filter = ReportRequests.filter(account, merchantID, referenceNumber, statuses,
                paymentStatuses, currency, fromDate, toDate, v);
        if (wantsCsv(headers)) {
            v.throwIfInvalid();
            StreamingOutput body = out -> csv.write(filter, out);
            return Response.ok(body, TEXT_CSV + "; charset=utf-8")
                    .header("Content-Disposition", "attachment; filename=\"transactions.csv\"")
                    .build();
        }
        ReportRequests.Paging paging = ReportRequests.paging(v, limit, offset);
        v.throwIfInvalid();
        return Response.ok(queries.list(filter, paging.limit(), paging.offset()), MediaType.APPLICATION_JSON)
                .build();
    }

    @GET
    @Path("transactions/{transactionID}")
    @Produces(MediaType.APPLICATION_JSON)
    public TransactionDetail transaction(@PathParam("accountUUID") String accountUUID,
            @PathParam("transactionID") String transactionID) {
        UUID account = account(accountUUID);
        UUID id;
        try {
            id = UUID.fromString(transactionID);
        } catch (IllegalArgumentException e) {
            throw ApiException.notFound("Transaction " + transactionID);
        }
        return queries.detail(account, id).orElseThrow(() -> ApiException.notFound("Transaction " + transactionID));
    }

    /** The path account must be the key's account (403 otherwise, also for a path that is no UUID). */
    private UUID account(String accountUUID) {
        UUID path;
        try {
            path = UUID.fromString(accountUUID);
        } catch (IllegalArgumentException e) {
            throw ApiException.forbidden("The key does not belong to this account.");
        }
        return caller.requireAccount(path);
    }

    /** CSV when the client's most preferred acceptable type is text/csv. */
    private static boolean wantsCsv(HttpHeaders headers) {
        for (MediaType type : headers.getAcceptableMediaTypes()) {
            if (type.isCompatible(MediaType.APPLICATION_JSON_TYPE) && !type.isWildcardType()) {
                return false;
            }
            if ("text".equals(type.getType()) && "csv".equals(type.getSubtype())) {
                return true;
            }
        }
        return false;
    }
}

package dev.cryptopay.transaction.rest;

import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.security.Caller;
import dev.cryptopay.support.security.IdentityClaims;
import dev.cryptopay.support.validation.Validation;
import dev.cryptopay.support.web.IdempotencyKeys;
import dev.cryptopay.transaction.domain.CustomerDetails;
import dev.cryptopay.transaction.domain.PaymentRequest;
import dev.cryptopay.transaction.kyc.DocumentFormat;
import dev.cryptopay.transaction.qr.QrImage;
import dev.cryptopay.transaction.rest.TransactionDtos.CancelRequest;
import dev.cryptopay.transaction.rest.TransactionDtos.CreateTransactionRequest;
import dev.cryptopay.transaction.rest.TransactionDtos.PaymentRequestBody;
import dev.cryptopay.transaction.service.KycRestores;
import dev.cryptopay.transaction.service.NewTransaction;
import dev.cryptopay.transaction.service.TransactionService;
import dev.cryptopay.transaction.service.Verification;
import dev.cryptopay.transaction.service.VerificationService;
import dev.cryptopay.transaction.view.CreationResult;
import dev.cryptopay.transaction.view.TransactionView;
import io.smallrye.common.annotation.NonBlocking;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.resteasy.reactive.RestForm;
import org.jboss.resteasy.reactive.multipart.FileUpload;

/**
 * One transaction (interface document, "Transactions"): create, read, QR, payment request, verification,
 * cancel. The gateway has authenticated the caller; the roles say which kind of key each operation takes.
 */
@Path("/transaction")
@Produces(MediaType.APPLICATION_JSON)
public class TransactionResource {

    private static final String ADMIN = IdentityClaims.ROLE_ADMIN;
    private static final String READ_ONLY = IdentityClaims.ROLE_READ_ONLY;
    private static final String PUBLISHABLE = IdentityClaims.ROLE_PUBLISHABLE;

    private final TransactionService transactions;
    private final VerificationService verifications;
    private final Caller caller;
    private final KycRestores restores;

    public TransactionResource(TransactionService transactions, VerificationService verifications, Caller caller,
            KycRestores restores) {
        this.restores = restores;
        this.transactions = transactions;
        this.verifications = verifications;
        this.caller = caller;
    }

    /**
     * Publishable key, or API key + X-MID. 201 with the creation result (status 0, or -3 when KYC is needed).
     *
     * <p>Non-blocking so that Quarkus REST reads the small JSON body on the event loop as it arrives; the creation then
     * runs on a worker thread (it writes to the database). A blocking method would read its body on the worker through
     * a blocking stream, each request handing the body over from the event loop twice (a wait and a notify each), which
     * was a sixth of transaction-service's profile samples under load (docs/decisions.md §100).
     *
     * <p>A caller that went away before a worker took the creation up (the connection closed: Quarkus REST cancels
     * the answer as soon as the worker subscribes) creates nothing: the request's context, and with it the caller's
     * identity, has ended by then. Without this check the creation ran anyway, failed for want of an identity, and
     * Mutiny logged that failure, which nobody could receive any more, as an ERROR with its stack (seen at the end of
     * every benchmark run, when wrk closes its connections). Once begun, a creation completes or fails as a whole
     * whatever the connection does.
     */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed({ ADMIN, PUBLISHABLE })
    @NonBlocking
    public Uni<Response> create(@HeaderParam(IdempotencyKeys.HEADER) String idempotencyKey,
            CreateTransactionRequest body) {
        NewTransaction request = TransactionRequests.validate(body);
        return Uni.createFrom().<Response>emitter(answer -> {
            AtomicBoolean ended = new AtomicBoolean();
            answer.onTermination(() -> ended.set(true)); // runs at once when the answer was cancelled already
            if (ended.get()) {
                return;
            }
            answer.complete(transactions.create(caller, request, idempotencyKey).created());
        }).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }

    @GET
    @Path("{transactionID}")
    @RolesAllowed({ ADMIN, READ_ONLY, PUBLISHABLE })
    public TransactionView get(@PathParam("transactionID") String transactionId) {
        return transactions.get(caller, transactionId);
    }

    /** The payment URI of a payment request (the latest without {@code paymentRequestId}) as a PNG QR code. */
    @GET
    @Path("{transactionID}/qr")
    @Produces({ "image/png", MediaType.APPLICATION_JSON })
    @RolesAllowed({ ADMIN, READ_ONLY, PUBLISHABLE })
    public Response qr(@PathParam("transactionID") String transactionId,
            @QueryParam("paymentRequestId") String paymentRequestId) {
        PaymentRequest payment = transactions.paymentForQr(caller, transactionId, paymentRequestId);
        return Response.ok(QrImage.png(payment.qrData), "image/png")
                .header("Cache-Control", "private, max-age=60")
                .build();
    }

    /** Publishable key. 201 with a new payment request: its own address and a fresh quote, every time. */
    @POST
    @Path("{transactionID}/payment")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(PUBLISHABLE)
    public Response payment(@PathParam("transactionID") String transactionId, PaymentRequestBody body) {
        PaymentRequestBody request = body == null ? new PaymentRequestBody(null, null, null) : body;
        new Validation()
                .requiredText("asset", request.asset())
                .asset("asset", request.asset())
                .requiredText("network", request.network())
                .network("network", request.network())
                .text("wallet", request.wallet(), Validation.MAX_STRING)
                .throwIfInvalid();
        CreationResult result = transactions.pay(caller, transactionId, request.asset(), request.network(),
                TransactionRequests.blankToNull(request.wallet()));
        return Response.status(Response.Status.CREATED).entity(result).build();
    }

    /**
     * Publishable key; multipart. Fields as the interface document lists them; {@code documentFiles} is sent once
     * or twice (front, then rear), each a PNG, JPEG or PDF of at most 10 MiB.
     */
    @POST
    @Path("{transactionID}/verification")
    @Consumes(MediaType.MULTIPART_FORM_DATA)
    @RolesAllowed(PUBLISHABLE)
    public CreationResult verification(@PathParam("transactionID") String transactionId,
            @RestForm String asset, @RestForm String network, @RestForm String documentType,
            @RestForm String firstName, @RestForm String lastName, @RestForm String email,
            @RestForm String street, @RestForm String city, @RestForm String region,
            @RestForm String postalCode, @RestForm String country, @RestForm String storeKYC,
            @RestForm String originatorWallet,
            @RestForm("documentFiles") List<FileUpload> documentFiles) throws IOException {
        Validation v = new Validation()
                .text("asset", asset, Validation.MAX_STRING).asset("asset", blank(asset))
                .text("network", network, Validation.MAX_STRING).network("network", blank(network))
                .text("firstName", firstName, Validation.MAX_STRING)
                .text("lastName", lastName, Validation.MAX_STRING)
                .email("email", blank(email))
                .text("street", street, Validation.MAX_STRING)
                .text("city", city, Validation.MAX_STRING)
                .text("region", region, Validation.MAX_STRING)
                .text("postalCode", postalCode, Validation.MAX_STRING)
                .country("country", blank(country))
                .oneOf("storeKYC", blank(storeKYC), List.of("true", "false"))
                .text("originatorWallet", originatorWallet, Validation.MAX_STRING);
        List<FileUpload> files = documentFiles == null ? List.of() : documentFiles;
        if (files.size() > 2) {
            v.add("documentFiles", "at most two files: the front and the rear of the document");
        }
        v.throwIfInvalid();
        List<Verification.Document> documents = new ArrayList<>();
        for (FileUpload file : files) {
            if (file.size() > DocumentFormat.MAX_BYTES) {
                throw new ApiException(413, "payload_too_large", "Payload too large",
                        "Each document file may be at most 10 MiB.", null, null);
            }
            byte[] content = Files.readAllBytes(file.uploadedFile());
            DocumentFormat format = DocumentFormat.sniff(content).orElseThrow(() -> new ApiException(415,
                    "unsupported_media_type", "Unsupported media type",
                    "A document must be a PNG or JPEG image or a PDF (recognised by its content).", null, null));
            documents.add(new Verification.Document(format, content));
        }
        CustomerDetails customer = new CustomerDetails(blank(firstName), blank(lastName), blank(email),
                blank(street), blank(city), blank(region), blank(postalCode), blank(country));
        return verifications.verify(caller, transactionId, new Verification(blank(asset), blank(network),
                blank(documentType), customer, "true".equals(storeKYC), documents, blank(originatorWallet)));
    }

    /**
     * Publishable key. KYC restore, step 1 (docs/decisions.md §64): a one-time code is sent to {@code email} when the
     * account keeps a verified record for it. 202 with no body either way, so the answer never tells whether the
     * e-mail is known; the e-mail leaves after the commit, off the request's thread.
     */
    @POST
    @Path("{transactionID}/verification/code")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(PUBLISHABLE)
    public Response restoreCode(@PathParam("transactionID") String transactionId,
            TransactionRequests.RestoreCodeRequest body) {
        String email = TransactionRequests.validate(body);
        restores.requestCode(caller, transactionId, email);
        return Response.accepted().build();
    }

    /**
     * Publishable key. KYC restore, step 2: the code completes the verification with the stored details; answers
     * exactly as {@code POST …/verification}. Every code that cannot restore is the one 422 {@code restore_code_invalid}.
     */
    @POST
    @Path("{transactionID}/verification/restore")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(PUBLISHABLE)
    public CreationResult restore(@PathParam("transactionID") String transactionId,
            TransactionRequests.RestoreRequest body) {
        TransactionRequests.RestoreRequest request = TransactionRequests.validate(body);
        return verifications.restore(caller, transactionId, request.email().strip(), request.code(),
                blank(request.asset()), blank(request.network()), blank(request.originatorWallet()));
    }

    /** API key + X-MID. Answers the full Transaction after the change. */
    @PATCH
    @Path("{transactionID}/cancel")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(ADMIN)
    public TransactionView cancel(@PathParam("transactionID") String transactionId, CancelRequest body) {
        CancelRequest request = body == null ? new CancelRequest(null, null) : body;
        new Validation().text("reason", request.reason(), Validation.MAX_STRING).throwIfInvalid();
        return transactions.cancel(caller, transactionId, TransactionRequests.blankToNull(request.reason()),
                Boolean.TRUE.equals(request.forfeit()));
    }

    private static String blank(String value) {
        return TransactionRequests.blankToNull(value);
    }
}

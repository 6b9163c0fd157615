package dev.cryptopay.merchant.rest;

import dev.cryptopay.merchant.domain.Merchant;
import dev.cryptopay.merchant.domain.MerchantLogo;
import dev.cryptopay.merchant.config.MerchantServiceConfig;
import dev.cryptopay.merchant.rest.MerchantDtos.LogoUploaded;
import dev.cryptopay.merchant.rest.MerchantDtos.MerchantList;
import dev.cryptopay.merchant.rest.MerchantDtos.MerchantRequest;
import dev.cryptopay.merchant.rest.MerchantDtos.MerchantView;
import dev.cryptopay.merchant.service.LogoFormat;
import dev.cryptopay.merchant.service.MerchantService;
import dev.cryptopay.support.paging.PageRequest;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.security.Caller;
import dev.cryptopay.support.security.IdentityClaims;
import dev.cryptopay.support.web.IdempotencyKeys;
import dev.cryptopay.support.web.PathIds;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.UUID;
import org.jboss.resteasy.reactive.RestForm;
import org.jboss.resteasy.reactive.multipart.FileUpload;

/** Merchants of an account (interface document, "Merchants"). */
@Path("/accounts/{accountUUID}/merchants")
@Produces(MediaType.APPLICATION_JSON)
public class MerchantResource {

    private final MerchantService merchants;
    private final Caller caller;
    private final MerchantServiceConfig config;

    public MerchantResource(MerchantService merchants, Caller caller, MerchantServiceConfig config) {
        this.merchants = merchants;
        this.caller = caller;
        this.config = config;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(IdentityClaims.ROLE_ADMIN)
    public Response create(@HeaderParam(IdempotencyKeys.HEADER) String idempotencyKey,
            @PathParam("accountUUID") String accountUUID, MerchantRequest body) {
        UUID accountId = account(accountUUID);
        return merchants.create(caller, accountId, MerchantMapper.draft(body), idempotencyKey, MerchantMapper::view)
                .created();
    }

    @PUT
    @Path("{merchantUUID}")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(IdentityClaims.ROLE_ADMIN)
    public MerchantView update(@PathParam("accountUUID") String accountUUID,
            @PathParam("merchantUUID") String merchantUUID, MerchantRequest body) {
        UUID accountId = account(accountUUID);
        UUID merchantId = PathIds.uuid(merchantUUID, "Merchant");
        return MerchantMapper.view(merchants.update(accountId, merchantId, MerchantMapper.draft(body)));
    }

    @GET
    @Path("{merchantUUID}")
    @RolesAllowed({ IdentityClaims.ROLE_ADMIN, IdentityClaims.ROLE_READ_ONLY })
    public MerchantView get(@PathParam("accountUUID") String accountUUID,
            @PathParam("merchantUUID") String merchantUUID) {
        return MerchantMapper.view(merchants.get(account(accountUUID), PathIds.uuid(merchantUUID, "Merchant")));
    }

    @GET
    @RolesAllowed({ IdentityClaims.ROLE_ADMIN, IdentityClaims.ROLE_READ_ONLY })
    public MerchantList list(@PathParam("accountUUID") String accountUUID, @QueryParam("limit") String limit,
            @QueryParam("page") String page) {
        UUID accountId = account(accountUUID);
        PageRequest request = PageRequest.of(limit, page);
        MerchantService.Page result = merchants.list(accountId, request);
        return new MerchantList(result.merchants().stream().map(MerchantMapper::view).toList(),
                request.metadata(result.totalCount(), result.merchants().size()));
    }

    @DELETE
    @Path("{merchantUUID}")
    @RolesAllowed(IdentityClaims.ROLE_ADMIN)
    public Response archive(@PathParam("accountUUID") String accountUUID,
            @PathParam("merchantUUID") String merchantUUID) {
        merchants.archive(account(accountUUID), PathIds.uuid(merchantUUID, "Merchant"));
        return Response.noContent().build();
    }

    /** Multipart part {@code file}: PNG, JPEG or WebP by content, at most 10 MiB. */
    @POST
    @Path("{merchantUUID}/uploadlogo")
    @Consumes(MediaType.MULTIPART_FORM_DATA)
    @RolesAllowed(IdentityClaims.ROLE_ADMIN)
    public LogoUploaded uploadLogo(@PathParam("accountUUID") String accountUUID,
            @PathParam("merchantUUID") String merchantUUID, @RestForm("file") FileUpload file) throws IOException {
        UUID accountId = account(accountUUID);
        UUID merchantId = PathIds.uuid(merchantUUID, "Merchant");
        if (file == null) {
            throw ApiException.validation("file", "is required (multipart part named file)");
        }
        if (file.size() > LogoFormat.MAX_BYTES) {
            throw new ApiException(413, "payload_too_large", "Payload too large",
                    "A logo may be at most 10 MiB.", null, null);
        }
        byte[] content = Files.readAllBytes(file.uploadedFile());
        LogoFormat format = LogoFormat.sniff(content).orElseThrow(() -> new ApiException(415,
                "unsupported_media_type", "Unsupported media type", "A logo must be a PNG, JPEG or WebP image.",
                null, null));
        Merchant merchant = merchants.storeLogo(accountId, merchantId, content, format);
        return new LogoUploaded(merchant.logoFilename, logoUrl(accountId, merchantId));
    }

    /** The stored logo, public (checkout pages show it); the gateway routes this path without a key. */
    @GET
    @Path("{merchantUUID}/logo")
    @Produces({ "image/png", "image/jpeg", "image/webp", MediaType.APPLICATION_JSON })
    @RolesAllowed({ IdentityClaims.ROLE_ANONYMOUS, IdentityClaims.ROLE_ADMIN, IdentityClaims.ROLE_READ_ONLY,
            IdentityClaims.ROLE_PUBLISHABLE })
    public Response logo(@PathParam("accountUUID") String accountUUID,
            @PathParam("merchantUUID") String merchantUUID) {
        UUID accountId = PathIds.uuid(accountUUID, "Account");
        MerchantLogo logo = merchants.logo(accountId, PathIds.uuid(merchantUUID, "Merchant"))
                .orElseThrow(() -> ApiException.notFound("Logo"));
        return Response.ok((InputStream) new java.io.ByteArrayInputStream(logo.content), logo.contentType)
                .header("Cache-Control", "public, max-age=300")
                // served without a key on the API's origin: never let a browser guess another type (§38)
                .header("X-Content-Type-Options", "nosniff")
                .build();
    }

    private String logoUrl(UUID accountId, UUID merchantId) {
        return config.publicBaseUrl() + "/accounts/" + accountId + "/merchants/" + merchantId + "/logo";
    }

    private UUID account(String accountUUID) {
        return caller.requireAccount(PathIds.uuid(accountUUID, "Account"));
    }
}

package dev.cryptopay.transaction.rest;

import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.security.Caller;
import dev.cryptopay.support.security.IdentityClaims;
import dev.cryptopay.transaction.chain.SandboxChain.MiningReceipt;
import dev.cryptopay.transaction.chain.SandboxChain.TransferCommand;
import dev.cryptopay.transaction.chain.SandboxChain.TransferReceipt;
import dev.cryptopay.transaction.chain.SandboxChain;
import dev.cryptopay.transaction.config.Environment;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * The sandbox chain (docs/decisions.md §9), driven with the account's API key: record a transfer as a customer's wallet
 * would send it, to one of the caller's own payment requests (docs/decisions.md §48), and mine blocks, which take
 * only the caller's pending transfers. In production these paths answer 404.
 */
@Path("/sandbox/chain")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class SandboxChainResource {

    private final SandboxChain chain;
    private final Environment environment;
    private final Caller caller;

    public SandboxChainResource(SandboxChain chain, Environment environment, Caller caller) {
        this.chain = chain;
        this.environment = environment;
        this.caller = caller;
    }

    /** Body as the sandbox decisions give it; {@code amount} a decimal string. 201 with the recorded transfer. */
    public record TransferBody(String network, String asset, String toAddress, String amount, String fromAddress,
            Integer confirmations) {
    }

    public record BlocksBody(String network, Integer count) {
    }

    @POST
    @Path("transfers")
    @RolesAllowed(IdentityClaims.ROLE_ADMIN)
    public Response transfer(TransferBody body) {
        requireSandbox();
        if (body == null) {
            throw ApiException.badRequest("A JSON body with network, asset, toAddress and amount is required.");
        }
        TransferReceipt receipt = chain.transferToOwnRequest(caller.accountId().orElseThrow(), caller.merchantId(),
                new TransferCommand(body.network(), body.asset(), body.toAddress(), body.amount(), body.fromAddress(),
                        body.confirmations()));
        return Response.status(Response.Status.CREATED).entity(receipt).build();
    }

    @POST
    @Path("blocks")
    @RolesAllowed(IdentityClaims.ROLE_ADMIN)
    public MiningReceipt blocks(BlocksBody body) {
        requireSandbox();
        if (body == null) {
            throw ApiException.badRequest("A JSON body with network and count is required.");
        }
        return chain.mine(caller.accountId().orElseThrow(), body.network(), body.count());
    }

    private void requireSandbox() {
        if (!environment.sandbox()) {
            throw ApiException.notFound("Path");
        }
    }
}

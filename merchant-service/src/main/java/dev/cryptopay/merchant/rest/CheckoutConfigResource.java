package dev.cryptopay.merchant.rest;

import dev.cryptopay.merchant.config.MerchantServiceConfig;
import dev.cryptopay.merchant.domain.Settings.CheckoutConfig;
import dev.cryptopay.merchant.domain.Settings.Support;
import dev.cryptopay.merchant.rest.LookupResource.AssetView;
import dev.cryptopay.merchant.service.CheckoutService;
import dev.cryptopay.merchant.service.CheckoutService.CheckoutView;
import dev.cryptopay.support.catalogue.Catalogue;
import dev.cryptopay.support.security.Caller;
import dev.cryptopay.support.security.IdentityClaims;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/** The two configuration reads of a checkout page, authenticated with a publishable key. */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(IdentityClaims.ROLE_PUBLISHABLE)
public class CheckoutConfigResource {

    public record MerchantConfigView(List<AssetView> allowedAssets, boolean cancelTransactionEnabled,
            CheckoutConfig checkoutConfig, String settlementFrequency, String settlementAnchor, Support support) {
    }

    public record ConfigurationView(boolean appPayEnabled, boolean cryptoPayEnabled, boolean walletPayEnabled,
            String platformPayCluster, List<AssetView> allowedAssets, boolean walletConnectEnabled) {
    }

    private final CheckoutService checkout;
    private final Caller caller;
    private final MerchantServiceConfig config;

    public CheckoutConfigResource(CheckoutService checkout, Caller caller, MerchantServiceConfig config) {
        this.checkout = checkout;
        this.caller = caller;
        this.config = config;
    }

    @GET
    @Path("merchant/config")
    public MerchantConfigView merchantConfig() {
        CheckoutView view = checkout.forCaller(caller);
        return new MerchantConfigView(assets(view.allowedAssets()), view.cancelTransactionEnabled(),
                view.checkoutConfig(), view.settlementFrequency(), view.settlementAnchor(), view.support());
    }

    @GET
    @Path("configuration")
    public ConfigurationView configuration() {
        CheckoutView view = checkout.forCaller(caller);
        MerchantServiceConfig.Checkout flags = config.checkout();
        return new ConfigurationView(flags.appPayEnabled(), flags.cryptoPayEnabled(), flags.walletPayEnabled(),
                flags.platformPayCluster(), assets(view.allowedAssets()), flags.walletConnectEnabled());
    }

    private static List<AssetView> assets(List<Catalogue.Asset> assets) {
        return assets.stream().map(a -> new AssetView(a.code(), a.type(), a.networks())).toList();
    }
}

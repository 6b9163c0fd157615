package dev.cryptopay.transaction.service;

import dev.cryptopay.events.MerchantConfiguration.AssetNetworkConfig;
import dev.cryptopay.events.MerchantConfiguration.FeeLine;
import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.events.TimeOrderedIds;
import dev.cryptopay.support.catalogue.Catalogue;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.validation.Validation;
import dev.cryptopay.transaction.address.AddressAllocator;
import dev.cryptopay.transaction.address.AddressDerivation;
import dev.cryptopay.transaction.config.Environment;
import dev.cryptopay.transaction.domain.Clock;
import dev.cryptopay.transaction.domain.MerchantView;
import dev.cryptopay.transaction.domain.PaymentRequest;
import dev.cryptopay.transaction.domain.PaymentRequestState;
import dev.cryptopay.transaction.domain.PaymentTransfer;
import dev.cryptopay.transaction.domain.Settlement;
import dev.cryptopay.transaction.domain.Transaction;
import dev.cryptopay.transaction.qr.PaymentUri;
import dev.cryptopay.transaction.quote.Money;
import dev.cryptopay.transaction.quote.Quote;
import dev.cryptopay.transaction.rates.Rates;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.transaction.Transactional;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;

/**
 * Opens payment requests: checks that the merchant accepts the asset on the network, quotes at the current
 * crypto rate (locked until the request expires), derives a fresh address and writes the payment URI.
 */
@ApplicationScoped
public class PaymentRequests {

    private final Rates rates;
    private final AddressAllocator allocator;
    private final Environment environment;
    private final Event<Opened> opened;

    public PaymentRequests(Rates rates, AddressAllocator allocator, Environment environment, Event<Opened> opened) {
        this.rates = rates;
        this.allocator = allocator;
        this.environment = environment;
        this.opened = opened;
    }

    /**
     * Adds to {@code v} why {@code asset} on {@code network} cannot be paid to this merchant: outside the
     * catalogue, not offered on that network, not accepted by the merchant, or a token without a contract here.
     */
    public void checkAccepted(Validation v, MerchantConfiguration merchant, String asset, String network,
            String assetField, String networkField) {
        Catalogue catalogue = Catalogue.get();
        if (asset == null || network == null) {
            return;
        }
        if (catalogue.asset(asset).isEmpty()) {
            v.add(assetField, "must be one of the assets of GET /assets");
            return;
        }
        if (catalogue.network(network).isEmpty()) {
            v.add(networkField, "must be a network of GET /assets");
            return;
        }
        if (!catalogue.supports(asset, network)) {
            v.add(networkField, asset + " is not offered on " + network + "; see GET /assets");
            return;
        }
        if (merchant.allowedCrypto() == null || !merchant.allowedCrypto().contains(asset)) {
            v.add(assetField, "the merchant does not accept " + asset);
            return;
        }
        if (networkConfig(merchant, asset, network) == null) {
            v.add(networkField, "the merchant does not accept " + asset + " on " + network);
            return;
        }
        Catalogue.Network net = catalogue.network(network).orElseThrow();
        if (!Environment.isNative(net, catalogue.asset(asset).orElseThrow())
                && environment.tokenContract(network, asset).isEmpty()) {
            v.add(networkField, asset + " on " + network + " is not available in this deployment");
        }
    }

    /** Opens a request in status 0 for an accepted asset and network (see {@link #checkAccepted}). */
    @Transactional(Transactional.TxType.MANDATORY)
    public PaymentRequest open(Transaction tx, MerchantView merchant, String asset, String network, String wallet) {
        return persist(build(tx, merchant, asset, network, wallet, false));
    }

    /**
     * The first request of {@code tx}, which is being created in this very transaction and has no requests or
     * transfers yet: nothing is read back (no query, so no flush). Not persisted: the caller persists the transaction
     * with its final values first, then the request with {@link #persist} (docs/decisions.md §73).
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public PaymentRequest firstOfNew(Transaction tx, MerchantView merchant, String asset, String network) {
        return build(tx, merchant, asset, network, null, true);
    }

    /** Writes a request {@link #firstOfNew} built; the watcher and expiry stop idling after the commit (§74). */
    @Transactional(Transactional.TxType.MANDATORY)
    public PaymentRequest persist(PaymentRequest request) {
        request.persist();
        opened.fire(new Opened(request.cryptoNetwork, request.expiration));
        return request;
    }

    private PaymentRequest build(Transaction tx, MerchantView merchant, String asset, String network, String wallet,
            boolean fresh) {
        MerchantConfiguration config = merchant.config;
        Catalogue.Asset catalogueAsset = Catalogue.get().asset(asset).orElseThrow();
        Catalogue.Network catalogueNetwork = Catalogue.get().network(network).orElseThrow();
        String xpub = config.xpubs() == null ? null : config.xpubs().get(network);
        if (xpub == null || xpub.isBlank()) {
            throw ApiException.conflict("wallet_not_configured", "The merchant has no extended public key for "
                    + network + " (addressProvider); ask the operator to configure it.");
        }
        BigDecimal cryptoRate = rates.cryptoToUSD(asset);
        // After funds arrived (still on the chain, not late), a new request asks only for what is still owed.
        BigDecimal seen = fresh ? BigDecimal.ZERO
                : Settlement.seenOnTimeUSD(PaymentRequest.ofTransaction(tx.id), PaymentTransfer.ofTransaction(tx.id));
        BigDecimal stillOwed = Settlement.due(tx).subtract(seen);
        if (seen.signum() > 0 && stillOwed.signum() <= 0) {
            throw ApiException.conflict("invalid_state", "The transaction's amount has already been sent; "
                    + "it completes when the transfers reach their confirmations.");
        }
        Quote quote = seen.signum() > 0 ? Quote.remaining(stillOwed, cryptoRate, catalogueAsset.decimals())
                : Quote.of(tx.totalUSD, customerFee(config), cryptoRate, catalogueAsset.decimals());
        String tokenContract = Environment.isNative(catalogueNetwork, catalogueAsset) ? null
                : environment.tokenContract(network, asset).orElseThrow();

        // The address last: the xpub's counter row stays locked only from here to the commit.
        long index = allocator.nextIndex(xpub);
        String address;
        try {
            address = AddressDerivation.derive(network, xpub, index, environment.sandbox());
        } catch (RuntimeException e) {
            throw ApiException.conflict("wallet_not_configured", "The merchant's extended public key for "
                    + network + " cannot be used to derive addresses; ask the operator to correct it.");
        }
        OffsetDateTime now = Clock.now();
        PaymentRequest request = new PaymentRequest();
        request.id = TimeOrderedIds.next();
        request.transactionId = tx.id;
        request.cryptoAsset = asset;
        request.cryptoNetwork = network;
        request.address = address;
        request.xpub = xpub;
        request.derivationIndex = index;
        request.expectedCrypto = quote.assetAmount();
        request.receivedCrypto = BigDecimal.ZERO;
        request.expectedUSD = quote.expectedUSD();
        request.receivedUSD = Money.usd(BigDecimal.ZERO);
        request.cryptoFXRate = cryptoRate;
        request.customerFeeUSD = quote.customerFeeUSD();
        request.confirmationCount = 0;
        request.requiredConfirmations = requiredConfirmations(config, asset, network, tx.totalUSD);
        request.moveTo(PaymentRequestState.AWAITING);
        request.qrData = PaymentUri.of(catalogueNetwork, catalogueAsset, address, quote.assetAmount(), tokenContract,
                environment.chainId(catalogueNetwork));
        request.wallet = wallet;
        request.createdAt = now;
        request.expiration = now.plusSeconds(networkConfig(config, asset, network).qrExpirationSeconds());
        return request;
    }

    /** The partner's customer fee of the merchant's effective fee schedule (fees.partner.customer), if any. */
    public static FeeLine customerFee(MerchantConfiguration config) {
        return config.fees() == null || config.fees().partner() == null ? null : config.fees().partner().customer();
    }

    /**
     * Confirmations a transfer needs (docs/decisions.md §2): {@code minConfirmsHigh} when the transaction's USD total is at
     * or above {@code highThreshold}, else {@code minConfirmsLow}, of the asset on the network; the catalogue's
     * network defaults where the merchant configures none.
     */
    public static int requiredConfirmations(MerchantConfiguration config, String asset, String network,
            BigDecimal totalUSD) {
        AssetNetworkConfig own = networkConfig(config, asset, network);
        Catalogue.Network defaults = Catalogue.get().network(network).orElseThrow();
        int low = own != null ? own.minConfirmsLow() : defaults.defaultMinConfirmsLow();
        int high = own != null ? own.minConfirmsHigh() : defaults.defaultMinConfirmsHigh();
        boolean highValue = config.highThreshold() != null && totalUSD.compareTo(config.highThreshold()) >= 0;
        return Math.max(1, highValue ? high : low);
    }

    /** Seconds a QR of this asset on this network lives, from the effective configuration. */
    public static int qrExpirationSeconds(MerchantConfiguration config, String asset, String network) {
        AssetNetworkConfig own = networkConfig(config, asset, network);
        return own != null ? own.qrExpirationSeconds()
                : Catalogue.get().network(network).orElseThrow().defaultQrExpirationSeconds();
    }

    private static AssetNetworkConfig networkConfig(MerchantConfiguration config, String asset, String network) {
        Map<String, Map<String, AssetNetworkConfig>> all = config.cryptoNetworkConfigs();
        if (all == null || all.get(network) == null) {
            return null;
        }
        return all.get(network).get(asset);
    }
}

package dev.cryptopay.merchant.rest;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.cryptopay.events.MerchantConfiguration.DiscountRate;
import dev.cryptopay.merchant.domain.Settings.MerchantSettings;
import dev.cryptopay.support.paging.PageMetadata;
import java.math.BigDecimal;
import java.util.List;

/**
 * Request and response bodies of the merchant endpoints, named exactly as the interface document names them. The
 * configuration settings are {@link MerchantSettings}, unwrapped into both: they are written once, there.
 */
public final class MerchantDtos {

    private MerchantDtos() {
    }

    /** {@code merchantDiscountRate} as answered. */
    public record DiscountRateOut(BigDecimal Percentage, BigDecimal FlatRate, String FlatRateCurrency) {
    }

    /**
     * Create and update body. Create takes the fields the document lists for it; update (a full replacement)
     * also takes {@code allowedCrypto}, {@code cancelTransactionEnabled} and {@code feeConfig}, and ignores
     * {@code externalMID}. Unknown fields are ignored (docs/decisions.md §16). {@code allowedCrypto} is the one
     * setting written differently from its answer: a comma-separated string here (it shadows the unwrapped list),
     * an array in {@link MerchantSettings}.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record MerchantRequest(
            String name,
            String dba,
            String address1,
            String address2,
            String city,
            String region,
            String country,
            DiscountRate merchantDiscountRate,
            String externalMID,
            String logoFilename,
            String allowedCrypto,
            @JsonUnwrapped MerchantSettings settings) {
    }

    /** The full Merchant object: every field of the Merchant table plus the echoed configuration settings. */
    public record MerchantView(
            String createdAt,
            String updatedAt,
            String UUID,
            String name,
            String dba,
            String address1,
            String address2,
            String city,
            String region,
            String country,
            int status,
            String descriptor,
            String accountID,
            String externalMID,
            DiscountRateOut merchantDiscountRate,
            @JsonUnwrapped MerchantSettings settings,
            String logoFilename) {
    }

    public record MerchantList(List<MerchantView> merchants, PageMetadata metadata) {
    }

    /** Answer of the logo upload: the stored name and the stable URL it is served at. */
    public record LogoUploaded(String logoFilename, String logoURL) {
    }
}

package dev.cryptopay.gateway.routing;

/** How a route authenticates its caller (interface document, Authentication; docs/decisions.md §4). */
public enum AuthMode {
    /** No key; the request is forwarded with an anonymous identity. */
    PUBLIC,
    /** {@code Authorization: Bearer <operator JWT>} with group {@code operator}. */
    OPERATOR,
    /** {@code X-Api-Key}; the account is the key's. */
    API_KEY,
    /** {@code X-Api-Key} plus {@code X-MID} naming a merchant of the key's account. */
    API_KEY_AND_MID,
    /** {@code X-Publishable-Key} (possibly {@code pk_…:<subMerchantId>}). */
    PUBLISHABLE,
    /** Either {@link #PUBLISHABLE} or {@link #API_KEY_AND_MID}. */
    PUBLISHABLE_OR_API_KEY_AND_MID,
    /** {@code X-Api-Key} plus {@code X-Account-Id}, which must be the key's account. */
    API_KEY_AND_ACCOUNT_HEADER
}

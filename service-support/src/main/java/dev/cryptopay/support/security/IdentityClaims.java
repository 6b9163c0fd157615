package dev.cryptopay.support.security;

/**
 * The internal identity token the gateway mints for every request it forwards (RS256, about a minute long).
 * Services trust nothing else: no bare header, no network position.
 */
public final class IdentityClaims {
    public static final String ISSUER = "cryptopay-gateway";
    public static final String AUDIENCE = "cryptopay-services";

    /** Account UUID the caller acts for (absent for anonymous and operator calls). */
    public static final String ACCOUNT = "acct";
    /** Merchant UUID, when the gateway resolved one (X-MID or a merchant-scoped publishable key). */
    public static final String MERCHANT = "mid";
    /**
     * A merchant the caller named (X-MID, or the sub-merchant part of a publishable key), as a UUID or
     * externalMID; the owning service resolves it within {@link #ACCOUNT}.
     */
    public static final String MERCHANT_REF = "mid_ref";
    /** {@code api}, {@code publishable}, {@code operator} or {@code anonymous}. */
    public static final String KEY_TYPE = "key_type";

    /** Roles, carried in {@code groups}. */
    public static final String ROLE_ADMIN = "admin";
    public static final String ROLE_READ_ONLY = "read_only";
    public static final String ROLE_PUBLISHABLE = "publishable";
    public static final String ROLE_OPERATOR = "operator";
    public static final String ROLE_ANONYMOUS = "anonymous";
    /** The gateway itself, for the internal lookups it makes on a cache miss (never a client). */
    public static final String ROLE_GATEWAY = "gateway";

    private IdentityClaims() {
    }
}

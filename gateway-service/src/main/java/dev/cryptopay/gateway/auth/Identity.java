package dev.cryptopay.gateway.auth;

import dev.cryptopay.support.security.IdentityClaims;
import java.util.UUID;

/**
 * Who a request acts for, as the gateway established it; it becomes the claims of the internal token.
 *
 * @param subject     key id, the operator's subject, or {@code anonymous}
 * @param merchantRef a merchant named by the caller (X-MID or a sub-merchant publishable key) as a UUID or
 *                    externalMID, not yet resolved against the account's merchants
 */
public record Identity(String subject, String keyType, String role, UUID accountId, UUID merchantId,
        String merchantRef) {

    public static final Identity ANONYMOUS = new Identity("anonymous", IdentityClaims.ROLE_ANONYMOUS,
            IdentityClaims.ROLE_ANONYMOUS, null, null, null);

    /** The gateway's own identity, for its internal lookups. */
    public static final Identity GATEWAY = new Identity("gateway", IdentityClaims.ROLE_GATEWAY,
            IdentityClaims.ROLE_GATEWAY, null, null, null);

    public static Identity operator(String subject) {
        return new Identity(subject, IdentityClaims.ROLE_OPERATOR, IdentityClaims.ROLE_OPERATOR, null, null, null);
    }
}

package dev.cryptopay.events;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * Data of {@link EventTypes#KEY_UPDATED} on {@link Topics#KEYS}: the full current state of one API or
 * publishable key. Never the key itself: {@code keyHash} is the lowercase hex SHA-256 of the key string.
 *
 * @param status  1 active, -1 revoked
 * @param version increases with every change of this key; a consumer ignores a state older than the one it holds
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record KeyState(String keyId, String accountId, String keyType, String keyHash, String role,
        String merchantUUID, int status, long version, String updatedAt) {

    public static final String TYPE_API = "api";
    public static final String TYPE_PUBLISHABLE = "publishable";
    public static final int ACTIVE = 1;
    public static final int REVOKED = -1;
}

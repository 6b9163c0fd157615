package dev.cryptopay.merchant.rest;

import java.util.List;

/** Request and response bodies of the key endpoints and of account creation, named as the interface document names them. */
public final class KeyDtos {

    private KeyDtos() {
    }

    /** POST /accounts/{accountUUID}/keys. {@code role} applies to API keys only (default admin). */
    public record CreateKeyRequest(String keyType, String name, String role) {
    }

    /** {@code privateKey} is empty for publishable keys; shown once, never retrievable again. */
    public record GeneratedKey(String generatedKey, String privateKey) {
    }

    public record ApiKeyView(String UUID, String key, int status, String role, String name) {
    }

    /** {@code merchantUUID} is the empty string when the key is not scoped to a merchant. */
    public record PublishableKeyView(String UUID, String key, int status, String name, String merchantUUID) {
    }

    public record Keys(List<ApiKeyView> api, List<PublishableKeyView> publishable) {
    }

    public record KeyListing(Keys keys) {
    }

    /** POST /operator/accounts (docs/decisions.md §4). */
    public record CreateAccountRequest(String name, String email) {
    }

    public record CreatedAccount(String accountUUID, GeneratedKey apiKey) {
    }
}

package dev.cryptopay.merchant.rest;

import dev.cryptopay.events.KeyState;
import dev.cryptopay.merchant.domain.AccountKey;
import dev.cryptopay.merchant.rest.KeyDtos.ApiKeyView;
import dev.cryptopay.merchant.rest.KeyDtos.KeyListing;
import dev.cryptopay.merchant.rest.KeyDtos.Keys;
import dev.cryptopay.merchant.rest.KeyDtos.PublishableKeyView;
import java.util.List;

/** Entities to API bodies. API keys are shown masked: {@code ak_…} plus the last 4 characters (docs/decisions.md §4). */
final class KeyMapper {

    private KeyMapper() {
    }

    static KeyListing listing(List<AccountKey> keys) {
        List<ApiKeyView> api = keys.stream().filter(k -> KeyState.TYPE_API.equals(k.keyType))
                .map(k -> new ApiKeyView(k.id.toString(), "ak_…" + k.keyLast4, k.status, k.role, k.name))
                .toList();
        List<PublishableKeyView> publishable = keys.stream().filter(k -> KeyState.TYPE_PUBLISHABLE.equals(k.keyType))
                .map(k -> new PublishableKeyView(k.id.toString(), k.publishableKey, k.status, k.name,
                        k.merchantUUID == null ? "" : k.merchantUUID.toString()))
                .toList();
        return new KeyListing(new Keys(api, publishable));
    }
}

package dev.cryptopay.gateway.auth;

import dev.cryptopay.events.KeyState;
import dev.cryptopay.gateway.client.MerchantLookupClient;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.WebApplicationException;
import java.time.OffsetDateTime;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.logging.Logger;

/**
 * Keys and merchants as the gateway knows them: its own views, fed from the compacted Kafka topics, and on a
 * miss one synchronous lookup to merchant-service whose answer is kept (so a key works the moment it is
 * created). When merchant-service is down, the views keep answering for everything already known.
 */
@ApplicationScoped
public class Directory {

    private static final Logger LOG = Logger.getLogger(Directory.class);

    private final MerchantLookupClient lookup;
    private final TokenMinter minter;
    private final EntityManager em;

    public Directory(@RestClient MerchantLookupClient lookup, TokenMinter minter, EntityManager em) {
        this.lookup = lookup;
        this.minter = minter;
        this.em = em;
    }

    @Transactional
    public Optional<StoredKey> key(String keyHash) {
        StoredKey known = StoredKey.findById(keyHash);
        if (known != null) {
            return Optional.of(known);
        }
        KeyState state;
        try {
            state = lookup.key(bearer(), keyHash);
        } catch (WebApplicationException e) {
            if (e.getResponse().getStatus() != 404) {
                LOG.warnf("key lookup answered %d", e.getResponse().getStatus());
            }
            return Optional.empty();
        } catch (RuntimeException e) {
            LOG.warnf("key lookup failed: %s", e.getMessage());
            return Optional.empty();
        }
        // A row the consumer writes meanwhile wins (it carries the same or a newer version).
        em.createNativeQuery("""
                insert into gateway_key (key_hash, key_id, account_id, key_type, role, merchant_uuid, status, version,
                                         updated_at)
                values (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) on conflict do nothing""")
                .setParameter(1, state.keyHash())
                .setParameter(2, UUID.fromString(state.keyId()))
                .setParameter(3, UUID.fromString(state.accountId()))
                .setParameter(4, state.keyType())
                .setParameter(5, state.role())
                .setParameter(6, state.merchantUUID() == null ? null : UUID.fromString(state.merchantUUID()))
                .setParameter(7, state.status())
                .setParameter(8, state.version())
                .setParameter(9, OffsetDateTime.parse(state.updatedAt()))
                .executeUpdate();
        return Optional.ofNullable(StoredKey.findById(keyHash));
    }

    @Transactional
    public Optional<StoredMerchant> merchant(UUID accountId, String reference) {
        Optional<StoredMerchant> known = StoredMerchant.resolve(accountId, reference);
        if (known.isPresent()) {
            return known;
        }
        MerchantLookupClient.MerchantRef found;
        try {
            found = lookup.merchant(bearer(), accountId.toString(), reference);
        } catch (WebApplicationException e) {
            return Optional.empty();
        } catch (RuntimeException e) {
            LOG.warnf("merchant lookup failed: %s", e.getMessage());
            return Optional.empty();
        }
        em.createNativeQuery("""
                insert into gateway_merchant (merchant_id, account_id, external_mid, status, version, updated_at)
                values (?1, ?2, ?3, ?4, 0, now()) on conflict do nothing""")
                .setParameter(1, UUID.fromString(found.merchantId()))
                .setParameter(2, UUID.fromString(found.accountId()))
                .setParameter(3, found.externalMID())
                .setParameter(4, found.status())
                .executeUpdate();
        return StoredMerchant.resolve(accountId, reference);
    }

    private String bearer() {
        return "Bearer " + minter.tokenFor(Identity.GATEWAY);
    }
}

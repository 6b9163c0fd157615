package dev.cryptopay.merchant.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryptopay.events.KeyState;
import dev.cryptopay.merchant.domain.Account;
import dev.cryptopay.support.idempotency.IdempotentCreations;
import dev.cryptopay.support.security.Caller;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.OffsetDateTime;
import java.util.UUID;
import java.util.function.Function;

/** Accounts, created by the operator together with their first (admin) API key. */
@ApplicationScoped
public class AccountService {

    private final KeyService keys;
    private final IdempotentCreations creations;

    public AccountService(KeyService keys, IdempotentCreations creations) {
        this.keys = keys;
        this.creations = creations;
    }

    public record NewAccount(Account account, KeyService.NewKey apiKey) {
    }

    /** What an account creation was asked, as its Idempotency-Key record compares it. */
    private record AccountRequest(String name, String email) {
    }

    /**
     * {@link #create(String, String)} once per operator and Idempotency-Key (docs/decisions.md §122): a retry the
     * gateway could not answer gets the first answer, its key's secrets {@code null} (§28), not a second account.
     * {@code answer} is what the API shows of the new account.
     */
    @Transactional
    public IdempotentCreations.Once<JsonNode> create(Caller caller, String name, String email, String idempotencyKey,
            Function<NewAccount, ?> answer) {
        return creations.onceAsJson(caller, idempotencyKey, new AccountRequest(name, email),
                () -> answer.apply(create(name, email)));
    }

    @Transactional
    public NewAccount create(String name, String email) {
        OffsetDateTime now = OffsetDateTime.now();
        Account account = new Account();
        account.id = UUID.randomUUID();
        account.name = name.strip();
        account.email = email.strip();
        account.createdAt = now;
        account.updatedAt = now;
        account.persist();
        KeyService.NewKey apiKey = keys.create(account.id, KeyState.TYPE_API, "Default API key", "admin", null);
        return new NewAccount(account, apiKey);
    }
}

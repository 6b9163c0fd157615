package dev.cryptopay.merchant.service;

import dev.cryptopay.events.KeyState;
import dev.cryptopay.merchant.domain.Account;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.OffsetDateTime;
import java.util.UUID;

/** Accounts, created by the operator together with their first (admin) API key. */
@ApplicationScoped
public class AccountService {

    private final KeyService keys;

    public AccountService(KeyService keys) {
        this.keys = keys;
    }

    public record NewAccount(Account account, KeyService.NewKey apiKey) {
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

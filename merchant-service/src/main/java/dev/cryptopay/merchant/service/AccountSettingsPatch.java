package dev.cryptopay.merchant.service;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import dev.cryptopay.merchant.domain.Settings.AccountSettings;
import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * A partial account configuration as sent in {@code PUT /accounts/{accountUUID}/config} or the operator's account
 * update: the values, typed, and which fields the body named ({@code null} sent = clear that field). Reading it checks
 * every value's JSON type (a wrong one is the usual 400 naming the field); which fields this caller may send and what
 * values they may take is {@link AccountConfigService}'s and {@link AccountSettingsValidator}'s concern.
 *
 * @param values  the body as settings: fields not sent are null, so read them only together with {@code present}
 * @param present the top-level field names of the body, including any that are not fields of the configuration
 */
@JsonDeserialize(using = AccountSettingsPatch.Reader.class)
public record AccountSettingsPatch(AccountSettings values, Set<String> present) {

    public AccountSettingsPatch {
        present = Set.copyOf(present);
    }

    /** Reads the body once as a tree for the names it holds, then as {@link AccountSettings}. */
    public static final class Reader extends StdDeserializer<AccountSettingsPatch> {

        public Reader() {
            super(AccountSettingsPatch.class);
        }

        @Override
        public AccountSettingsPatch deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            JsonNode body = ctxt.readTree(p);
            if (!body.isObject()) {
                return (AccountSettingsPatch) ctxt.handleUnexpectedToken(AccountSettingsPatch.class,
                        body.asToken(), p, "must be a JSON object");
            }
            Set<String> present = new LinkedHashSet<>();
            body.fieldNames().forEachRemaining(present::add);
            return new AccountSettingsPatch(ctxt.readTreeAsValue(body, AccountSettings.class), present);
        }
    }
}

package dev.cryptopay.support.idempotency;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** What an Idempotency-Key record keeps of an answer (docs/decisions.md §28): never an issued secret. */
class IssuedSecretsTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void secretsAtAnyDepthAreStoredAsNull() throws Exception {
        String account = "{\"accountUUID\":\"a1\",\"apiKey\":{\"generatedKey\":\"ak_x\",\"privateKey\":\"sk\"}}";
        assertEquals(MAPPER.readTree("{\"accountUUID\":\"a1\",\"apiKey\":{\"generatedKey\":null,\"privateKey\":null}}"),
                MAPPER.readTree(IssuedSecrets.withoutSecrets(MAPPER, "application/json", bytes(account))));
        String webhook = "[{\"url\":\"https://x\",\"signingKey\":\"whsec_1\"}]";
        assertEquals(MAPPER.readTree("[{\"url\":\"https://x\",\"signingKey\":null}]"),
                MAPPER.readTree(IssuedSecrets.withoutSecrets(MAPPER, "application/json;charset=UTF-8", bytes(webhook))));
    }

    @Test
    void answersWithoutSecretsAreKeptByteForByte() {
        byte[] merchant = bytes("{\"UUID\":\"m1\",  \"name\":\"Shop\"}");
        assertArrayEquals(merchant, IssuedSecrets.withoutSecrets(MAPPER, "application/json", merchant));
        byte[] text = bytes("generatedKey");
        assertArrayEquals(text, IssuedSecrets.withoutSecrets(MAPPER, "text/plain", text));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}

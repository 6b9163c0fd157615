package dev.cryptopay.support.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryptopay.support.problem.FieldError;
import dev.cryptopay.support.problem.JsonProblems;
import dev.cryptopay.support.problem.Problem;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The suite's JSON rules (JsonSettings) and the problem each broken body gets (JsonProblems). */
class JsonStrictnessTest {

    enum Kind { FAST, SLOW }

    record Line(String name, int count) {
    }

    record Order(String name, BigDecimal amount, Integer hours, Boolean flag, UUID ref, Kind kind, List<Line> lines) {
    }

    private final ObjectMapper mapper = JsonSettings.apply(new ObjectMapper());

    @Test
    void aValidBodyStillReads() throws Exception {
        Order order = mapper.readValue("""
                {"name":"a","amount":100,"hours":3,"flag":true,"ref":"%s","kind":"FAST","lines":[{"name":"x","count":2}]}"""
                .formatted(UUID.randomUUID()), Order.class);
        assertEquals(new BigDecimal("100"), order.amount());
        assertEquals("100", mapper.writeValueAsString(new BigDecimal("1E+2")));
    }

    @ParameterizedTest(name = "{0} -> {1} {2}")
    @CsvSource(delimiter = '|', value = {
            "{\"name\":\"a\"} xyz                       | malformed_json    | ",
            "{\"name\":\"a\"}{\"name\":\"b\"}           | malformed_json    | ",
            "{\"name\":\"a\"} 1                         | malformed_json    | ",
            "{\"name\":\"a\",\"name\":\"b\"}            | malformed_json    | name",
            "{\"lines\":[{\"name\":\"a\",\"name\":\"b\"}]} | malformed_json | lines[0].name",
            "{\"amount\":NaN}                           | malformed_json    | ",
            "{\"amount\":Infinity}                      | malformed_json    | ",
            "{\"amount\":-Infinity}                     | malformed_json    | ",
            "{'name':'a'}                               | malformed_json    | ",
            "{name:\"a\"}                               | malformed_json    | ",
            "{\"amount\":007}                           | malformed_json    | ",
            "{\"name\":\"a\" /* c */}                   | malformed_json    | ",
            "{\"name\":                                 | malformed_json    | ",
            "not json                                   | malformed_json    | ",
            "[{\"name\":\"a\"}]                         | validation_failed | body",
            "\"text\"                                   | validation_failed | body",
            "{\"name\":12}                              | validation_failed | name",
            "{\"name\":1.5}                             | validation_failed | name",
            "{\"name\":true}                            | validation_failed | name",
            "{\"name\":{\"a\":1}}                       | validation_failed | name",
            "{\"hours\":1.5}                            | validation_failed | hours",
            "{\"hours\":\"lots\"}                       | validation_failed | hours",
            "{\"hours\":99999999999999}                 | validation_failed | hours",
            "{\"amount\":\"ten\"}                       | validation_failed | amount",
            "{\"flag\":\"maybe\"}                       | validation_failed | flag",
            "{\"flag\":1}                                 | validation_failed | flag",
            "{\"flag\":\"true\"}                        | validation_failed | flag",
            "{\"ref\":\"not-a-uuid\"}                   | validation_failed | ref",
            "{\"kind\":\"MEDIUM\"}                      | validation_failed | kind",
            "{\"lines\":{\"name\":\"x\"}}               | validation_failed | lines",
            "{\"lines\":[{\"count\":\"x\"}]}            | validation_failed | lines[0].count",
    })
    void everyBrokenBodyIsA400NamingTheField(String body, String code, String field) {
        Problem problem = problem(body.strip().getBytes(StandardCharsets.UTF_8));
        assertEquals(400, problem.status(), problem.toString());
        assertEquals(code, problem.code(), problem.toString());
        if (field != null) {
            assertEquals(field, problem.errors().get(0).field(), problem.toString());
        }
    }

    @Test
    void bytesThatAreNotUtf8AreMalformed() {
        byte[] body = { '{', '"', 'n', 'a', 'm', 'e', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}' };
        assertEquals("malformed_json", problem(body).code());
        byte[] latin1 = "{\"name\":\"caf\u00e9\"}".getBytes(StandardCharsets.ISO_8859_1);
        assertEquals("malformed_json", problem(latin1).code());
    }

    @Test
    void treesAreStrictToo() {
        for (String body : List.of("{\"a\":1} x", "{\"a\":1,\"a\":2}", "{\"a\":NaN}")) {
            JsonProcessingException e = assertThrows(JsonProcessingException.class,
                    () -> mapper.readTree(body), body);
            assertEquals("malformed_json", JsonProblems.of(e).code(), body);
        }
    }

    @Test
    void noExceptionTextReachesTheClient() {
        Problem problem = problem("{\"amount\":NaN}".getBytes(StandardCharsets.UTF_8));
        String text = problem.detail() + problem.errors();
        for (String leak : List.of("JsonReadFeature", "Source", "dev.cryptopay", "Order")) {
            assertEquals(-1, text.indexOf(leak), text);
        }
        Problem duplicate = problem("{\"name\":\"a\",\"name\":\"b\"}".getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of(new FieldError("name", "appears more than once")), duplicate.errors());
    }

    private Problem problem(byte[] body) {
        JsonProcessingException e = assertThrows(JsonProcessingException.class,
                () -> mapper.readValue(body, Order.class));
        return JsonProblems.of(e);
    }

    @SuppressWarnings("unused")
    private JsonNode tree(String body) throws Exception {
        return mapper.readTree(body);
    }
}

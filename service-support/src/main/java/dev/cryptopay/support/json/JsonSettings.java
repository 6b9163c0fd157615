package dev.cryptopay.support.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;

/**
 * JSON rules of the whole suite, applied to every service's (and the gateway's) ObjectMapper:
 * <ul>
 * <li>money stays exact (decimals read as BigDecimal, written without exponent), and a fraction sent where a
 * whole number is expected is an error rather than silently truncated;</li>
 * <li>a body is exactly one JSON value: anything after it ({@code {...} xyz}, a second object) is refused;</li>
 * <li>an object names each field once: a duplicate key is refused rather than the last one silently winning;</li>
 * <li>no JSON extensions: {@code NaN}/{@code Infinity}, comments, single quotes, unquoted names stay errors;</li>
 * <li>a number or boolean is not a string: {@code "name": 12} is refused instead of becoming {@code "12"}; a
 * number or string is not a boolean: {@code "forfeit": 1} and {@code "forfeit": "true"} are refused.</li>
 * </ul>
 * {@link dev.cryptopay.support.problem.ProblemMappers} answers each of these with a 400 problem.
 */
@Singleton
public class JsonSettings implements ObjectMapperCustomizer {

    @Override
    public void customize(ObjectMapper mapper) {
        apply(mapper);
    }

    /** The same rules for a mapper made outside CDI (tests, tools). */
    public static ObjectMapper apply(ObjectMapper mapper) {
        mapper.disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);
        mapper.enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
        mapper.enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
        mapper.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        mapper.enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);
        mapper.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        mapper.disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS.mappedFeature());
        mapper.disable(JsonReadFeature.ALLOW_JAVA_COMMENTS.mappedFeature());
        mapper.disable(JsonReadFeature.ALLOW_SINGLE_QUOTES.mappedFeature());
        mapper.disable(JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES.mappedFeature());
        mapper.disable(JsonReadFeature.ALLOW_LEADING_ZEROS_FOR_NUMBERS.mappedFeature());
        mapper.disable(JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS.mappedFeature());
        // Strings take only strings: numbers and booleans are not coerced into text.
        mapper.coercionConfigFor(LogicalType.Textual)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        // Booleans take only true and false: not 0/1, not "yes" or "true".
        mapper.coercionConfigFor(LogicalType.Boolean)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail);
        // Trees keep decimals as given: the default factory would turn 100 into 1E+2.
        mapper.setNodeFactory(JsonNodeFactory.withExactBigDecimals(true));
        return mapper;
    }
}

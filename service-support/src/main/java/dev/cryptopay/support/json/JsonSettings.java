package dev.cryptopay.support.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;

/**
 * JSON rules of the whole suite: money stays exact (decimals read as BigDecimal, written without exponent),
 * and a fraction sent where a whole number is expected is an error rather than silently truncated.
 */
@Singleton
public class JsonSettings implements ObjectMapperCustomizer {

    @Override
    public void customize(ObjectMapper mapper) {
        mapper.disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);
        mapper.enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
        mapper.enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
        mapper.enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);
        // Trees keep decimals as given: the default factory would turn 100 into 1E+2.
        mapper.setNodeFactory(JsonNodeFactory.withExactBigDecimals(true));
    }
}

package dev.cryptopay.support.web;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Which of the two documents a request gets: the SmallRye OpenAPI extension's order (suffix, format, Accept). */
class ServiceApiDocumentTest {

    @Test
    void yamlUnlessJsonIsAskedFor() {
        assertFalse(ServiceApiDocument.wantsJson("/q/openapi", null, null));
        assertFalse(ServiceApiDocument.wantsJson("/q/openapi", null, "*/*"));
        assertFalse(ServiceApiDocument.wantsJson("/q/openapi", null, "application/yaml"));
    }

    @Test
    void theSuffixDecidesFirst() {
        assertTrue(ServiceApiDocument.wantsJson("/q/openapi.json", "yaml", "application/yaml"));
        assertFalse(ServiceApiDocument.wantsJson("/q/openapi.yaml", "json", "application/json"));
        assertFalse(ServiceApiDocument.wantsJson("/q/openapi.yml", "json", "application/json"));
    }

    @Test
    void thenTheFormatParameterThenTheAcceptHeader() {
        assertTrue(ServiceApiDocument.wantsJson("/q/openapi", "JSON", null));
        assertFalse(ServiceApiDocument.wantsJson("/q/openapi", "yaml", "application/json"));
        assertTrue(ServiceApiDocument.wantsJson("/q/openapi", null, "text/html, Application/JSON;q=0.9"));
    }
}

package dev.cryptopay.transaction.domain;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * Customer details: the {@code optional} prefill of a creation, or what a verification submitted. Street is
 * one line ({@code street1} and {@code street2} of the prefill joined).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record CustomerDetails(String firstName, String lastName, String email, String street, String city,
        String region, String postalCode, String country) {

    public static CustomerDetails empty() {
        return new CustomerDetails(null, null, null, null, null, null, null, null);
    }

    /** The complete address of docs/decisions.md §11: street, city, region, postalCode and country. */
    public boolean hasCompleteAddress() {
        return present(street) && present(city) && present(region) && present(postalCode) && present(country);
    }

    /** This record's values, each replaced by {@code other}'s where other has one. */
    public CustomerDetails overriddenBy(CustomerDetails other) {
        return new CustomerDetails(pick(other.firstName, firstName), pick(other.lastName, lastName),
                pick(other.email, email), pick(other.street, street), pick(other.city, city),
                pick(other.region, region), pick(other.postalCode, postalCode), pick(other.country, country));
    }

    static boolean present(String value) {
        return value != null && !value.isBlank();
    }

    private static String pick(String preferred, String fallback) {
        return present(preferred) ? preferred : fallback;
    }
}

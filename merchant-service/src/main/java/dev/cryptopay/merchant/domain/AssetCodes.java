package dev.cryptopay.merchant.domain;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code allowedCrypto} as one list of codes, stripped, without empty entries or repeats, in the order given: the
 * merchant's create/update body writes it as a comma-separated string ({@code "BTC,USDC"}, as the interface document
 * has it), the account configuration as an array. Whether each code is an asset of the catalogue is the validator's
 * concern.
 */
public final class AssetCodes {

    private AssetCodes() {
    }

    /** The codes of a comma-separated string; null stays null. */
    public static List<String> parse(String commaSeparated) {
        return commaSeparated == null ? null : normalize(List.of(commaSeparated));
    }

    /** The codes of a list (an entry may itself be comma-separated); null stays null. */
    public static List<String> normalize(List<String> codes) {
        if (codes == null) {
            return null;
        }
        Set<String> unique = new LinkedHashSet<>();
        for (String entry : codes) {
            if (entry == null) {
                continue;
            }
            for (String part : entry.split(",")) {
                String code = part.strip();
                if (!code.isEmpty()) {
                    unique.add(code);
                }
            }
        }
        return new ArrayList<>(unique);
    }
}

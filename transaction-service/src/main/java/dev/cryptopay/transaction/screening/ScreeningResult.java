package dev.cryptopay.transaction.screening;

/**
 * What screening knows about an address.
 *
 * @param category the worst category the address is listed under, {@link Category#CLEAR} when unlisted
 * @param source where the listing came from (list name and entry, vendor case id); null when clear
 * @param exchangeName the exchange's name when the address is custodial (null otherwise)
 */
public record ScreeningResult(Category category, String source, String exchangeName) {

    public static ScreeningResult clear() {
        return new ScreeningResult(Category.CLEAR, null, null);
    }

    /** Whether the payment passes fraud screening ({@code fraudPass}): clear or a plain custodial exchange. */
    public boolean passes() {
        return category == Category.CLEAR || category == Category.CUSTODIAL_EXCHANGE;
    }

    public boolean custodial() {
        return category == Category.CUSTODIAL_EXCHANGE;
    }

    /** Listing categories, worst first where an address carries several. */
    public enum Category {
        SANCTIONED("sanctioned"), FRAUD("fraud"), HIGH_RISK("high-risk"), CUSTODIAL_EXCHANGE("custodial-exchange"),
        CLEAR("clear");

        private final String wire;

        Category(String wire) {
            this.wire = wire;
        }

        /** The name in lists, operator answers and {@code payment_transfer.screening}. */
        public String wire() {
            return wire;
        }

        /** The category of a wire name; null for an unknown one. */
        public static Category ofWire(String wire) {
            for (Category c : values()) {
                if (c.wire.equals(wire)) {
                    return c;
                }
            }
            return null;
        }
    }
}

package dev.cryptopay.transaction.screening;

/** The screening provider could not answer: the {@code vendor-status} trigger (docs/decisions.md §59). */
public class ScreeningUnavailableException extends Exception {

    public ScreeningUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    public ScreeningUnavailableException(String message) {
        super(message);
    }
}

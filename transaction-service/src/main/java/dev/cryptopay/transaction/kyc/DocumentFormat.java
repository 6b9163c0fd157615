package dev.cryptopay.transaction.kyc;

import java.util.Optional;

/** KYC document formats, recognised by their first bytes rather than by the declared type (docs/decisions.md §4). */
public enum DocumentFormat {
    PNG("image/png"), JPEG("image/jpeg"), PDF("application/pdf");

    /** 10 MiB per file (docs/decisions.md §4). */
    public static final long MAX_BYTES = 10L * 1024 * 1024;

    private final String mediaType;

    DocumentFormat(String mediaType) {
        this.mediaType = mediaType;
    }

    public String mediaType() {
        return mediaType;
    }

    /** PNG: 89 50 4E 47 0D 0A 1A 0A; JPEG: FF D8 FF; PDF: "%PDF-". */
    public static Optional<DocumentFormat> sniff(byte[] head) {
        if (startsWith(head, 0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A)) {
            return Optional.of(PNG);
        }
        if (startsWith(head, 0xFF, 0xD8, 0xFF)) {
            return Optional.of(JPEG);
        }
        if (startsWith(head, '%', 'P', 'D', 'F', '-')) {
            return Optional.of(PDF);
        }
        return Optional.empty();
    }

    private static boolean startsWith(byte[] data, int... expected) {
        if (data.length < expected.length) {
            return false;
        }
        for (int i = 0; i < expected.length; i++) {
            if ((data[i] & 0xFF) != expected[i]) {
                return false;
            }
        }
        return true;
    }
}

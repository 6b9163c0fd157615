package dev.cryptopay.merchant.service;

import java.util.Optional;

/** The logo formats accepted, recognised by their first bytes rather than by the declared type. */
public enum LogoFormat {
    PNG("image/png", "png"), JPEG("image/jpeg", "jpg"), WEBP("image/webp", "webp");

    /** 10 MiB (docs/decisions.md §4). */
    public static final long MAX_BYTES = 10L * 1024 * 1024;

    private final String mediaType;
    private final String extension;

    LogoFormat(String mediaType, String extension) {
        this.mediaType = mediaType;
        this.extension = extension;
    }

    public String mediaType() {
        return mediaType;
    }

    public String extension() {
        return extension;
    }

    /** PNG: 89 50 4E 47 0D 0A 1A 0A; JPEG: FF D8 FF; WebP: "RIFF" ???? "WEBP". */
    public static Optional<LogoFormat> sniff(byte[] head) {
        if (startsWith(head, 0, 0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A)) {
            return Optional.of(PNG);
        }
        if (startsWith(head, 0, 0xFF, 0xD8, 0xFF)) {
            return Optional.of(JPEG);
        }
        if (startsWith(head, 0, 'R', 'I', 'F', 'F') && startsWith(head, 8, 'W', 'E', 'B', 'P')) {
            return Optional.of(WEBP);
        }
        return Optional.empty();
    }

    private static boolean startsWith(byte[] data, int offset, int... expected) {
        if (data.length < offset + expected.length) {
            return false;
        }
        for (int i = 0; i < expected.length; i++) {
            if ((data[offset + i] & 0xFF) != expected[i]) {
                return false;
            }
        }
        return true;
    }
}

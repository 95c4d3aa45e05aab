package dev.vigil.schemas.validate;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** Decodes {@code %XX} escapes so an encoded value ({@code alice%40example.com}) cannot hide from a detector. */
final class PercentDecoding {
    /**
     * Layers of encoding read before giving up. Real values are encoded once, at most twice (a URL inside a URL);
     * a value still changing after this many rounds is hiding something and is refused rather than half-read.
     */
    static final int MAX_ROUNDS = 8;

    private PercentDecoding() {}

    /**
     * The value with its {@code %XX} escapes decoded as UTF-8 until nothing changes (an escape of an escape is
     * decoded again, however deep), or the value itself when it has none; null when it still changes after
     * {@link #MAX_ROUNDS} rounds. Malformed escapes stay as they are; {@code +} is not a space in a path.
     */
    static String decode(String value) {
        String current = value;
        for (int round = 0; current.indexOf('%') >= 0; round++) {
            String next = decodeOnce(current);
            if (next.equals(current)) {
                return current;
            }
            if (round == MAX_ROUNDS) {
                return null;
            }
            current = next;
        }
        return current;
    }

    private static String decodeOnce(String value) {
        var bytes = new ByteArrayOutputStream(value.length());
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < utf8.length; i++) {
            int hi = i + 2 < utf8.length && utf8[i] == '%' ? Character.digit(utf8[i + 1], 16) : -1;
            int lo = hi >= 0 ? Character.digit(utf8[i + 2], 16) : -1;
            if (lo >= 0) {
                bytes.write(hi << 4 | lo);
                i += 2;
            } else {
                bytes.write(utf8[i]);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}

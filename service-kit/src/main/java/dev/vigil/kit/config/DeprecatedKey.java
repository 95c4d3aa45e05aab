package dev.vigil.kit.config;

import java.util.regex.Pattern;

/**
 * A key of the configuration shape before the current one, still read for one release: {@link ConfigLoader} moves
 * its value to {@code newKey} and warns once, naming both keys. Each service declares its table next to its
 * configuration record.
 *
 * @param oldKey the old key path, e.g. {@code kafka.sendTimeoutMs}
 * @param newKey the key path that replaces it, e.g. {@code kafka.sendTimeout}
 * @param unit   for an old number of milliseconds, seconds, ... the unit its value is written with as duration text
 *               ({@code 1500} becomes {@code 1500ms}); null when the value moves unchanged
 */
public record DeprecatedKey(String oldKey, String newKey, String unit) {
    private static final Pattern WHOLE_NUMBER = Pattern.compile("\\d{1,12}");

    public DeprecatedKey {
        if (oldKey == null || oldKey.isBlank() || newKey == null || newKey.isBlank() || oldKey.equals(newKey)) {
            throw new IllegalArgumentException("a deprecated key needs an old and a different new key path");
        }
    }

    /** The key moved or renamed; its value is unchanged. */
    public static DeprecatedKey renamed(String oldKey, String newKey) {
        return new DeprecatedKey(oldKey, newKey, null);
    }

    /** A number of milliseconds ({@code fooMs: 1500}) that is now duration text ({@code foo: 1500ms}). */
    public static DeprecatedKey millis(String oldKey, String newKey) {
        return new DeprecatedKey(oldKey, newKey, "ms");
    }

    public static DeprecatedKey seconds(String oldKey, String newKey) {
        return new DeprecatedKey(oldKey, newKey, "s");
    }

    public static DeprecatedKey minutes(String oldKey, String newKey) {
        return new DeprecatedKey(oldKey, newKey, "m");
    }

    public static DeprecatedKey days(String oldKey, String newKey) {
        return new DeprecatedKey(oldKey, newKey, "d");
    }

    /**
     * The old value as the new key takes it: a whole number gets the unit; anything else (a negative number, text)
     * passes unchanged and the new key's own check names the problem.
     */
    String convert(String value) {
        String v = value.strip();
        return unit != null && WHOLE_NUMBER.matcher(v).matches() ? v + unit : value;
    }
}

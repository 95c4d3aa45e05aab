package dev.vigil.schemas.contract;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** The validation rules shared by every contract record: one place, one message style. */
public final class Require {
    /** Monitor ids, app ids, region names, worker ids. */
    public static final Pattern SLUG = Pattern.compile("[a-z0-9][a-z0-9-]{0,62}");

    public static final Pattern METRIC_NAME = Pattern.compile("[a-z][a-z0-9_]{0,63}");
    /** {@code <rule-or-service>/<subject>}, e.g. {@code monitor/api} or {@code worker/us-east/w-1}. */
    public static final Pattern FINGERPRINT =
            Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}(/[A-Za-z0-9._:-]{1,128}){1,4}");

    private Require() {}

    public static <T> T present(String field, T value) {
        if (value == null) {
            throw new ContractViolation(field, "is required");
        }
        return value;
    }

    public static String text(String field, String value, int maxLength) {
        present(field, value);
        if (value.isBlank()) {
            throw new ContractViolation(field, "must not be blank");
        }
        return optionalText(field, value, maxLength);
    }

    public static String optionalText(String field, String value, int maxLength) {
        if (value != null) {
            if (value.length() > maxLength) {
                throw new ContractViolation(field, "must be at most " + maxLength + " characters");
            }
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if (c < 0x20 && c != '\t') {
                    throw new ContractViolation(field, "must not contain control characters");
                }
            }
        }
        return value;
    }

    public static String matches(String field, String value, Pattern pattern, String what) {
        present(field, value);
        if (!matchesPattern(value, pattern)) {
            throw new ContractViolation(field, "must be " + what);
        }
        return value;
    }

    /**
     * {@code pattern.matcher(value).matches()}, with hand-written loops for {@link #SLUG}, {@link #METRIC_NAME} and
     * {@link #FINGERPRINT}: every ingested event, probe result and alert evaluation is checked, and the loops cost a
     * fraction of a regex match
     * (RequireTest holds them equal to the patterns).
     */
    static boolean matchesPattern(String value, Pattern pattern) {
        if (pattern == SLUG) {
            return charClassRun(value, 63, false, '-');
        }
        if (pattern == METRIC_NAME) {
            return charClassRun(value, 64, true, '_');
        }
        if (pattern == FINGERPRINT) {
            return isFingerprint(value);
        }
        return pattern.matcher(value).matches();
    }

    /** {@link #FINGERPRINT}: a head of 1-64 [a-z0-9._-] starting with [a-z0-9], then 1-4 "/" + 1-128 [A-Za-z0-9._:-]. */
    private static boolean isFingerprint(String value) {
        int n = value.length();
        int slash = value.indexOf('/');
        if (slash < 1 || slash > 64) {
            return false;
        }
        char first = value.charAt(0);
        if (!((first >= 'a' && first <= 'z') || (first >= '0' && first <= '9'))) {
            return false;
        }
        for (int i = 1; i < slash; i++) {
            char c = value.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-')) {
                return false;
            }
        }
        int segments = 0;
        int start = slash + 1;
        while (true) {
            int end = value.indexOf('/', start);
            int stop = end < 0 ? n : end;
            int length = stop - start;
            if (length < 1 || length > 128 || ++segments > 4) {
                return false;
            }
            for (int i = start; i < stop; i++) {
                char c = value.charAt(i);
                if (!((c >= 'a' && c <= 'z')
                        || (c >= 'A' && c <= 'Z')
                        || (c >= '0' && c <= '9')
                        || c == '.'
                        || c == '_'
                        || c == ':'
                        || c == '-')) {
                    return false;
                }
            }
            if (end < 0) {
                return true;
            }
            start = end + 1;
        }
    }

    /** 1..max characters of [a-z0-9] and {@code extra}; the first [a-z] only if {@code letterFirst}, else [a-z0-9]. */
    private static boolean charClassRun(String value, int max, boolean letterFirst, char extra) {
        int n = value.length();
        if (n < 1 || n > max) {
            return false;
        }
        char first = value.charAt(0);
        if (!(first >= 'a' && first <= 'z') && (letterFirst || !(first >= '0' && first <= '9'))) {
            return false;
        }
        for (int i = 1; i < n; i++) {
            char c = value.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == extra)) {
                return false;
            }
        }
        return true;
    }

    public static String slug(String field, String value) {
        return matches(field, value, SLUG, "a slug of 1-63 characters [a-z0-9-] starting with a letter or digit");
    }

    public static int range(String field, int value, int min, int max) {
        if (value < min || value > max) {
            throw new ContractViolation(field, "must be between " + min + " and " + max);
        }
        return value;
    }

    public static long atLeast(String field, long value, long min) {
        if (value < min) {
            throw new ContractViolation(field, "must be at least " + min);
        }
        return value;
    }

    public static double finite(String field, double value) {
        if (!Double.isFinite(value)) {
            throw new ContractViolation(field, "must be a finite number");
        }
        return value;
    }

    public static int schemaVersion(Integer value) {
        present("schemaVersion", value);
        return range("schemaVersion", value, 1, Integer.MAX_VALUE);
    }

    /** A bounded, immutable, key-sorted string map; null becomes empty. */
    public static Map<String, String> stringMap(
            String field, Map<String, String> map, int maxEntries, int maxKeyLength, int maxValueLength) {
        if (map == null) {
            return Map.of();
        }
        if (map.size() > maxEntries) {
            throw new ContractViolation(field, "must have at most " + maxEntries + " entries");
        }
        var sorted = new java.util.TreeMap<String, String>();
        for (var e : map.entrySet()) {
            String key = e.getKey();
            if (key == null || key.isBlank() || key.length() > maxKeyLength) {
                throw new ContractViolation(field, "keys must be 1-" + maxKeyLength + " characters");
            }
            String path = field + "." + key;
            sorted.put(key, text(path, e.getValue(), maxValueLength));
        }
        // a SortedMap view: Jackson writes it as it is instead of sorting a copy per serialization
        return java.util.Collections.unmodifiableSortedMap(sorted);
    }

    /** An immutable list; null becomes empty; null elements are refused. */
    public static <T> List<T> list(String field, List<T> list, int maxSize) {
        if (list == null) {
            return List.of();
        }
        if (list.size() > maxSize) {
            throw new ContractViolation(field, "must have at most " + maxSize + " entries");
        }
        for (int i = 0; i < list.size(); i++) {
            present(field + "[" + i + "]", list.get(i));
        }
        return List.copyOf(list);
    }
}

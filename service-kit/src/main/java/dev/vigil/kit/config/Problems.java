package dev.vigil.kit.config;

import dev.vigil.schemas.contract.ContractViolation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The problems of one configuration, collected instead of thrown one at a time, so that a start-up names every
 * wrong key at once. A configuration record's constructor checks each of its settings through one collector and
 * ends with {@link #throwIfAny()}:
 *
 * <pre>{@code
 * public Limits {
 *     Problems p = new Problems();
 *     maxEvents = p.range("maxEvents", maxEvents, 1000, 1, 100_000);
 *     headerTimeout = p.duration("headerTimeout", headerTimeout, Duration.ofSeconds(10), ...);
 *     p.throwIfAny();
 * }
 * }</pre>
 *
 * Keys are relative to the record; {@link ConfigLoader} adds the path of the record in the file. Each check returns
 * the value to keep (its default when absent), also when it records a problem, so later checks still run. Messages
 * never repeat a value: a misplaced secret must not reach a log.
 */
public final class Problems {
    /** Kafka's own rule for topic names. */
    private static final Pattern TOPIC = Pattern.compile("[A-Za-z0-9._-]{1,249}");

    /** One problem: the key path it is about (empty for the whole configuration) and what is wrong. */
    public record Problem(String key, String message) {
        @Override
        public String toString() {
            return key.isEmpty() ? message : key + ": " + message;
        }
    }

    private final List<Problem> found;
    private final String prefix;

    public Problems() {
        this(new ArrayList<>(), "");
    }

    private Problems(List<Problem> found, String prefix) {
        this.found = found;
        this.prefix = prefix;
    }

    /** The same collector, with keys under {@code key}: {@code at("limits").add("maxEvents", ..)} is limits.maxEvents. */
    public Problems at(String key) {
        return new Problems(found, join(prefix, key));
    }

    /** {@code a} + {@code b} as one key path: {@code kafka} + {@code topics} is {@code kafka.topics}, + {@code [2]} is {@code x[2]}. */
    public static String join(String path, String key) {
        if (path.isEmpty()) {
            return key;
        }
        if (key.isEmpty()) {
            return path;
        }
        return key.startsWith("[") ? path + key : path + "." + key;
    }

    public void add(String key, String message) {
        found.add(new Problem(join(prefix, key), message));
    }

    public boolean isEmpty() {
        return found.isEmpty();
    }

    /** Every problem so far, in the order found (of the whole collector, not only this view's keys). */
    public List<Problem> list() {
        return List.copyOf(found);
    }

    /** Ends a record's checks: throws {@link InvalidConfig} with every problem found, if any. */
    public void throwIfAny() {
        if (!found.isEmpty()) {
            throw new InvalidConfig(found);
        }
    }

    /** Records {@code message} for {@code key} unless {@code ok}; returns {@code ok}. */
    public boolean check(boolean ok, String key, String message) {
        if (!ok) {
            add(key, message);
        }
        return ok;
    }

    public <T> T required(String key, T value) {
        check(value != null, key, "is required");
        return value;
    }

    /** Text of at most {@code maxLength} characters, not blank, no control characters; {@code dflt} when absent. */
    public String text(String key, String value, String dflt, int maxLength) {
        String v = value == null ? dflt : value;
        if (v == null) {
            add(key, "is required");
        } else if (v.isBlank()) {
            add(key, "must not be blank");
        } else if (v.length() > maxLength) {
            add(key, "must be at most " + maxLength + " characters");
        } else if (v.chars().anyMatch(c -> c < 0x20 && c != '\t')) {
            add(key, "must not contain control characters");
        }
        return v;
    }

    public String matches(String key, String value, Pattern pattern, String what) {
        if (value == null) {
            add(key, "is required");
        } else {
            check(pattern.matcher(value).matches(), key, "must be " + what);
        }
        return value;
    }

    /** A Kafka topic name; {@code dflt} when absent. */
    public String topic(String key, String value, String dflt) {
        String v = value == null ? dflt : value;
        check(
                v != null && TOPIC.matcher(v).matches(),
                key,
                "must be a Kafka topic name ([A-Za-z0-9._-], at most 249 characters)");
        return v;
    }

    public int range(String key, Integer value, int dflt, int min, int max) {
        int v = value == null ? dflt : value;
        check(v >= min && v <= max, key, "must be between " + min + " and " + max);
        return v;
    }

    public long range(String key, Long value, long dflt, long min, long max) {
        long v = value == null ? dflt : value;
        check(v >= min && v <= max, key, "must be between " + min + " and " + max);
        return v;
    }

    /** A duration between {@code min} and {@code max} (both included); {@code dflt} when absent. */
    public Duration duration(String key, Duration value, Duration dflt, Duration min, Duration max) {
        Duration v = value == null ? dflt : value;
        check(
                v.compareTo(min) >= 0 && v.compareTo(max) <= 0,
                key,
                "must be between " + DurationText.format(min) + " and " + DurationText.format(max));
        return v;
    }

    /** A duration of at least {@code min}; {@code dflt} when absent. */
    public Duration duration(String key, Duration value, Duration dflt, Duration min) {
        Duration v = value == null ? dflt : value;
        check(v.compareTo(min) >= 0, key, "must be at least " + DurationText.format(min));
        return v;
    }

    /**
     * Runs one of the contracts' rules ({@code Require.slug}, {@code Require.list}, ...) so configuration and wire
     * share one wording: its {@link ContractViolation} becomes a problem of the field it names. Returns the rule's
     * value, or null when it failed.
     */
    public <T> T contract(Supplier<T> rule) {
        try {
            return rule.get();
        } catch (ContractViolation e) {
            add(e.field(), e.problem());
            return null;
        }
    }
}

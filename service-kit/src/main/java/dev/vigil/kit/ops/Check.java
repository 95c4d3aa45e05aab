package dev.vigil.kit.ops;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The outcome of a health or readiness check, as a service reports it to {@link OpsRoutes}.
 *
 * @param reason  null when the check passes; otherwise why not, in words an operator can act on (the problem detail)
 * @param details flat facts shown with the answer either way (strings, numbers, booleans), sorted by name
 */
public record Check(String reason, Map<String, Object> details) {
    public Check {
        details = details == null || details.isEmpty() ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(details));
    }

    public static Check up() {
        return new Check(null, Map.of());
    }

    public static Check up(Map<String, ?> details) {
        return new Check(null, new TreeMap<>(details));
    }

    public static Check down(String reason) {
        return down(reason, Map.of());
    }

    public static Check down(String reason, Map<String, ?> details) {
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("a failing check needs a reason");
        }
        return new Check(reason, new TreeMap<>(details));
    }

    /** Up when {@code reasonOrNull} is null, else down for that reason. */
    public static Check unless(String reasonOrNull) {
        return reasonOrNull == null ? up() : down(reasonOrNull);
    }

    public boolean passing() {
        return reason == null;
    }
}

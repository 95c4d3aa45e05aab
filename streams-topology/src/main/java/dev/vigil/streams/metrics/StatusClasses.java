package dev.vigil.streams.metrics;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which statuses count as errors, and whether a status class is selected by a rule filter.
 *
 * <p>An error is a 5xx HTTP status, or a non-numeric status that says the operation failed
 * ({@link #FAILURE_WORDS}, case-insensitive). 4xx statuses are the caller's errors, not the application's,
 * and are not counted (the 5xx-ratio rule is about the service failing). Absent status ({@code none}) is not
 * an error.
 */
public final class StatusClasses {
    public static final Set<String> FAILURE_WORDS = Set.of(
            "error",
            "errored",
            "fail",
            "failed",
            "failure",
            "timeout",
            "timed_out",
            "rejected",
            "exception",
            "crashed",
            "aborted");

    private StatusClasses() {}

    /** True when the status class (as {@link dev.vigil.schemas.contract.DomainMetric#statusClass()}) is an error. */
    public static boolean isError(String statusClass) {
        return "5xx".equals(statusClass) || FAILURE_WORDS.contains(statusClass.toLowerCase(Locale.ROOT));
    }

    /**
     * True when a rule filter selects the status class: an empty filter selects everything; entries are
     * classes ({@code 5xx}) or status values ({@code archived}), compared case-insensitively. A specific HTTP
     * status in a filter ({@code 503}) selects its class, because windows are kept per class.
     */
    public static boolean selects(List<String> filter, String statusClass) {
        if (filter.isEmpty()) {
            return true;
        }
        for (String f : filter) {
            if (f.equalsIgnoreCase(statusClass)) {
                return true;
            }
            if (f.length() == 3
                    && Character.isDigit(f.charAt(0))
                    && Character.isDigit(f.charAt(1))
                    && Character.isDigit(f.charAt(2))
                    && statusClass.equals(f.charAt(0) + "xx")) {
                return true;
            }
        }
        return false;
    }
}

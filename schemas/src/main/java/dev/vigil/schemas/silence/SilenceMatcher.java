package dev.vigil.schemas.silence;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Decides whether an alert event is silenced at a time: pure, over an immutable snapshot of silences.
 * The time is the evaluation's event time, so a replay with the same silences gives the same answer. "Active" is
 * {@link Silence#activeAt}: for a maintenance window, only inside one of its occurrences.
 */
public final class SilenceMatcher {
    private final List<Silence> silences;

    public SilenceMatcher(Collection<Silence> silences) {
        this.silences = List.copyOf(silences);
    }

    public static SilenceMatcher none() {
        return new SilenceMatcher(List.of());
    }

    /** True when at least one silence is active at {@code at} and matches the event's fields. */
    public boolean isSilenced(String fingerprint, String service, Map<String, String> attributes, long at) {
        for (Silence s : silences) {
            if (s.activeAt(at) && s.matches(fingerprint, service, attributes)) {
                return true;
            }
        }
        return false;
    }

    /** The silences active at {@code at} that match, ordered by id (for audit and the query API). */
    public List<Silence> matching(String fingerprint, String service, Map<String, String> attributes, long at) {
        List<Silence> out = new ArrayList<>();
        for (Silence s : silences) {
            if (s.activeAt(at) && s.matches(fingerprint, service, attributes)) {
                out.add(s);
            }
        }
        out.sort(Comparator.comparing(Silence::id));
        return out;
    }

    /** Silences not yet ended at {@code at} (active or scheduled), ordered by start then id. */
    public List<Silence> current(long at) {
        List<Silence> out = new ArrayList<>();
        for (Silence s : silences) {
            if (!s.expiredAt(at)) {
                out.add(s);
            }
        }
        out.sort(Comparator.comparing(Silence::startsAt).thenComparing(Silence::id));
        return out;
    }
}

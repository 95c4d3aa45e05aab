package dev.vigil.notifier.core;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * How a route groups its chat pages: events whose {@code by} values are equal and that reach a chat channel within
 * {@code wait} of the first go out in one message there. {@code service} names the event's service; any other entry
 * names an attribute (an event without it groups under the empty value).
 */
public record Grouping(List<String> by, Duration within) {
    /** The {@code by} entry that names the event's service rather than an attribute. */
    public static final String SERVICE = "service";
    /** Without {@code by}: the event's service. */
    public static final List<String> DEFAULT_BY = List.of(SERVICE);
    /** Without {@code wait}: long enough for a burst of monitors of one outage, short for a page. */
    public static final Duration DEFAULT_WAIT = Duration.ofSeconds(5);
    /** Longer would hold a page back further than anyone on call accepts. */
    public static final Duration MAX_WAIT = Duration.ofMinutes(5);
    /**
     * At most this many events in one message: a bigger burst goes out in several, so one message stays within
     * every chat vendor's size limits and one failed send holds back no more.
     */
    public static final int MAX_EVENTS = 100;

    public Grouping {
        by = by == null || by.isEmpty() ? DEFAULT_BY : List.copyOf(by);
        within = within == null ? DEFAULT_WAIT : within;
    }

    /** The values events must share to go out together. */
    public List<String> key(AlertEvent e) {
        List<String> values = new ArrayList<>(by.size());
        for (String b : by) {
            values.add(SERVICE.equals(b) ? e.service() : e.attributes().getOrDefault(b, ""));
        }
        return values;
    }

    /**
     * Whether an event of this state waits for its group: pages and resolutions do; an acknowledgement is a
     * notice to the people already paged and goes at once.
     */
    public static boolean groups(AlertState state) {
        return state != AlertState.ACKNOWLEDGED;
    }

    @Override
    public String toString() {
        return "by " + by + " within " + dev.vigil.kit.config.DurationText.format(within);
    }
}

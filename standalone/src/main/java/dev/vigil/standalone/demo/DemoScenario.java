package dev.vigil.standalone.demo;

import java.time.Duration;

/**
 * What each demo target answers at a given time since the demo started, as a pure function so the
 * story is testable without waiting for it. Timeline with 10 s windows (the demo's interval):
 * <ul>
 *   <li>{@code healthy}: always {@code {"status":"ok"}}.</li>
 *   <li>{@code outage}: healthy, then HTTP 503 from {@link #OUTAGE_START} to {@link #OUTAGE_END}, then healthy:
 *       one page opened, reminders while it lasts, one resolution.</li>
 *   <li>{@code escalating}: healthy; then failing in one region only (degraded: a warning after two windows);
 *       then failing everywhere (down: escalated to critical); then healthy again.</li>
 *   <li>{@code flapping}: alternates every window between failing and healthy for a while: at most one page,
 *       because resolution needs two healthy windows in a row.</li>
 *   <li>{@code slow}: answers after {@link #SLOW_DELAY}, beyond its monitor's maxResponseMs.</li>
 *   <li>{@code status-down}: HTTP 200 with {@code {"status":"down"}}: an assertion failure.</li>
 * </ul>
 */
public final class DemoScenario {
    public static final Duration OUTAGE_START = Duration.ofSeconds(40);
    public static final Duration OUTAGE_END = Duration.ofSeconds(200);
    public static final Duration DEGRADE_START = Duration.ofSeconds(60);
    public static final Duration ESCALATE_START = Duration.ofSeconds(100);
    public static final Duration ESCALATE_END = Duration.ofSeconds(160);
    public static final Duration FLAP_END = Duration.ofSeconds(120);
    public static final Duration SLOW_DELAY = Duration.ofMillis(1500);
    /** The region that fails first in the escalating scenario. */
    public static final String FIRST_FAILING_REGION = "eu-west";

    private DemoScenario() {}

    /** A canned answer: status, JSON body and delay. */
    public record Answer(int status, String body, Duration delay) {
        public static Answer ok() {
            return new Answer(200, "{\"status\":\"ok\"}", Duration.ZERO);
        }

        public static Answer unavailable() {
            return new Answer(503, "{\"status\":\"unavailable\"}", Duration.ZERO);
        }
    }

    /** @return the answer, or null for an unknown target */
    public static Answer answer(String target, Duration sinceStart, String region) {
        return switch (target) {
            case "healthy" -> Answer.ok();
            case "outage" -> between(sinceStart, OUTAGE_START, OUTAGE_END) ? Answer.unavailable() : Answer.ok();
            case "escalating" -> {
                if (between(sinceStart, ESCALATE_START, ESCALATE_END)) {
                    yield Answer.unavailable();
                }
                boolean degraded = between(sinceStart, DEGRADE_START, ESCALATE_START);
                yield degraded && FIRST_FAILING_REGION.equals(region) ? Answer.unavailable() : Answer.ok();
            }
            case "flapping" -> sinceStart.compareTo(FLAP_END) < 0 && (sinceStart.toSeconds() / 10) % 2 == 1
                    ? Answer.unavailable()
                    : Answer.ok();
            case "slow" -> new Answer(200, "{\"status\":\"ok\"}", SLOW_DELAY);
            case "status-down" -> new Answer(200, "{\"status\":\"down\"}", Duration.ZERO);
            default -> null;
        };
    }

    private static boolean between(Duration t, Duration from, Duration to) {
        return t.compareTo(from) >= 0 && t.compareTo(to) < 0;
    }
}

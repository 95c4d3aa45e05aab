package dev.vigil.streams.verdict;

import dev.vigil.schemas.contract.Status;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.Map;

/** Counters of the verdict processor. Tags are bounded (status, trigger). */
public final class VerdictMetrics {
    /** Why a verdict was emitted. */
    public enum Trigger {
        COMPLETE,
        DEADLINE,
        DEFINITION_CHANGE
    }

    private final Map<Trigger, Map<Status, Counter>> emitted = new EnumMap<>(Trigger.class);
    private final Counter late;
    private final Counter unmonitored;
    private final Counter duplicate;
    private final Counter invalid;
    private final Counter heldForBacklog;

    public VerdictMetrics(MeterRegistry registry) {
        for (Trigger t : Trigger.values()) {
            Map<Status, Counter> byStatus = new EnumMap<>(Status.class);
            for (Status s : Status.values()) {
                byStatus.put(
                        s,
                        Counter.builder("vigil.verdict.emitted")
                                .description("window verdicts emitted")
                                .tag("status", s.wire())
                                .tag("trigger", t.name().toLowerCase(java.util.Locale.ROOT))
                                .register(registry));
            }
            emitted.put(t, byStatus);
        }
        late = Counter.builder("vigil.verdict.late.results")
                .description("probe results that arrived after their window's verdict; dropped")
                .register(registry);
        unmonitored = Counter.builder("vigil.verdict.unmonitored.results")
                .description("probe results for unknown or disabled monitors; dropped")
                .register(registry);
        duplicate = Counter.builder("vigil.verdict.duplicate.results")
                .description("second result of one region for one window; the first is kept")
                .register(registry);
        invalid = Counter.builder("vigil.verdict.invalid.records")
                .description("records sent to the dead-letter topic by the verdict processor")
                .register(registry);
        heldForBacklog = Counter.builder("vigil.verdict.backlog.holds")
                .description("punctuations that held due windows because unread results could still hold theirs")
                .register(registry);
    }

    void emitted(Trigger trigger, Status status) {
        emitted.get(trigger).get(status).increment();
    }

    void late() {
        late.increment();
    }

    void unmonitored() {
        unmonitored.increment();
    }

    void duplicate() {
        duplicate.increment();
    }

    void invalid() {
        invalid.increment();
    }

    void heldForBacklog() {
        heldForBacklog.increment();
    }

    public double heldForBacklogCount() {
        return heldForBacklog.count();
    }

    public double lateCount() {
        return late.count();
    }

    public double emittedCount() {
        return emitted.values().stream()
                .flatMap(m -> m.values().stream())
                .mapToDouble(Counter::count)
                .sum();
    }
}

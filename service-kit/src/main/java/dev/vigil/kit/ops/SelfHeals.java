package dev.vigil.kit.ops;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Recoveries a service made without a person: one counter for all of them, {@code vigil_self_heals_total}, told apart
 * by its {@code kind} tag, so one dashboard panel and one alert rule cover every service. Each kind counts a recovery
 * as it is made (the retried send got through, the dead thread is being replaced, the abandoned delivery is sent
 * again), never the failure alone: a rate that rises says Vigil is absorbing faults that would otherwise have needed
 * someone.
 *
 * <p>A service names the kinds it can heal when it builds this; their series then exist at 0 from the start, so the
 * dashboard reads 0 rather than "No data" before the first recovery. The kinds are a closed list: a tag value
 * made up at run time would grow the series without bound.
 */
public final class SelfHeals {
    /** The Micrometer name; Prometheus exposes it as {@code vigil_self_heals_total}. */
    public static final String NAME = "vigil.self.heals";

    public static final String KIND = "kind";

    /** Notifier: a delivery whose send failed transiently at least once and then got through on a retry. */
    public static final String DELIVERY_RETRY_SUCCEEDED = "delivery_retry_succeeded";

    /** Streams: a stream thread that died on a transient error and was replaced by a new one. */
    public static final String STREAMS_THREAD_REPLACED = "streams_thread_replaced";

    /** Notifier: a rebalance took partitions from the alert consumer and it went on with its new assignment. */
    public static final String CONSUMER_REBALANCE_SURVIVED = "consumer_rebalance_survived";

    /** Notifier: a claim its holder left unsettled past its lease (died or hung mid-send), taken over and sent again. */
    public static final String CLAIM_RESENT = "claim_resent";

    /** Probe worker sending to ingest: a batch of results ingest did not take for a transient reason, taken on a retry. */
    public static final String PUBLISH_RETRY_SUCCEEDED = "publish_retry_succeeded";

    /** Every kind there is. */
    public static final List<String> KINDS = List.of(
            DELIVERY_RETRY_SUCCEEDED,
            STREAMS_THREAD_REPLACED,
            CONSUMER_REBALANCE_SURVIVED,
            CLAIM_RESENT,
            PUBLISH_RETRY_SUCCEEDED);

    private final MeterRegistry registry;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();

    /**
     * @param kinds the kinds this service heals, registered at 0 now
     * @throws IllegalArgumentException for a kind not in {@link #KINDS}
     */
    public SelfHeals(MeterRegistry registry, String... kinds) {
        this.registry = Objects.requireNonNull(registry, "registry");
        for (String kind : kinds) {
            counter(kind);
        }
    }

    /**
     * Counts one recovery of {@code kind}.
     *
     * @throws IllegalArgumentException for a kind not in {@link #KINDS}
     */
    public void record(String kind) {
        counter(kind).increment();
    }

    /** How many recoveries of {@code kind} were counted in this registry (0 when none). */
    public double count(String kind) {
        return counter(kind).count();
    }

    private Counter counter(String kind) {
        if (!KINDS.contains(kind)) {
            throw new IllegalArgumentException("not a self-heal kind: " + kind + "; the kinds are " + KINDS);
        }
        return counters.computeIfAbsent(kind, k -> Counter.builder(NAME)
                .description("Recoveries this service made without a person, by kind")
                .tag(KIND, k)
                .register(registry));
    }
}

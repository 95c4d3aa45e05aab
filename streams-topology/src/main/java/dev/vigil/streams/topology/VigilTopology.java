package dev.vigil.streams.topology;

import dev.vigil.streams.config.AlertingConfig;
import dev.vigil.streams.config.TopologyConfig;
import dev.vigil.streams.trace.HopSpans;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.streams.Topology;

/**
 * The whole Streams topology as a pure function of {@link TopologyConfig}: no broker, no threads, no HTTP.
 * Each concern adds itself through a small {@code addTo} builder; a new concern (metric windows, alert
 * rules) adds its own builder here and attaches to {@link VerdictTopology#VERDICTS_NODE} or
 * {@link WorkerHealthTopology#HEALTH_UPDATES_NODE} to consume verdicts or worker health updates.
 */
public final class VigilTopology {
    private VigilTopology() {}

    /** The whole topology with default alerting settings. */
    public static Topology build(TopologyConfig cfg) {
        return build(cfg, AlertingConfig.defaults(), new SimpleMeterRegistry());
    }

    /**
     * The status half alone (verdicts, status, worker health), for tests and benchmarks of that half.
     *
     * @param registry where processors count (late results, verdicts, dead letters); never read by the topology
     */
    public static Topology build(TopologyConfig cfg, MeterRegistry registry) {
        Topology topology = new Topology();
        VerdictTopology.addTo(topology, cfg, registry);
        WorkerHealthTopology.addTo(topology, cfg);
        return topology;
    }

    /** The whole topology: the status half plus alerting (metric windows, rules, alert state, silences). */
    public static Topology build(TopologyConfig cfg, AlertingConfig alerting, MeterRegistry registry) {
        return build(cfg, alerting, registry, HopSpans.OFF);
    }

    /**
     * The whole topology, its verdicts and monitor alerts hops of the trace a probe result began.
     *
     * @param spans records each hop's span (or only passes the context on, with export off); never read as input
     */
    public static Topology build(TopologyConfig cfg, AlertingConfig alerting, MeterRegistry registry, HopSpans spans) {
        Topology topology = new Topology();
        VerdictTopology.addTo(topology, cfg, registry, spans);
        WorkerHealthTopology.addTo(topology, cfg);
        AlertingTopology.addTo(topology, cfg, alerting, registry, spans);
        return topology;
    }
}

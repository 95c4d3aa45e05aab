package dev.vigil.probe.probe;

import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.ProbeResult;
import reactor.core.publisher.Mono;

/**
 * One kind of check (docs/monitors.md#check-types). The scheduler is type-agnostic: it starts a probe per monitor and window and
 * publishes what comes out, so every check type has the same contract.
 *
 * <p>The returned Mono never errors and never blocks a thread: a failure of the target is a {@link ProbeResult}
 * whose outcome and errorKind say why, bounded by the monitor's one deadline ({@code timeoutMs}). It completes
 * empty when the probe could not run for a reason of ours (this worker's configuration, say), because a fake
 * failure would page the target's owner for our problem.
 */
@FunctionalInterface
public interface Probe {
    /** Probes {@code monitor} for the window starting at {@code windowStart}. Subscribe to start. */
    Mono<ProbeResult> probe(MonitorDefinition monitor, long windowStart);
}

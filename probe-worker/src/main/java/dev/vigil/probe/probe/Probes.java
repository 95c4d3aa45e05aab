package dev.vigil.probe.probe;

import dev.vigil.probe.safety.TargetGuard;
import dev.vigil.schemas.contract.CheckType;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.ProbeResult;
import java.util.EnumMap;
import java.util.Map;
import reactor.core.publisher.Mono;

/**
 * Routes a monitor to the probe of its {@link MonitorDefinition#type() type}. Heartbeat monitors are pushed to, not
 * probed: they complete empty here (and the scheduler never starts them), so a stray definition cannot turn into a
 * fabricated result.
 */
public final class Probes implements Probe {
    private final Map<CheckType, Probe> byType;

    /** @param byType a probe for every probed type; a missing one is a wiring error, reported at construction */
    public Probes(Map<CheckType, Probe> byType) {
        EnumMap<CheckType, Probe> copy = new EnumMap<>(CheckType.class);
        copy.putAll(byType);
        for (CheckType t : CheckType.values()) {
            if (t != CheckType.HEARTBEAT && !copy.containsKey(t)) {
                throw new IllegalArgumentException("no probe for check type " + t.wire());
            }
        }
        copy.remove(CheckType.HEARTBEAT);
        this.byType = copy;
    }

    /** The worker's probes: one per type, sharing the SSRF guard and the settings. */
    public static Probes standard(TargetGuard guard, ProbeSettings settings) {
        return new Probes(Map.of(
                CheckType.HTTP, new HttpProbe(guard, settings),
                CheckType.TCP, new TcpProbe(guard, settings),
                CheckType.TLS, new TlsProbe(guard, settings),
                CheckType.DNS, new DnsProbe(guard, settings)));
    }

    @Override
    public Mono<ProbeResult> probe(MonitorDefinition monitor, long windowStart) {
        if (!monitor.isProbed()) {
            return Mono.empty();
        }
        return byType.get(monitor.type()).probe(monitor, windowStart);
    }
}

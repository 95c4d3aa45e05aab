package dev.vigil.probe.probe;

import static dev.vigil.probe.probe.Monitors.WINDOW;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.schemas.contract.CheckType;
import dev.vigil.schemas.contract.ErrorKind;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.contract.SkipReason;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

class ProbesTest {
    /** A fake probe per type that answers with a result naming its type. */
    private static Map<CheckType, Probe> fakes(List<CheckType> called) {
        Map<CheckType, Probe> m = new EnumMap<>(CheckType.class);
        for (CheckType t : List.of(CheckType.HTTP, CheckType.TCP, CheckType.DNS, CheckType.TLS)) {
            m.put(
                    t,
                    (monitor, ws) -> Mono.fromCallable(() -> {
                        called.add(t);
                        return new ProbeResult(
                                1,
                                monitor.id(),
                                "us-east",
                                "w-1",
                                ws,
                                ws,
                                Outcome.NETWORK_FAILURE,
                                dev.vigil.schemas.contract.ErrorKind.OTHER,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                "r-1",
                                t,
                                null);
                    }));
        }
        return m;
    }

    @Test
    void eachMonitorGoesToTheProbeOfItsType() {
        List<CheckType> called = new java.util.ArrayList<>();
        Probes probes = new Probes(fakes(called));
        List<MonitorDefinition> monitors = List.of(
                Monitors.http("https://example.com/", null, null, null, null, 2000),
                Monitors.tcp("example.com", 5432, null, null, 2000),
                Monitors.dns("example.com", "MX", null, List.of(), 2000),
                Monitors.tls("example.com", 443, 2000, null));
        for (MonitorDefinition m : monitors) {
            ProbeResult r = probes.probe(m, WINDOW).block(Duration.ofSeconds(5));
            assertThat(r.checkType()).isEqualTo(m.type());
        }
        assertThat(called).containsExactly(CheckType.HTTP, CheckType.TCP, CheckType.DNS, CheckType.TLS);
    }

    /** A probe of every type that ends as {@code result} builds it, for the given monitor and window. */
    private static Probes answering(java.util.function.BiFunction<MonitorDefinition, Long, ProbeResult> result) {
        return answering(result, Long.MIN_VALUE);
    }

    private static Probes answering(
            java.util.function.BiFunction<MonitorDefinition, Long, ProbeResult> result, long warmUntil) {
        Map<CheckType, Probe> m = new EnumMap<>(CheckType.class);
        for (CheckType t : List.of(CheckType.HTTP, CheckType.TCP, CheckType.DNS, CheckType.TLS)) {
            m.put(t, (monitor, ws) -> Mono.fromCallable(() -> result.apply(monitor, ws)));
        }
        return new Probes(m, warmUntil);
    }

    @Test
    void aTimeoutInTheWorkersWarmUpIsTheWorkersGapAndAnyOtherFailureCountsAtOnce() {
        MonitorDefinition monitor = Monitors.http("https://example.com/", null, null, null, null, 2000);
        // the probe starts at WINDOW + 10 (see timeout()): inside a warm-up that ends a minute later
        long warmUntil = WINDOW + Probes.WARM_UP_MS;
        for (ErrorKind kind : List.of(ErrorKind.TIMEOUT, ErrorKind.CONNECT_TIMEOUT)) {
            ProbeResult cold = answering((m, ws) -> timeout(m, ws, kind, 2000), warmUntil)
                    .probe(monitor, WINDOW)
                    .block(Duration.ofSeconds(5));
            assertThat(cold.outcome()).as(kind.wire()).isEqualTo(Outcome.SKIPPED);
            assertThat(cold.skipReason()).isEqualTo(SkipReason.OVERLOADED);
            assertThat(cold.detail()).contains("first 60 s").contains("cold");
        }
        ProbeResult refused = answering((m, ws) -> timeout(m, ws, ErrorKind.CONNECT_REFUSED, 3), warmUntil)
                .probe(monitor, WINDOW)
                .block(Duration.ofSeconds(5));
        assertThat(refused.outcome()).isEqualTo(Outcome.NETWORK_FAILURE);
        // the same timeout once the warm-up is over is the target's
        ProbeResult warm = answering((m, ws) -> timeout(m, ws, ErrorKind.TIMEOUT, 2000), WINDOW + 10)
                .probe(monitor, WINDOW)
                .block(Duration.ofSeconds(5));
        assertThat(warm.outcome()).isEqualTo(Outcome.NETWORK_FAILURE);
        assertThat(warm.errorKind()).isEqualTo(ErrorKind.TIMEOUT);
    }

    private static ProbeResult timeout(MonitorDefinition monitor, long ws, ErrorKind kind, int totalMs) {
        return new ProbeResult(
                1,
                monitor.id(),
                "us-east",
                "w-1",
                ws,
                ws + 10,
                Outcome.NETWORK_FAILURE,
                kind,
                null,
                null,
                totalMs,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                "no complete response within timeoutMs",
                "r-1",
                monitor.type(),
                null);
    }

    /** Probes whose every probe ends as {@code result}, on a worker that stalled {@code stalledMs} meanwhile. */
    private static Probes stalled(java.util.function.BiFunction<MonitorDefinition, Long, ProbeResult> result, long ms) {
        Map<CheckType, Probe> m = new EnumMap<>(CheckType.class);
        for (CheckType t : List.of(CheckType.HTTP, CheckType.TCP, CheckType.DNS, CheckType.TLS)) {
            m.put(t, (monitor, ws) -> Mono.fromCallable(() -> result.apply(monitor, ws)));
        }
        // the stall is asked for over the probe's own span: from its start to its start plus what it waited
        return new Probes(m, Long.MIN_VALUE, (from, to) -> from == WINDOW + 10 && to >= from + 2000 ? ms : 0);
    }

    @Test
    void aTimeoutWhileTheWorkersOwnThreadsStalledIsTheWorkersGapAndAnyOtherResultStands() {
        MonitorDefinition monitor = Monitors.http("https://example.com/", null, null, null, null, 2000);
        for (ErrorKind kind : List.of(ErrorKind.TIMEOUT, ErrorKind.CONNECT_TIMEOUT)) {
            // the deadline fired on time (2,000 ms), but the worker had stalled while it waited
            ProbeResult r = stalled((m, ws) -> timeout(m, ws, kind, 2000), Probes.STARVED_DEADLINE_MS)
                    .probe(monitor, WINDOW)
                    .block(Duration.ofSeconds(5));
            assertThat(r.outcome()).as(kind.wire()).isEqualTo(Outcome.SKIPPED);
            assertThat(r.skipReason()).isEqualTo(SkipReason.OVERLOADED);
            assertThat(r.detail()).contains("stalled 250 ms");
        }
        ProbeResult shortStall = stalled(
                        (m, ws) -> timeout(m, ws, ErrorKind.TIMEOUT, 2000), Probes.STARVED_DEADLINE_MS - 1)
                .probe(monitor, WINDOW)
                .block(Duration.ofSeconds(5));
        assertThat(shortStall.outcome()).as("a short stall says nothing").isEqualTo(Outcome.NETWORK_FAILURE);
        ProbeResult refused = stalled((m, ws) -> timeout(m, ws, ErrorKind.CONNECT_REFUSED, 3), 5_000)
                .probe(monitor, WINDOW)
                .block(Duration.ofSeconds(5));
        assertThat(refused.outcome())
                .as("a refusal is the target's, stall or not")
                .isEqualTo(Outcome.NETWORK_FAILURE);
        assertThat(refused.errorKind()).isEqualTo(ErrorKind.CONNECT_REFUSED);
    }

    @Test
    void aTimeoutTheWorkerCouldNotEnforceOnTimeIsSkippedAsOverloadedNotAFailureOfTheTarget() {
        MonitorDefinition monitor = Monitors.http("https://example.com/", null, null, null, null, 2000);
        for (ErrorKind kind : List.of(ErrorKind.TIMEOUT, ErrorKind.CONNECT_TIMEOUT)) {
            ProbeResult late = answering((m, ws) -> timeout(m, ws, kind, 2000 + 655))
                    .probe(monitor, WINDOW)
                    .block(Duration.ofSeconds(5));
            assertThat(late.outcome()).as(kind.wire()).isEqualTo(Outcome.SKIPPED);
            assertThat(late.skipReason()).isEqualTo(SkipReason.OVERLOADED);
            assertThat(late.errorKind()).isNull();
            assertThat(late.requestId()).isEqualTo("r-1");
            assertThat(late.detail()).contains("overloaded");
        }
        // a deadline that fired on time (or nearly): the target was slow, a real failure
        ProbeResult onTime = answering(
                        (m, ws) -> timeout(m, ws, ErrorKind.TIMEOUT, 2000 + (int) Probes.STARVED_DEADLINE_MS))
                .probe(monitor, WINDOW)
                .block(Duration.ofSeconds(5));
        assertThat(onTime.outcome()).isEqualTo(Outcome.NETWORK_FAILURE);
        assertThat(onTime.errorKind()).isEqualTo(ErrorKind.TIMEOUT);
        // a refused connection is the target's answer however long the worker took to see it
        ProbeResult refused = answering((m, ws) -> timeout(m, ws, ErrorKind.CONNECT_REFUSED, 9000))
                .probe(monitor, WINDOW)
                .block(Duration.ofSeconds(5));
        assertThat(refused.outcome()).isEqualTo(Outcome.NETWORK_FAILURE);
    }

    @Test
    void aHeartbeatMonitorIsNeverProbed() {
        List<CheckType> called = new java.util.ArrayList<>();
        MonitorDefinition heartbeat = Monitors.heartbeat();
        assertThat(heartbeat.isProbed()).isFalse();
        assertThat(new Probes(fakes(called)).probe(heartbeat, WINDOW).block(Duration.ofSeconds(5)))
                .isNull();
        assertThat(called).isEmpty();
    }

    @Test
    void everyProbedTypeNeedsAProbe() {
        Map<CheckType, Probe> missingDns = fakes(new java.util.ArrayList<>());
        missingDns.remove(CheckType.DNS);
        assertThatThrownBy(() -> new Probes(missingDns)).hasMessage("no probe for check type dns");
    }

    @Test
    void theStandardProbesCoverEveryProbedType() {
        var guard = new dev.vigil.kit.net.TargetGuard(List.of(), dev.vigil.kit.net.HostResolver.system());
        Probes standard = Probes.standard(guard, ProbeSettings.of("us-east", "w-1", "0.1.0"));
        // A refusal shows the real probe of each type ran, without any network.
        ProbeResult tcp = standard.probe(Monitors.tcp("127.0.0.1", 22, null, null, 2000), WINDOW)
                .block(Duration.ofSeconds(5));
        assertThat(tcp.checkType()).isEqualTo(CheckType.TCP);
        ProbeResult tls = standard.probe(Monitors.tls("127.0.0.1", 443, 2000, null), WINDOW)
                .block(Duration.ofSeconds(5));
        assertThat(tls.checkType()).isEqualTo(CheckType.TLS);
        ProbeResult dns = standard.probe(Monitors.dns("example.com", "A", "127.0.0.1", List.of(), 2000), WINDOW)
                .block(Duration.ofSeconds(5));
        assertThat(dns.checkType()).isEqualTo(CheckType.DNS);
        ProbeResult http = standard.probe(Monitors.http("http://127.0.0.1/", null, null, null, null, 2000), WINDOW)
                .block(Duration.ofSeconds(5));
        assertThat(http.checkType()).isEqualTo(CheckType.HTTP);
        assertThat(List.of(tcp, tls, dns, http)).allSatisfy(r -> assertThat(r.errorKind())
                .isEqualTo(dev.vigil.schemas.contract.ErrorKind.BLOCKED_TARGET));
    }
}

package dev.vigil.standalone.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.json.VigilSerdes;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScaleFiguresTest {
    private static final List<String> REGIONS = List.of("us-east", "eu-west", "asia-east");

    @Test
    void monitorIdsSortLikeTheirNumbers() {
        assertThat(ScaleFigures.monitorId(1)).isEqualTo("scale-0000001");
        assertThat(ScaleFigures.monitorId(100_000)).isEqualTo("scale-0100000");
        assertThat(ScaleFigures.monitorId(9)).isLessThan(ScaleFigures.monitorId(10));
        assertThatThrownBy(() -> ScaleFigures.monitorId(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void monitorsAreValidDistinctAndSpreadOverLoopbackAddresses() {
        List<MonitorDefinition> defs = ScaleFigures.monitors(10, 42, 25081, 16, REGIONS, 60);
        assertThat(defs).hasSize(32);
        assertThat(defs.get(0).id()).isEqualTo("scale-0000011");
        assertThat(defs.get(31).id()).isEqualTo("scale-0000042");
        assertThat(defs).extracting(MonitorDefinition::url).doesNotHaveDuplicates();
        MonitorDefinition m = defs.get(0);
        assertThat(m.url()).isEqualTo("http://127.0.0.12:25081/t/scale-0000011");
        assertThat(m.intervalSeconds()).isEqualTo(60);
        assertThat(m.regions()).isEqualTo(REGIONS);
        assertThat(m.timeoutMs()).isEqualTo(MonitorDefinition.DEFAULT_TIMEOUT_MS);
        assertThat(m.expect().acceptsStatus(200)).isTrue();
        assertThat(m.expect().json()).isNull();
        assertThat(m.enabled()).isTrue();
        assertThat(defs)
                .extracting(d -> d.url().substring(7, d.url().indexOf(':', 7)))
                .contains("127.0.0.16", "127.0.0.1");
        // the wire form the API and `vigil monitors apply` publish, read back the same
        byte[] wire = VigilSerdes.monitorDefinition().serialize("vigil.monitors", m);
        assertThat(VigilSerdes.monitorDefinition().deserialize("vigil.monitors", wire))
                .isEqualTo(m);
    }

    @Test
    void stepsMustGrow() {
        assertThat(ScaleFigures.steps("10000,30000,100000")).containsExactly(10_000, 30_000, 100_000);
        assertThat(ScaleFigures.steps("10k, 30k,100_000")).containsExactly(10_000, 30_000, 100_000);
        assertThatThrownBy(() -> ScaleFigures.steps("3000,1000")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ScaleFigures.steps("0")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ScaleFigures.steps(",")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void percentilesAreNearestRank() {
        long[] values = new long[100];
        for (int i = 0; i < 100; i++) {
            values[i] = 100 - i; // unsorted: 100..1
        }
        assertThat(ScaleFigures.percentile(values, 50)).isEqualTo(50);
        assertThat(ScaleFigures.percentile(values, 99)).isEqualTo(99);
        assertThat(ScaleFigures.percentile(values, 100)).isEqualTo(100);
        assertThat(ScaleFigures.percentile(values, 0)).isEqualTo(1);
        assertThat(ScaleFigures.percentile(new long[] {7}, 99)).isEqualTo(7);
        assertThat(ScaleFigures.percentile(new long[0], 50)).isEqualTo(-1);
        assertThat(ScaleFigures.percentile(List.of(3L, 1L, 2L), 50)).isEqualTo(2);
        assertThat(values[0]).isEqualTo(100); // the input is not sorted in place
    }

    @Test
    void resultLineAndGrowth() {
        Map<String, Double> a = new LinkedHashMap<>();
        a.put("probes_per_s", 500.0);
        a.put("verdict_lag_p99_ms", 120.5);
        a.put("skipped_windows", 0.0);
        a.put("heap_mib_streams-1", Double.NaN);
        Map<String, Double> b = new LinkedHashMap<>();
        b.put("probes_per_s", 5000.0);
        b.put("verdict_lag_p99_ms", 241.0);
        b.put("skipped_windows", 12.0);
        b.put("heap_mib_streams-1", 300.0);
        ScaleFigures.Step s1 = new ScaleFigures.Step(10_000, a, Map.of("walk_listed", "10000/10000"));
        ScaleFigures.Step s2 = new ScaleFigures.Step(100_000, b, Map.of());
        assertThat(ScaleFigures.resultLine(s1))
                .isEqualTo("RESULT cluster-scale monitors=10000 probes_per_s=500"
                        + " verdict_lag_p99_ms=120.5 skipped_windows=0 heap_mib_streams-1=- walk_listed=10000/10000");
        String table = ScaleFigures.growthTable(List.of(s1, s2));
        assertThat(table.lines().toList()).hasSize(6);
        assertThat(table).containsPattern("monitors\\s+10000\\s+100000\\s+10\\n");
        assertThat(table).containsPattern("probes_per_s\\s+500\\s+5000\\s+10\\n");
        assertThat(table).containsPattern("verdict_lag_p99_ms\\s+120.5\\s+241\\s+2\\n");
        // growth from nothing, or of a figure not measured, is not a number
        assertThat(table).containsPattern("skipped_windows\\s+0\\s+12\\s+-\\n");
        assertThat(table).containsPattern("heap_mib_streams-1\\s+-\\s+300\\s+-\\n");
        assertThat(ScaleFigures.growth(2, 5)).isEqualTo(2.5);
        assertThat(ScaleFigures.number(1.23456)).isEqualTo("1.235");
        assertThat(ScaleFigures.number(3.10)).isEqualTo("3.1");
    }

    @Test
    void processFigures() {
        String prom =
                """
                # HELP jvm_memory_used_bytes The amount of used memory
                jvm_memory_used_bytes{area="heap",id="G1 Eden Space"} 1.048576E7
                jvm_memory_used_bytes{area="heap",id="G1 Old Gen"} 2097152.0
                jvm_memory_used_bytes{area="nonheap",id="Metaspace"} 9.9E7
                vigil_probe_skipped_windows_total{reason="late"} 3.0
                vigil_probe_skipped_windows_total{reason="in-flight-limit"} 4.0
                vigil_probe_skipped_windows_total_other 100.0
                """;
        assertThat(ScaleFigures.heapUsed(prom)).isEqualTo(10_485_760L + 2_097_152L);
        assertThat(ScaleFigures.heapUsed("nothing")).isEqualTo(-1);
        assertThat(ScaleFigures.counter(prom, "vigil_probe_skipped_windows_total"))
                .isEqualTo(7.0);
        assertThat(ScaleFigures.rss("Name:\tjava\nVmRSS:\t  123456 kB\nThreads: 4\n"))
                .isEqualTo(123456L * 1024);
        assertThat(ScaleFigures.cpuTicks("4242 (java some) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 75 0 0 20 0 40"))
                .isEqualTo(325);
        String jstat =
                """
                 S0C    S1C    S0U    S1U      EC       EU        OC         OU       MC     MU    CCSC   CCSU   YGC     YGCT    FGC    FGCT     CGC    CGCT     GCT
                 0.0   4096.0  0.0   4096.0 65536.0  20480.0   131072.0    51200.0  50000.0 49000.0 6000.0 5500.0     10    0.100     0    0.000     2    0.010    0.110
                """;
        assertThat(ScaleFigures.jstatHeapUsed(jstat)).isEqualTo((4096L + 20480 + 51200) * 1024);
    }

    @Test
    void readsTheWindowOfAResultWithoutDecodingIt() throws Exception {
        byte[] json =
                "{\"schemaVersion\":1,\"monitorId\":\"scale-0000001\",\"region\":\"us-east\",\"detail\":{\"windowStart\":5},\"windowStart\":1764892800000,\"startedAt\":1}"
                        .getBytes(StandardCharsets.UTF_8);
        assertThat(ClusterScale.Recorder.longField(json, "windowStart")).isEqualTo(1_764_892_800_000L);
        assertThat(ClusterScale.Recorder.longField("{\"a\":1}".getBytes(StandardCharsets.UTF_8), "windowStart"))
                .isEqualTo(-1);
        assertThat(ClusterScale.Recorder.longField("[1]".getBytes(StandardCharsets.UTF_8), "windowStart"))
                .isEqualTo(-1);
    }

    @Test
    void tellsASkippedResultFromAProbesResult() throws Exception {
        byte[] skipped = dev.vigil.schemas.json.Json.bytes(dev.vigil.schemas.contract.ProbeResult.skipped(
                "scale-0000001",
                "us-east",
                "w-1",
                1_764_892_800_000L,
                1_764_892_800_001L,
                null,
                dev.vigil.schemas.contract.SkipReason.OVERLOADED,
                "r-1"));
        assertThat(ClusterScale.Recorder.textField(skipped, "outcome")).isEqualTo("skipped");
        assertThat(ClusterScale.Recorder.textField(
                        "{\"detail\":{\"outcome\":\"skipped\"},\"outcome\":\"success\"}"
                                .getBytes(StandardCharsets.UTF_8),
                        "outcome"))
                .isEqualTo("success");
        assertThat(ClusterScale.Recorder.textField("{\"outcome\":1}".getBytes(StandardCharsets.UTF_8), "outcome"))
                .isNull();
    }

    @Test
    void theCommonestReasonsForPagesComeFirstWithDigitsFolded() {
        assertThat(ClusterScale.Recorder.topReasons(java.util.Map.of())).isEqualTo("none");
        assertThat(ClusterScale.Recorder.topReasons(
                        java.util.Map.of("a is down", 2L, "b timed out", 7L, "c", 1L, "d", 3L)))
                .isEqualTo("7x b_timed_out|3x d|2x a_is_down");
    }

    @Test
    void countersByLabelShowWhatGrew() {
        Map<String, Double> before = Map.of("skipped", 5.0, "skipped:overloaded", 5.0, "skipped:late", 0.0);
        Map<String, Double> after = new java.util.TreeMap<>(Map.of(
                "skipped",
                17.0,
                "skipped:overloaded",
                15.0,
                "skipped:late",
                2.0,
                "skipped:overrun",
                0.0,
                "failed:timeout",
                4.0));
        assertThat(ClusterScale.byLabel(before, after, "skipped")).isEqualTo("late:2,overloaded:10");
        assertThat(ClusterScale.byLabel(before, after, "failed")).isEqualTo("timeout:4");
        assertThat(ClusterScale.byLabel(after, after, "skipped")).isEqualTo("none");
    }
}

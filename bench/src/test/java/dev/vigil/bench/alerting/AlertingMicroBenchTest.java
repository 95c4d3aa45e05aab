package dev.vigil.bench.alerting;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the JMH benchmarks in-process at tiny scale so they cannot rot; asserts no speed. */
class AlertingMicroBenchTest {

    @TempDir
    Path results;

    @Test
    void everyBenchmarkRunsAndTheResultIsWritten() throws Exception {
        var r = AlertingMicroBench.run(0, 1, 50, results);
        assertThat(r)
                .containsOnlyKeys(
                        "stateMachineDebouncedBreach",
                        "histogramAdd",
                        "histogramMergeFiveMinutesP99",
                        "windowSerdeRoundTrip",
                        "ratioRuleOverFiveMinutes",
                        "ddsketchAdd",
                        "ddsketchMergeFiveMinutesP99");
        assertThat(r.values()).allMatch(v -> v > 0);
        assertThat(AlertingMicroBench.line(r)).startsWith("RESULT alerting-micro ");
        var json = Json.tree(Files.readAllBytes(results.resolve("alerting-micro.json")));
        assertThat(json.path("unit").asText()).isEqualTo("ns/op");
    }
}

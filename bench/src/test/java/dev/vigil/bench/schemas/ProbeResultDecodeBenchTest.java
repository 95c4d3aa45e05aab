package dev.vigil.bench.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the JMH benchmark in-process at tiny scale so it cannot rot; asserts no speed. */
class ProbeResultDecodeBenchTest {

    @TempDir
    Path results;

    @Test
    void everyBenchmarkRunsAndTheResultIsWritten() throws Exception {
        var r = ProbeResultDecodeBench.run(0, 1, 50, results);
        assertThat(r).containsOnlyKeys("mapper", "fastReader", "serde", "mapperDeferred", "serdeDeferred");
        assertThat(r.values()).allMatch(v -> v > 0);
        assertThat(ProbeResultDecodeBench.line(r))
                .startsWith("RESULT probe-result-decode ")
                .contains(" speedup=")
                .contains(" deferral_cost=");
        var json = Json.tree(Files.readAllBytes(results.resolve("probe-result-decode.json")));
        assertThat(json.path("unit").asText()).isEqualTo("ops/s");
        assertThat(json.path("fastReader").asDouble()).isPositive();
        assertThat(json.path("deferral_cost").asDouble()).isPositive();
    }
}

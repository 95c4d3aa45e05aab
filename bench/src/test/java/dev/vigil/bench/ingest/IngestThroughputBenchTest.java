package dev.vigil.bench.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the ingest throughput harness at tiny scale (2 s, batches of 50, 5,000 raw records) so it cannot rot. */
class IngestThroughputBenchTest {
    @TempDir
    Path results;

    @Test
    void harnessRunsAndReportsEveryFigure() throws Exception {
        System.setProperty("vigil.results.dir", results.toString());
        try {
            Map<String, Object> r =
                    IngestThroughputBench.run(new IngestThroughputBench.Options(2, 1, 50, 2, 1, 2, 5_000));
            assertThat(r)
                    .containsKeys("eventsPerSec", "rawProducerEventsPerSec", "ratioToRawProducer", "p50Ms", "p99Ms");
            assertThat((Long) r.get("requests")).isPositive();
            assertThat((Long) r.get("non202")).isZero();
            assertThat((Long) r.get("eventsAccepted")).isEqualTo((Long) r.get("requests") * 50);
            assertThat(Files.readString(results.resolve("ingest-throughput.json")))
                    .contains("\"name\":\"ingest-throughput\"")
                    .contains("\"ratioToRawProducer\"");
        } finally {
            System.clearProperty("vigil.results.dir");
        }
    }
}

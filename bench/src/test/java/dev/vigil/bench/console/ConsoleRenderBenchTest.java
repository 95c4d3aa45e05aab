package dev.vigil.bench.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the console render harness at tiny scale (60 monitors, 2 rounds) so it cannot rot; asserts no speed. Skipped
 * without Debian's chromium and chromedriver, except under CI ({@code CI} set and not "false"), which installs them:
 * there a missing browser fails instead of quietly skipping.
 */
class ConsoleRenderBenchTest {
    @TempDir
    Path results;

    static void assumeBrowser() {
        if (ConsoleRenderBench.browserInstalled()) {
            return;
        }
        String ci = System.getenv("CI");
        if (ci != null && !ci.isBlank() && !ci.equalsIgnoreCase("false")) {
            throw new AssertionError(
                    "CI is set but " + ConsoleRenderBench.CHROMIUM + " or " + ConsoleRenderBench.CHROMEDRIVER
                            + " is missing: CI must install the chromium and chromium-driver packages");
        }
        Assumptions.assumeTrue(false, "headless chromium not installed (apt-get install chromium chromium-driver)");
    }

    @Test
    void harnessRendersTheGridAndWritesItsResult() throws Exception {
        assumeBrowser();
        System.setProperty("vigil.results.dir", results.toString());
        try {
            Map<String, Object> r = ConsoleRenderBench.run(new ConsoleRenderBench.Options(60, 2));
            assertThat(r)
                    .containsKeys(
                            "time_to_grid_ms_p50",
                            "cold_ms",
                            "bare_fetch_parse_ms_p50",
                            "ratio",
                            "status_json_bytes",
                            "status_json_gzip_bytes",
                            "transfer_bytes_cold",
                            "transfer_bytes_warm",
                            "dom_rows");
            assertThat(r.get("monitors")).isEqualTo(60);
            // 60 monitors fit one page: every one is a row
            assertThat(r.get("dom_rows")).isEqualTo(60L);
            assertThat((double) r.get("time_to_grid_ms_p50")).isPositive();
            assertThat((double) r.get("cold_ms")).isPositive();
            assertThat((double) r.get("bare_fetch_parse_ms_p50")).isPositive();
            assertThat((double) r.get("ratio")).isPositive();
            long raw = (long) r.get("status_json_bytes");
            assertThat(raw).as("a row per monitor").isGreaterThan(60 * 50);
            assertThat((long) r.get("status_json_gzip_bytes")).isPositive().isLessThan(raw);
            assertThat(r.get("status_gzip_encoding")).isEqualTo("gzip");
            assertThat(r.get("browser_status_encoding")).isIn("gzip", "br", "zstd", "deflate");
            // the cold round fetched the shell and its assets, the warm one had them cached
            assertThat((long) r.get("transfer_bytes_cold")).isGreaterThan((long) r.get("transfer_bytes_warm"));
            assertThat(r.get("cold_assets_from_cache")).isEqualTo(0L);
            assertThat((long) r.get("browser_status_decoded_bytes")).isPositive();
            @SuppressWarnings("unchecked")
            Map<String, Object> counts = (Map<String, Object>) r.get("counts");
            assertThat(counts)
                    .containsEntry("up", 54L)
                    .containsEntry("degraded", 3L)
                    .containsEntry("down", 3L);
            var json = Json.tree(Files.readAllBytes(results.resolve("console-render.json")));
            assertThat(json.path("name").asText()).isEqualTo("console-render");
            assertThat(json.path("monitors").asInt()).isEqualTo(60);
            assertThat(json.path("perRound").size()).isEqualTo(2);
            assertThat(json.path("perRound").path("1").path("cold").asBoolean()).isTrue();
        } finally {
            System.clearProperty("vigil.results.dir");
        }
    }

    @Test
    void fleetMixAndNames() {
        assertThat(ConsoleRenderBench.name(42)).isEqualTo("Search Health 00042");
        assertThat(ConsoleRenderBench.id(42)).isEqualTo("search-health-00042");
        long degraded = 0;
        long down = 0;
        for (int m = 0; m < 10_000; m++) {
            int f = ConsoleRenderBench.failingRegions(m);
            degraded += f == 1 ? 1 : 0;
            down += f == 3 ? 1 : 0;
        }
        assertThat(degraded).isEqualTo(500);
        assertThat(down).isEqualTo(500);
        assertThat(ConsoleRenderBench.median(List.of(3.0, 1.0, 2.0, 10.0))).isEqualTo(2.5);
    }
}

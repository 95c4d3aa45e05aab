package dev.vigil.standalone.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.schemas.topic.Topics;
import dev.vigil.standalone.cli.CliRun;
import dev.vigil.standalone.demo.DemoTargets;
import dev.vigil.standalone.monitors.MonitorCatalog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Vigil's own blind spots on the whole stack, paged as what they are: a region that monitors name and no worker
 * serves is refused at apply, and with the operator's override it raises one self-alert and no page about the monitor;
 * a region whose only probe worker stops for three windows pages once about Vigil (never about the healthy monitors
 * it stops watching), and resolves when the worker is back. Every page goes to a webhook channel, so what on-call
 * would receive is exactly what is counted.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SelfWatchIT {
    private static final Duration WINDOW = Duration.ofSeconds(10);

    @TempDir
    static Path dir;

    static WebhookSink sink;
    static StandaloneLauncher vigil;
    static DemoTargets targets;

    @BeforeAll
    static void start() throws Exception {
        sink = new WebhookSink();
        Path routing = dir.resolve("routing.yaml");
        Files.writeString(
                routing,
                """
                channels:
                  oncall:
                    type: webhook
                    url: %s
                    secretEnv: SELFWATCH_WEBHOOK_SECRET
                defaults:
                  critical: [oncall]
                  warning: [oncall]
                  info: [oncall]
                """
                        .formatted(sink.url("oncall")));
        Map<String, String> env = new HashMap<>();
        env.put("SELFWATCH_WEBHOOK_SECRET", "selfwatch-webhook-signing-secret-32b");
        StackSupport.withExternalDb(env);
        StandaloneOptions options = StandaloneOptions.defaults(dir.resolve("data"))
                .withFreePorts()
                .withAllowList(List.of("127.0.0.1/32"))
                .withRouting(routing);
        vigil = StandaloneLauncher.start(options, env, line -> {});
        // a healthy target watched from every region: what a blind region must never page about
        targets = StackSupport.targets(vigil, options, true, Set.of("demo-healthy"));
    }

    @AfterAll
    static void stop() throws Exception {
        StackSupport.closeAll(targets, vigil, sink);
    }

    private static List<AlertEvent> pages(String fingerprint, AlertState state) {
        return sink.deliveries().stream()
                .map(WebhookSink.Delivery::event)
                .filter(e -> e.fingerprint().equals(fingerprint) && e.state() == state)
                .toList();
    }

    private static List<AlertEvent> monitorPages() {
        return sink.deliveries().stream()
                .map(WebhookSink.Delivery::event)
                .filter(e -> e.fingerprint().startsWith("monitor/"))
                .toList();
    }

    private static CliRun apply(Path file, String... more) {
        String[] args = {
            "monitors",
            "apply",
            "-f",
            file.toString(),
            "--url",
            "http://127.0.0.1:" + vigil.queryPort(),
            "--token",
            vigil.adminToken(),
            "--timeout",
            "PT20S"
        };
        String[] all = new String[args.length + more.length];
        System.arraycopy(args, 0, all, 0, args.length);
        System.arraycopy(more, 0, all, args.length, more.length);
        return CliRun.vigil(all);
    }

    @Test
    @Order(1)
    void aRegionNoWorkerServesIsRefusedAtApplyAndTheOverridePagesOnceAboutVigilNeverAboutTheMonitor() throws Exception {
        Path file = dir.resolve("dead-region.yaml");
        Files.writeString(
                file,
                """
                monitors:
                  - id: dead-region-test
                    name: Dead region test
                    url: %s
                    intervalSeconds: 10
                    regions: [us-east, eu-west, asia-east, ap-south]
                """
                        .formatted(targets.url("healthy")));
        // the region watch writes what the workers serve once it has heard from them
        CliRun[] refused = new CliRun[1];
        await("apply refuses ap-south, naming the regions the workers serve")
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofSeconds(2))
                .until(() -> {
                    refused[0] = apply(file);
                    return refused[0].exit() == 2 && refused[0].err().contains("known: asia-east, eu-west, us-east");
                });
        assertThat(refused[0].err())
                .contains("'ap-south' is served by no probe worker", "--allow-region")
                .doesNotContain("'us-east' is served by no probe worker");
        MonitorCatalog catalog = new MonitorCatalog(vigil.bootstrapServers(), Topics.MONITORS, Duration.ofSeconds(20));
        assertThat(catalog.current(p -> {}).keySet()).as("nothing published").doesNotContain("dead-region-test");

        CliRun accepted = apply(file, "--allow-region", "ap-south");
        assertThat(accepted.exit()).as(accepted.err()).isZero();

        await("one page about the blind region")
                .atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofSeconds(1))
                .until(() ->
                        !pages("vigil/region-blind/ap-south", AlertState.OPENED).isEmpty());
        AlertEvent blind =
                pages("vigil/region-blind/ap-south", AlertState.OPENED).get(0);
        assertThat(blind.severity()).isEqualTo(Severity.CRITICAL);
        assertThat(blind.summary()).contains("ap-south").contains("unserved").contains("1 monitor names it");
        // three windows more: the monitor (healthy wherever it is probed) never pages, the region pages once
        await().during(WINDOW.multipliedBy(3))
                .atMost(WINDOW.multipliedBy(4))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> monitorPages().isEmpty()
                        && pages("vigil/region-blind/ap-south", AlertState.OPENED)
                                        .size()
                                == 1);

        // no monitor names ap-south any more: the gap is closed, and the page says so
        catalog.publish(List.of(), List.of("dead-region-test"));
        await("the blind region's alert resolves once no monitor names it")
                .atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> !pages("vigil/region-blind/ap-south", AlertState.RESOLVED)
                        .isEmpty());
        assertThat(monitorPages()).isEmpty();
    }

    @Test
    @Order(2)
    void aRegionWhoseOnlyWorkerStopsForThreeWindowsPagesOnceAboutVigilThenResolves() {
        long stoppedAt = System.currentTimeMillis();
        vigil.stopProbeWorker("asia-east");
        await("one page about the blind region")
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> !pages("vigil/region-blind/asia-east", AlertState.OPENED)
                        .isEmpty());
        long pagedAfterMs = System.currentTimeMillis() - stoppedAt;
        AlertEvent blind =
                pages("vigil/region-blind/asia-east", AlertState.OPENED).get(0);
        assertThat(blind.summary()).contains("asia-east").contains("monitor");
        // the worker stays away for three whole windows at least
        long away = Math.max(WINDOW.multipliedBy(3).toMillis(), pagedAfterMs + WINDOW.toMillis());
        await().during(Duration.ofMillis(away - (System.currentTimeMillis() - stoppedAt)))
                .atMost(Duration.ofMillis(away + WINDOW.toMillis()))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> monitorPages().isEmpty()
                        && pages("vigil/region-blind/asia-east", AlertState.OPENED)
                                        .size()
                                == 1);

        vigil.startProbeWorker("asia-east");
        await("the region's alert resolves once its worker is back")
                .atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> !pages("vigil/region-blind/asia-east", AlertState.RESOLVED)
                        .isEmpty());
        // and nothing about the monitors follows its return
        await().during(WINDOW.multipliedBy(2))
                .atMost(WINDOW.multipliedBy(3))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> monitorPages().isEmpty());
        assertThat(pages("vigil/region-blind/asia-east", AlertState.OPENED)).hasSize(1);
        assertThat(pages("vigil/region-blind/asia-east", AlertState.RESOLVED)).hasSize(1);
        assertThat(sink.deliveries().stream().map(d -> d.event().fingerprint()).filter(fp -> fp.startsWith("worker/")))
                .as("the dead worker folds into its region's page")
                .isEmpty();
    }
}

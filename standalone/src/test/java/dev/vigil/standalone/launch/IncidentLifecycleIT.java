package dev.vigil.standalone.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.standalone.cli.CliRun;
import dev.vigil.standalone.demo.DemoTargets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.netty.DisposableServer;

/**
 * The on-call story on the whole stack (SPEC section 12), with a one-minute reminder interval: an outage pages a
 * webhook channel and BetterStack; {@code vigil ack} stops its reminders and acknowledges the BetterStack incident;
 * a silence added afterwards does not eat the resolution: when the target recovers, the channels that got the page
 * get the resolution, once.
 */
class IncidentLifecycleIT {
    private static final String FP = "monitor/demo-outage";

    @TempDir
    static Path dir;

    static WebhookSink sink;
    static DisposableServer betterstack;
    static final List<String> vendorCalls = new CopyOnWriteArrayList<>();
    static StandaloneLauncher vigil;
    static DemoTargets targets;

    @BeforeAll
    static void start() throws Exception {
        sink = new WebhookSink();
        betterstack = StackSupport.recordingVendor(vendorCalls, uri -> Map.entry(uri.endsWith("/incidents") ? 201 : 200,
                "{\"data\":{\"id\":\"bs-42\",\"type\":\"incident\"}}"));
        Path routing = dir.resolve("routing.yaml");
        Files.writeString(routing, """
                channels:
                  oncall:
                    type: webhook
                    url: %s
                    secretEnv: LIFECYCLE_WEBHOOK_SECRET
                  betterstack:
                    type: betterstack
                    url: http://127.0.0.1:%d
                    secretEnv: LIFECYCLE_BETTERSTACK_TOKEN
                defaults:
                  critical: [oncall, betterstack]
                  warning: [oncall]
                  info: [oncall]
                """.formatted(sink.url("oncall"), betterstack.port()));
        Map<String, String> env = new HashMap<>();
        env.put("LIFECYCLE_WEBHOOK_SECRET", "lifecycle-webhook-signing-secret-32-bytes");
        env.put("LIFECYCLE_BETTERSTACK_TOKEN", "bs-token-for-the-fake");
        StackSupport.withExternalDb(env);
        StandaloneOptions options = StandaloneOptions.defaults(dir.resolve("data")).withFreePorts()
                .withAllowList(List.of("127.0.0.1/32")).withRouting(routing).withReminderInterval(Duration.ofMinutes(1));
        vigil = StandaloneLauncher.start(options, env, line -> { });
        targets = StackSupport.targets(vigil, options, false, java.util.Set.of("demo-outage"));
    }

    @AfterAll
    static void stop() throws Exception {
        StackSupport.closeAll(targets, vigil, sink, betterstack == null ? null : betterstack::disposeNow);
    }

    private static List<AlertEvent> delivered(AlertState state) {
        return sink.deliveries().stream().map(WebhookSink.Delivery::event)
                .filter(e -> e.fingerprint().equals(FP) && e.state() == state).toList();
    }

    private static CliRun cli(String... args) {
        String[] all = new String[args.length + 4];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--url";
        all[args.length + 1] = "http://127.0.0.1:" + vigil.queryPort();
        all[args.length + 2] = "--token";
        all[args.length + 3] = vigil.adminToken();
        return CliRun.vigil(all);
    }

    @Test
    void ackStopsRemindersAndAcknowledgesBetterStackAndASilenceDoesNotEatTheResolution() {
        await("the outage pages the webhook and opens a BetterStack incident").atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> !delivered(AlertState.OPENED).isEmpty()
                        && vendorCalls.stream().anyMatch(c -> c.startsWith("POST /api/v2/incidents ")));

        // the CLI answers 1 with the API's 503 while the instance rebalances (just after start): an operator retries
        List<CliRun> tries = new CopyOnWriteArrayList<>();
        await("vigil ack succeeds").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).until(() -> {
            CliRun run = cli("ack", FP, "--comment", "on it");
            tries.add(run);
            return run.exit() == 0;
        });
        assertThat(tries).allSatisfy(t -> assertThat(t.exit() == 0 || t.err().contains("503")).as(t.err()).isTrue());
        assertThat(tries.get(tries.size() - 1).out()).contains(FP + " acknowledged by standalone-admin until it ends");
        await("the acknowledgement reaches the webhook and BetterStack").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> !delivered(AlertState.ACKNOWLEDGED).isEmpty()
                        && vendorCalls.stream().anyMatch(c -> c.startsWith("POST /api/v2/incidents/bs-42/acknowledge")));
        AlertEvent notice = delivered(AlertState.ACKNOWLEDGED).get(0);
        assertThat(notice.summary()).isEqualTo("Acknowledged by standalone-admin: on it");
        CliRun alerts = cli("alerts");
        assertThat(alerts.out()).contains("(acknowledged by standalone-admin)");

        int remindersAtAck = delivered(AlertState.REMINDER).size();
        await("no reminder for longer than the reminder interval while acknowledged")
                .during(Duration.ofSeconds(80)).atMost(Duration.ofSeconds(100)).pollInterval(Duration.ofSeconds(2))
                .until(() -> delivered(AlertState.REMINDER).size() == remindersAtAck);

        CliRun silence = cli("silence", "add", "--fingerprint", FP, "--duration", "30m", "--reason", "noisy");
        assertThat(silence.exit()).as(silence.err()).isZero();
        targets.force("outage", true);
        await("the resolution reaches the channels that got the page, silence or not").atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> !delivered(AlertState.RESOLVED).isEmpty()
                        && vendorCalls.stream().anyMatch(c -> c.startsWith("POST /api/v2/incidents/bs-42/resolve")));
        assertThat(delivered(AlertState.OPENED)).hasSize(1);
        assertThat(delivered(AlertState.RESOLVED)).hasSize(1);
        assertThat(vendorCalls.stream().filter(c -> c.startsWith("POST /api/v2/incidents ")).count()).isEqualTo(1);
    }
}

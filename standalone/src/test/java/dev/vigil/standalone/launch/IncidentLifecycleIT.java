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
 * The on-call story on the whole stack (docs/design.md#incident-lifecycle), with a one-minute reminder interval: an outage pages a
 * webhook channel and BetterStack; {@code vigil ack} stops its reminders and acknowledges the BetterStack incident;
 * a silence added afterwards does not eat the resolution: when the target recovers, the channels that got the page
 * get the resolution, once. Then the next outage is acknowledged in BetterStack: its outgoing webhook, posted to
 * ingest, acknowledges the Vigil incident, and every channel paged is told who took it. Critical incidents climb one
 * escalation tier (the team lead's webhook) when nobody acknowledges them within a minute: the first outage, acknowledged
 * in time, never reaches it; the second does, and the lead then hears who took it and its end. The critical page makes
 * BetterStack call and text.
 */
class IncidentLifecycleIT {
    private static final String FP = "monitor/demo-outage";
    /** When the team lead is paged for a critical incident nobody has acknowledged. */
    private static final int TIER_SECONDS = 60;
    /** When the daily digest is due, counted from the test's start: after both outages have been paged. */
    private static final int DIGEST_AFTER_SECONDS = 200;

    @TempDir
    static Path dir;

    static WebhookSink sink;
    static DisposableServer betterstack;
    static DisposableServer slack;
    /** A channel that answers 404 to everything: its pages are dead-lettered and raise the notifier's own alert. */
    static DisposableServer broken;

    static final List<String> slackCalls = new CopyOnWriteArrayList<>();
    /** The daily digest's time today: a few minutes after the stack starts, so this run sees it sent. */
    static java.time.LocalTime digestAt;

    static final List<String> vendorCalls = new CopyOnWriteArrayList<>();
    static StandaloneLauncher vigil;
    static DemoTargets targets;

    @BeforeAll
    static void start() throws Exception {
        sink = new WebhookSink();
        // BetterStack gives each incident it creates a new id: bs-42, bs-43, ...
        java.util.concurrent.atomic.AtomicInteger ids = new java.util.concurrent.atomic.AtomicInteger(41);
        betterstack = StackSupport.recordingVendor(
                vendorCalls,
                uri -> uri.endsWith("/incidents")
                        ? Map.entry(
                                201, "{\"data\":{\"id\":\"bs-" + ids.incrementAndGet() + "\",\"type\":\"incident\"}}")
                        : Map.entry(200, "{}"));
        slack = StackSupport.recordingVendor(slackCalls, uri -> Map.entry(200, "ok"));
        broken = StackSupport.recordingVendor(new CopyOnWriteArrayList<>(), uri -> Map.entry(404, "no such hook"));
        digestAt = java.time.LocalTime.now(java.time.ZoneOffset.UTC)
                .plusSeconds(DIGEST_AFTER_SECONDS)
                .truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        Path routing = dir.resolve("routing.yaml");
        Files.writeString(
                routing,
                """
                channels:
                  oncall:
                    type: webhook
                    url: %s
                    secretEnv: LIFECYCLE_WEBHOOK_SECRET
                  betterstack:
                    type: betterstack
                    url: http://127.0.0.1:%d
                    secretEnv: LIFECYCLE_BETTERSTACK_TOKEN
                  lead:
                    type: webhook
                    url: %s
                    secretEnv: LIFECYCLE_WEBHOOK_SECRET
                  team-slack:
                    type: slack
                    urlEnv: LIFECYCLE_SLACK_URL
                  broken:
                    type: webhook
                    url: http://127.0.0.1:%d/hook
                    secretEnv: LIFECYCLE_WEBHOOK_SECRET
                apps:
                  demo:
                    channels: [oncall, broken]
                digest: { at: "%s", zone: UTC, channels: [team-slack] }
                defaults:
                  critical: [oncall, betterstack]
                  warning: [oncall]
                  info: [oncall]
                escalation:
                  critical:
                    - { after: %ds, channels: [lead] }
                """
                        .formatted(
                                sink.url("oncall"),
                                betterstack.port(),
                                sink.url("lead"),
                                broken.port(),
                                digestAt.format(java.time.format.DateTimeFormatter.ISO_LOCAL_TIME),
                                TIER_SECONDS));
        Map<String, String> env = new HashMap<>();
        env.put("LIFECYCLE_WEBHOOK_SECRET", "lifecycle-webhook-signing-secret-32-bytes");
        env.put("LIFECYCLE_BETTERSTACK_TOKEN", "bs-token-for-the-fake");
        env.put("LIFECYCLE_SLACK_URL", "http://127.0.0.1:" + slack.port() + "/services/T0/B0/digest");
        StackSupport.withExternalDb(env);
        StandaloneOptions options = StandaloneOptions.defaults(dir.resolve("data"))
                .withFreePorts()
                .withAllowList(List.of("127.0.0.1/32"))
                .withRouting(routing)
                .withReminderInterval(Duration.ofMinutes(1));
        vigil = StandaloneLauncher.start(options, env, line -> {});
        targets = StackSupport.targets(vigil, options, false, java.util.Set.of("demo-outage"));
    }

    @AfterAll
    static void stop() throws Exception {
        StackSupport.closeAll(
                targets,
                vigil,
                sink,
                betterstack == null ? null : betterstack::disposeNow,
                slack == null ? null : slack::disposeNow,
                broken == null ? null : broken::disposeNow);
    }

    /** What the on-call webhook (the route's own channel) received of the outage's incidents. */
    private static List<AlertEvent> delivered(AlertState state) {
        return deliveredTo("oncall", state);
    }

    private static List<AlertEvent> deliveredTo(String channel, AlertState state) {
        return sink.deliveries().stream()
                .filter(d -> d.channel().equals(channel))
                .map(WebhookSink.Delivery::event)
                .filter(e -> e.fingerprint().equals(FP) && e.state() == state)
                .toList();
    }

    private static List<AlertEvent> deliveredTo(String channel) {
        return sink.deliveries().stream()
                .filter(d -> d.channel().equals(channel))
                .map(WebhookSink.Delivery::event)
                .filter(e -> e.fingerprint().equals(FP))
                .toList();
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
    void ackStopsRemindersAndAcknowledgesBetterStackAndASilenceDoesNotEatTheResolution() throws Exception {
        await("the outage pages the webhook and opens a BetterStack incident")
                .atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> !delivered(AlertState.OPENED).isEmpty()
                        && vendorCalls.stream().anyMatch(c -> c.startsWith("POST /api/v2/incidents ")));
        // a critical page rings: BetterStack calls, texts, mails and pushes the on-call person
        assertThat(vendorCalls.stream()
                        .filter(c -> c.startsWith("POST /api/v2/incidents "))
                        .findFirst())
                .hasValueSatisfying(c ->
                        assertThat(c).contains("\"call\":true", "\"sms\":true", "\"email\":true", "\"push\":true"));

        // the CLI answers 1 with the API's 503 while the instance rebalances (just after start): an operator retries
        List<CliRun> tries = new CopyOnWriteArrayList<>();
        await("vigil ack succeeds")
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> {
                    CliRun run = cli("ack", FP, "--comment", "on it");
                    tries.add(run);
                    return run.exit() == 0;
                });
        assertThat(tries).allSatisfy(t -> assertThat(t.exit() == 0 || t.err().contains("503"))
                .as(t.err())
                .isTrue());
        assertThat(tries.get(tries.size() - 1).out()).contains(FP + " acknowledged by standalone-admin until it ends");
        await("the acknowledgement reaches the webhook and BetterStack")
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> !delivered(AlertState.ACKNOWLEDGED).isEmpty()
                        && vendorCalls.stream()
                                .anyMatch(c -> c.startsWith("POST /api/v2/incidents/bs-42/acknowledge")));
        AlertEvent notice = delivered(AlertState.ACKNOWLEDGED).get(0);
        assertThat(notice.summary()).isEqualTo("Acknowledged by standalone-admin: on it");
        CliRun alerts = cli("alerts");
        assertThat(alerts.out()).contains("(acknowledged by standalone-admin)");

        int remindersAtAck = delivered(AlertState.REMINDER).size();
        await("no reminder for longer than the reminder interval while acknowledged")
                .during(Duration.ofSeconds(80))
                .atMost(Duration.ofSeconds(100))
                .pollInterval(Duration.ofSeconds(2))
                .until(() -> delivered(AlertState.REMINDER).size() == remindersAtAck);

        long openedAt = delivered(AlertState.OPENED).get(0).lastSeen();
        await("past the escalation tier's time")
                .atMost(Duration.ofSeconds(TIER_SECONDS + 30))
                .until(() -> System.currentTimeMillis() > openedAt + TIER_SECONDS * 1000L + 5_000);
        assertThat(deliveredTo("lead"))
                .as("acknowledged in time: the lead is never paged")
                .isEmpty();

        CliRun silence = cli("silence", "add", "--fingerprint", FP, "--duration", "30m", "--reason", "noisy");
        assertThat(silence.exit()).as(silence.err()).isZero();
        targets.force("outage", true);
        await("the resolution reaches the channels that got the page, silence or not")
                .atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> !delivered(AlertState.RESOLVED).isEmpty()
                        && vendorCalls.stream().anyMatch(c -> c.startsWith("POST /api/v2/incidents/bs-42/resolve")));
        assertThat(delivered(AlertState.OPENED)).hasSize(1);
        assertThat(delivered(AlertState.RESOLVED)).hasSize(1);
        assertThat(vendorCalls.stream()
                        .filter(c -> c.startsWith("POST /api/v2/incidents "))
                        .count())
                .isEqualTo(1);

        // the next outage, acknowledged in BetterStack
        java.util.regex.Matcher id =
                java.util.regex.Pattern.compile("silence (\\S+) created").matcher(silence.out());
        assertThat(id.find()).as(silence.out()).isTrue();
        CliRun expire = cli("silence", "expire", id.group(1));
        assertThat(expire.exit()).as(expire.err()).isZero();
        targets.force("outage", false);
        await("the second outage pages and opens BetterStack incident bs-43")
                .atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> delivered(AlertState.OPENED).size() == 2
                        && vendorCalls.stream()
                                        .filter(c -> c.startsWith("POST /api/v2/incidents "))
                                        .count()
                                == 2);
        AlertEvent secondPage = delivered(AlertState.OPENED).get(1);
        String second = secondPage.incidentId();
        await("nobody acknowledges the second outage: its escalation tier pages the lead")
                .atMost(Duration.ofSeconds(TIER_SECONDS + 60))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> !deliveredTo("lead", AlertState.OPENED).isEmpty());
        AlertEvent tier = deliveredTo("lead", AlertState.OPENED).get(0);
        assertThat(tier.incidentId()).isEqualTo(second);
        assertThat(tier.eventId()).isEqualTo(second + "/tier/2");
        assertThat(tier.summary()).startsWith("Unacknowledged for ").contains(", tier 2: " + secondPage.summary());
        assertThat(tier.links()).containsKey("incident");
        assertThat(delivered(AlertState.OPENED))
                .as("the route's own channel is not paged again")
                .hasSize(2);
        String webhook =
                """
                {"data":{"id":"bs-43","type":"incident","attributes":{"name":"demo-outage","cause":"Vigil",
                "started_at":"%1$s","acknowledged_at":"%1$s","acknowledged_by":"Carol Example","resolved_at":null,
                "resolved_by":null,"status":"Acknowledged","team_name":"On call"}}}
                """
                        .formatted(java.time.Instant.now().toString());
        java.net.http.HttpResponse<String> posted = post(
                "http://127.0.0.1:" + vigil.ingestPort() + "/v1/integrations/betterstack/"
                        + vigil.betterstackWebhookToken(),
                webhook);
        assertThat(posted.statusCode()).as(posted.body()).isEqualTo(202);
        java.net.http.HttpResponse<String> forged = post(
                "http://127.0.0.1:" + vigil.ingestPort()
                        + "/v1/integrations/betterstack/not-the-token-but-long-enough-to-look-real",
                webhook);
        assertThat(forged.statusCode()).isEqualTo(401);

        await("BetterStack's acknowledgement reaches Vigil and the webhook channel")
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> delivered(AlertState.ACKNOWLEDGED).stream()
                        .anyMatch(e -> e.incidentId().equals(second)));
        AlertEvent fromBetterStack = delivered(AlertState.ACKNOWLEDGED).stream()
                .filter(e -> e.incidentId().equals(second))
                .findFirst()
                .orElseThrow();
        assertThat(fromBetterStack.summary()).startsWith("Acknowledged by Carol Example via BetterStack");
        await("vigil alerts shows who took it")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> cli("alerts").out().contains("(acknowledged by Carol Example via BetterStack)"));
        assertThat(delivered(AlertState.ACKNOWLEDGED).stream()
                        .filter(e -> e.incidentId().equals(second)))
                .hasSize(1);
        await("the acknowledgement reaches the tier it climbed to")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> deliveredTo("lead", AlertState.ACKNOWLEDGED).size() == 1);

        targets.force("outage", true);
        await("the second incident resolves on the webhook and in BetterStack")
                .atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> delivered(AlertState.RESOLVED).size() == 2
                        && vendorCalls.stream().anyMatch(c -> c.startsWith("POST /api/v2/incidents/bs-43/resolve"))
                        && deliveredTo("lead", AlertState.RESOLVED).size() == 1);
        assertThat(deliveredTo("lead"))
                .extracting(AlertEvent::state)
                .as("the lead heard of the second incident only: its tier page, who took it, its end")
                .containsExactly(AlertState.OPENED, AlertState.ACKNOWLEDGED, AlertState.RESOLVED);

        // the daily digest, due a few minutes after start: sent once, to Slack, with the day's incidents
        await("the daily digest reaches Slack at its time")
                .atMost(Duration.ofSeconds(DIGEST_AFTER_SECONDS + 120))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> !slackCalls.isEmpty());
        assertThat(java.time.LocalTime.now(java.time.ZoneOffset.UTC))
                .as("not before its time")
                .isAfterOrEqualTo(digestAt.minusSeconds(1));
        await("and only once")
                .during(Duration.ofSeconds(10))
                .atMost(Duration.ofSeconds(15))
                .until(() -> slackCalls.size() == 1);
        assertThat(slackCalls.get(0))
                .startsWith("POST /services/T0/B0/digest ")
                .contains("Vigil digest", "New since the previous digest", "Opened", "demo-outage");
    }

    /**
     * Every incident in one place: an app's own alert (which also names a channel that cannot deliver), an
     * Alertmanager alert and the notifier's delivery-failing alert raised by that channel are listed by the query API
     * and the CLI with their source, each is acknowledged through the query API (never with the app's key), the app's
     * reminder after the acknowledgement is held, and the app incident's timeline shows each page and the ack.
     */
    @Test
    void everySourcesIncidentIsListedAcknowledgedThroughTheApiAndItsTimelineShowsEachPage() throws Exception {
        String ingest = "http://127.0.0.1:" + vigil.ingestPort();
        String appKey =
                Files.readString(dir.resolve("data/config/ingest-api-key.txt")).strip();
        long now = System.currentTimeMillis();
        String app =
                """
                {"schemaVersion":1,"fingerprint":"shop/checkout-errors","state":"%s","severity":"warning","service":"shop",
                 "summary":"Checkout errors above 5%%","firstSeen":%d,"lastSeen":%d,"channels":["oncall","broken"]}
                """;
        var opened = post(ingest + "/v1/alerts", app.formatted("opened", now, now), appKey);
        assertThat(opened.statusCode()).as(opened.body()).isEqualTo(202);
        String alertmanager =
                """
                {"version":"4","status":"firing","receiver":"vigil","groupKey":"{}:{}","alerts":[{"status":"firing",
                 "labels":{"alertname":"HighLatency","severity":"warning","service":"shop"},
                 "annotations":{"summary":"p99 latency above 2s"},"startsAt":"%s","endsAt":"0001-01-01T00:00:00Z",
                 "fingerprint":"4f2a9c"}]}
                """
                        .formatted(java.time.Instant.ofEpochMilli(now));
        var fromAlertmanager = post(ingest + "/v1/alerts", alertmanager, appKey);
        assertThat(fromAlertmanager.statusCode()).as(fromAlertmanager.body()).isEqualTo(202);
        String appFp = "app/demo/shop/checkout-errors";
        String amFp = "app/demo/alertmanager/4f2a9c";
        String failingFp = "notifier/delivery-failing/broken";

        await("the app's, Alertmanager's and the notifier's incidents are listed with their source")
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> {
                    String out = cli("alerts").out();
                    return out.matches("(?s).*" + appFp + "\\s+app\\s+firing.*")
                            && out.matches("(?s).*" + amFp + "\\s+alertmanager\\s+firing.*")
                            && out.matches("(?s).*" + failingFp + "\\s+notifier\\s+firing.*");
                });

        String query = "http://127.0.0.1:" + vigil.queryPort();
        assertThat(post(query + "/v1/alerts/" + enc(appFp) + "/ack", "{}", appKey)
                        .statusCode())
                .as("an app's key never acknowledges")
                .isEqualTo(401);
        for (String fp : List.of(appFp, amFp, failingFp)) {
            await("acknowledged through the query API: " + fp)
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofSeconds(1))
                    .until(() ->
                            post(query + "/v1/alerts/" + enc(fp) + "/ack", "{\"comment\":\"mine\"}", vigil.adminToken())
                                            .statusCode()
                                    == 200);
        }
        await("vigil alerts shows who took each")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> cli("alerts")
                                .out()
                                .lines()
                                .filter(l -> l.startsWith(appFp) || l.startsWith(amFp) || l.startsWith(failingFp))
                                .filter(l -> l.contains("(acknowledged by standalone-admin)"))
                                .count()
                        == 3);

        // the app's reminder, sent while its incident is acknowledged, is held
        assertThat(post(ingest + "/v1/alerts", app.formatted("reminder", now, System.currentTimeMillis()), appKey)
                        .statusCode())
                .isEqualTo(202);
        await("the app incident's timeline shows each page, the acknowledgement and the held reminder")
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> {
                    CliRun t = cli("alerts", "--timeline", appFp);
                    return t.exit() == 0
                            && t.out().contains("opened -> oncall: delivered")
                            && t.out().contains("opened -> broken: dead_lettered")
                            && t.out().contains("acknowledged by standalone-admin")
                            && t.out().contains("reminder -> oncall: silenced");
                });
        assertThat(sink.deliveries().stream()
                        .filter(d -> d.channel().equals("oncall"))
                        .map(WebhookSink.Delivery::event)
                        .filter(e -> e.fingerprint().equals(appFp) && e.state() == AlertState.REMINDER))
                .as("the acknowledged app incident's reminder pages nobody")
                .isEmpty();
    }

    private static String enc(String fingerprint) {
        return java.net.URLEncoder.encode(fingerprint, java.nio.charset.StandardCharsets.UTF_8);
    }

    private static java.net.http.HttpResponse<String> post(String url, String body, String bearer) throws Exception {
        return java.net.http.HttpClient.newHttpClient()
                .send(
                        java.net.http.HttpRequest.newBuilder(java.net.URI.create(url))
                                .header("Content-Type", "application/json")
                                .header("Authorization", "Bearer " + bearer)
                                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body))
                                .build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
    }

    private static java.net.http.HttpResponse<String> post(String url, String body) throws Exception {
        return java.net.http.HttpClient.newHttpClient()
                .send(
                        java.net.http.HttpRequest.newBuilder(java.net.URI.create(url))
                                .header("Content-Type", "application/json")
                                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body))
                                .build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
    }
}

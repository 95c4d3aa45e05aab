package dev.vigil.standalone.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Failover drills on a running {@link LocalCluster} (docs/cluster.md#the-failover-drills): while monitors fail and recover on a fixed schedule
 * and an app posts alerts through both ingest instances, it kills -9 the leader of a {@code vigil.alerts} partition,
 * a Streams instance (timing how long the other one's {@code /v1/status} is not whole), a notifier between the
 * vendor's receipt of a page and the notifier's record of it, stops PostgreSQL, and restarts every service one by
 * one. Then it compares what the vendor sink received with what is on {@code vigil.alerts} and with the schedule.
 */
public final class ClusterDrill {
    public static final String ALERTS_TOPIC = "vigil.alerts";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** How long each part lasts; {@link #ci()} is the short variant a test runs, {@link #full()} the manual one. */
    /**
     * @param rollEveryInstance the rolling step restarts every instance of every service and every broker; else one
     *                          instance of each service (the second: the drills before killed the first ones)
     */
    public record Plan(
            int flapping,
            int steady,
            Duration outagePeriod,
            Duration outageLength,
            Duration brokerDown,
            Duration postgresDown,
            boolean rollEveryInstance,
            Duration settle) {
        public static Plan ci() {
            // the broker stays down 15 s and the drills are 5 s apart: with 10 s and 2 s a broker's return had not
            // settled (its followers still failing to fetch from it) when the Streams drill began, and the survivor's
            // rebalance took 10 s instead of well under one
            return new Plan(
                    2,
                    2,
                    Duration.ofSeconds(100),
                    Duration.ofSeconds(40),
                    Duration.ofSeconds(15),
                    Duration.ofSeconds(30),
                    false,
                    Duration.ofSeconds(5));
        }

        public static Plan full() {
            return new Plan(
                    6,
                    6,
                    Duration.ofSeconds(120),
                    Duration.ofSeconds(50),
                    Duration.ofSeconds(60),
                    Duration.ofSeconds(30),
                    true,
                    Duration.ofSeconds(30));
        }
    }

    /** One drill's figures, in the order they ran. */
    public record Step(String name, double seconds, Map<String, String> figures) {}

    /** What the drills showed; {@link #passed()} is the verdict a test asserts. */
    public record Report(
            List<Step> steps,
            int expectedPages,
            int deliveredPages,
            List<String> lost,
            int duplicates,
            List<String> duplicatedEventIds,
            Set<String> allowedResends,
            int ingestAccepted,
            List<String> ingestMissing,
            Map<String, String> scenario,
            List<String> scenarioProblems) {
        public boolean passed() {
            return lost.isEmpty()
                    && ingestMissing.isEmpty()
                    && scenarioProblems.isEmpty()
                    && allowedResends.containsAll(duplicatedEventIds)
                    && duplicatedEventIds.stream().distinct().count() == duplicatedEventIds.size();
        }

        public String text() {
            StringBuilder sb = new StringBuilder();
            for (Step s : steps) {
                sb.append(String.format("drill %-9s %6.1f s  %s%n", s.name(), s.seconds(), s.figures()));
            }
            sb.append(String.format(
                    "pages: expected %d, delivered %d, lost %d %s, duplicates %d %s (allowed: the"
                            + " pages in flight when a notifier was killed: %s)%n",
                    expectedPages, deliveredPages, lost.size(), lost, duplicates, duplicatedEventIds, allowedResends));
            sb.append(String.format(
                    "ingest: %d events accepted, %d missing from %s %s%n",
                    ingestAccepted, ingestMissing.size(), ALERTS_TOPIC, ingestMissing));
            sb.append("scenario: ").append(scenario).append(System.lineSeparator());
            sb.append("scenario problems: ").append(scenarioProblems).append(System.lineSeparator());
            sb.append(passed() ? "RESULT cluster-drill passed" : "RESULT cluster-drill FAILED")
                    .append(System.lineSeparator());
            return sb.toString();
        }
    }

    private final LocalCluster cluster;
    private final ClusterLayout layout;
    private final Plan plan;
    private final PrintWriter out;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final List<Step> steps = new ArrayList<>();
    private final Set<String> allowedResends = ConcurrentHashMap.newKeySet();
    /** When this run began: on a data dir kept from an earlier run, vigil.alerts holds that run's events too. */
    private volatile Instant started = Instant.EPOCH;

    private final List<String> monitors = new ArrayList<>();
    private final List<String> flapping = new ArrayList<>();
    /**
     * When the outage schedule begins. The monitors' incidents that opened before it belong to the warm-up: the first
     * probes of a cluster whose dozen JVMs have just started on two cores can time out against a healthy target, which
     * Vigil rightly reads as the target failing. They are reported apart, not counted as the scenario's pages.
     */
    private volatile long scenarioStartMs;

    public ClusterDrill(LocalCluster cluster, Plan plan, PrintWriter out) {
        this.cluster = cluster;
        this.layout = cluster.layout();
        this.plan = plan;
        this.out = out;
    }

    /** Starts the cluster (with its notifiers paging the drill's sink), runs every drill and checks the pages. */
    public Report run() {
        started = Instant.now();
        try (VendorSink sink = new VendorSink(layout.sinkPort());
                DrillTargets targets = new DrillTargets(layout.targetsPort())) {
            Path routing = layout.config().resolve("routing-drill.yaml");
            LocalCluster.write(
                    routing,
                    """
                    # generated by vigil cluster drill: every page to the drill's vendor sink
                    channels:
                      oncall:
                        type: webhook
                        url: %s
                        secretEnv: %s
                    defaults:
                      critical: [oncall]
                      warning: [oncall]
                      info: [oncall]
                    """
                            .formatted(sink.url("oncall"), LocalCluster.WEBHOOK_SECRET_ENV));
            // the notifiers read their routing at start: a cluster left running pages elsewhere
            cluster.down();
            Instant t0 = Instant.now();
            cluster.up(routing);
            record(new Step("up", LocalCluster.seconds(t0), Map.of()));
            applyMonitors(targets);
            Instant decided = Instant.now();
            awaitStatus(monitors.size(), Duration.ofMinutes(3), 1);
            record(new Step("monitors", LocalCluster.seconds(decided), Map.of("monitors", "" + monitors.size())));

            awaitWarmUpIncidentsResolved(Duration.ofMinutes(3));
            Instant scheduleStart = Instant.now().plusSeconds(5);
            scenarioStartMs = scheduleStart.toEpochMilli();
            Instant scheduleEnd = scheduleStart.plus(Duration.ofHours(2));
            for (int i = 0; i < flapping.size(); i++) {
                targets.schedule(
                        flapping.get(i),
                        scheduleStart.plusSeconds(15L * i),
                        plan.outagePeriod(),
                        plan.outageLength(),
                        scheduleEnd);
            }
            AppPoster poster = new AppPoster();
            Thread posterThread = new Thread(poster, "drill-app-poster");
            posterThread.setDaemon(true);
            posterThread.start();

            pause();
            brokerDrill();
            pause();
            streamsDrill();
            pause();
            notifierDrill(sink);
            pause();
            postgresDrill();
            pause();
            rollingDrill();

            // the outages in progress run their whole length, then none follows
            Instant outagesOver = targets.stopScheduling();
            LocalCluster.sleep(
                    Math.max(0, Duration.between(Instant.now(), outagesOver).toMillis()));
            poster.stop();
            joinQuietly(posterThread);
            Instant q = Instant.now();
            Report report = settle(sink, targets, poster);
            record(new Step(
                    "settle",
                    LocalCluster.seconds(q),
                    Map.of("stream_threads_replaced", "" + streamThreadsReplaced())));
            return new Report(
                    List.copyOf(steps),
                    report.expectedPages(),
                    report.deliveredPages(),
                    report.lost(),
                    report.duplicates(),
                    report.duplicatedEventIds(),
                    Set.copyOf(allowedResends),
                    report.ingestAccepted(),
                    report.ingestMissing(),
                    report.scenario(),
                    report.scenarioProblems());
        }
    }

    /**
     * Stream threads the Streams instances replaced during the run (a transient failure: a timeout, a moved leader, a
     * transaction the brokers aborted while one of them was away), counted in their logs.
     */
    private long streamThreadsReplaced() {
        long n = 0;
        for (int i = 1; i <= layout.streams(); i++) {
            Path log = cluster.processes().log(LocalCluster.streams(i));
            try (var lines = java.nio.file.Files.lines(log)) {
                n += lines.filter(l -> l.contains("stream thread failed on a transient error; replacing it"))
                        .count();
            } catch (IOException | java.io.UncheckedIOException e) {
                // no log, no count: the figure is information, not a verdict
            }
        }
        return n;
    }

    private void record(Step step) {
        steps.add(step);
        out.printf("drill %-9s %6.1f s  %s%n", step.name(), step.seconds(), step.figures());
        out.flush();
    }

    private void pause() {
        LocalCluster.sleep(plan.settle().toMillis());
    }

    // ---------------------------------------------------------------- scenario

    private void applyMonitors(DrillTargets targets) {
        StringBuilder yaml = new StringBuilder("monitors:\n");
        for (int i = 1; i <= plan.flapping() + plan.steady(); i++) {
            String id = (i <= plan.flapping() ? "cluster-flap-" : "cluster-steady-") + i;
            monitors.add(id);
            if (i <= plan.flapping()) {
                flapping.add(id);
            }
            yaml.append("  - id: ")
                    .append(id)
                    .append('\n')
                    .append("    name: Cluster drill ")
                    .append(id)
                    .append('\n')
                    .append("    url: ")
                    .append(targets.url(id))
                    .append('\n')
                    .append("    intervalSeconds: 10\n    timeoutMs: 2000\n")
                    .append("    regions: [")
                    .append(String.join(", ", layout.regions()))
                    .append("]\n")
                    .append("    severity: critical\n    service: drill\n    component: cluster\n");
        }
        Path file = layout.config().resolve("monitors-drill.yaml");
        LocalCluster.write(file, yaml.toString());
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> apply = List.of(
                java,
                "-Xmx256m",
                "-cp",
                cluster.classpath(),
                "dev.vigil.standalone.cli.VigilCommand",
                "monitors",
                "apply",
                "-f",
                file.toString(),
                "--url",
                layout.streamsUrl(1),
                "--token-file",
                layout.config().resolve(LocalCluster.ADMIN_TOKEN_FILE).toString(),
                "--regions",
                String.join(",", layout.regions()),
                // its workers start with the cluster: the regions may not be on vigil.regions yet when it
                // applies
                "--allow-region",
                String.join(",", layout.regions()));
        // a Streams instance answers 503 until it has read the monitors topic; the file has no heartbeat monitor,
        // so applying it again is harmless
        for (int attempt = 1; ; attempt++) {
            try {
                cluster.runToCompletion("monitors-apply", apply, Map.of(), Duration.ofMinutes(2));
                return;
            } catch (IllegalStateException e) {
                if (attempt == 10) {
                    throw e;
                }
                LocalCluster.sleep(3000);
            }
        }
    }

    /** The monitors {@code /v1/status} of a Streams instance lists with a decided state, or -1 when it fails. */
    int decidedMonitors(int instance) {
        StatusSnapshot snapshot = status(instance);
        return snapshot == null ? -1 : snapshot.decided();
    }

    /**
     * One whole answer of {@code /v1/status}: how many of the drill's monitors have a decided state, each one's
     * {@code decidedAt}, and whether rows came from a standby copy.
     */
    record StatusSnapshot(int decided, Map<String, Long> decidedAt, boolean fromStandby) {}

    /** {@code /v1/status} of a Streams instance, or null when it does not answer 200. */
    private StatusSnapshot status(int instance) {
        try {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(URI.create(layout.streamsUrl(instance) + "/v1/status"))
                            .header("Authorization", "Bearer " + cluster.adminToken())
                            .timeout(Duration.ofSeconds(3))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                return null;
            }
            int decided = 0;
            Map<String, Long> decidedAt = new HashMap<>();
            for (JsonNode m : JSON.readTree(r.body()).path("monitors")) {
                String id = m.path("monitorId").asText();
                String state = m.path("status").asText();
                if (monitors.contains(id) && !state.isEmpty() && !"unknown".equals(state)) {
                    decided++;
                    decidedAt.put(id, m.path("decidedAt").asLong(-1));
                }
            }
            return new StatusSnapshot(
                    decided,
                    decidedAt,
                    r.headers()
                            .firstValue(dev.vigil.streams.query.QueryBackend.STANDBY_HEADER)
                            .isPresent());
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private void awaitStatus(int count, Duration timeout, int instance) {
        Instant deadline = Instant.now().plus(timeout);
        while (decidedMonitors(instance) < count) {
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("streams-" + instance + " did not show " + count
                        + " decided monitors within " + timeout.toSeconds() + " s");
            }
            LocalCluster.sleep(500);
        }
    }

    /** Posts one new app alert a second, round robin over the ingest instances, and resolves each 3 s later. */
    private final class AppPoster implements Runnable {
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Set<String> accepted = ConcurrentHashMap.newKeySet();
        private final AtomicInteger refused = new AtomicInteger();
        private final AtomicInteger failedOver = new AtomicInteger();
        private volatile Instant lastPost = Instant.now();
        private int sequence;
        // App event ids are fingerprint + state (docs/design.md#alert-state-machine), folded for an hour: a drill run
        // again on the same data dir
        // must not post the fingerprints of the last one, or the notifiers rightly fold its pages
        private final String run = Long.toString(System.currentTimeMillis() / 1000, 36);

        Instant lastPost() {
            return lastPost;
        }

        void stop() {
            running.set(false);
        }

        @Override
        public void run() {
            while (running.get()) {
                int n = ++sequence;
                lastPost = Instant.now();
                post(n, "opened");
                if (n > 3) {
                    post(n - 3, "resolved");
                }
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        private void post(int n, String state) {
            long now = System.currentTimeMillis();
            String body = "{\"schemaVersion\":1,\"fingerprint\":\"app/cluster-drill-" + run + "-" + n
                    + "\",\"state\":\"" + state
                    + "\",\"severity\":\"warning\",\"service\":\"drill\",\"summary\":\"Cluster drill app alert " + n
                    + "\",\"firstSeen\":" + now + ",\"lastSeen\":" + now + "}";
            for (int attempt = 0; attempt < layout.ingests() * 2; attempt++) {
                int instance = 1 + (n + attempt) % layout.ingests();
                try {
                    HttpResponse<String> r = http.send(
                            HttpRequest.newBuilder(URI.create(layout.ingestUrl(instance) + "/v1/alerts"))
                                    .header("Authorization", "Bearer " + cluster.ingestKey())
                                    .header("Content-Type", "application/json")
                                    .timeout(Duration.ofSeconds(10))
                                    .POST(HttpRequest.BodyPublishers.ofString(body))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
                    if (r.statusCode() == 202) {
                        for (JsonNode a : JSON.readTree(r.body()).path("assigned")) {
                            accepted.add(a.path("eventId").asText());
                        }
                        if (attempt > 0) {
                            failedOver.incrementAndGet();
                        }
                        return;
                    }
                    refused.incrementAndGet();
                } catch (IOException e) {
                    refused.incrementAndGet();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    // ---------------------------------------------------------------- drills

    private void brokerDrill() {
        Instant t = Instant.now();
        int leader;
        try (Admin admin = cluster.admin()) {
            TopicDescription d = admin.describeTopics(List.of(ALERTS_TOPIC))
                    .allTopicNames()
                    .get(10, TimeUnit.SECONDS)
                    .get(ALERTS_TOPIC);
            leader = d.partitions().get(0).leader().id();
        } catch (Exception e) {
            throw new IllegalStateException("cannot find the leader of " + ALERTS_TOPIC + "-0: " + e.getMessage(), e);
        }
        String name = LocalCluster.broker(leader);
        out.println("drill broker: kill -9 " + name + " (leader of " + ALERTS_TOPIC + "-0)");
        out.flush();
        cluster.kill9(name);
        LocalCluster.sleep(plan.brokerDown().toMillis());
        cluster.start(name);
        double isr = awaitFullIsr(Duration.ofMinutes(3));
        record(new Step(
                "broker",
                LocalCluster.seconds(t),
                Map.of("killed", name, "down_s", fmt(plan.brokerDown().toSeconds()), "back_in_isr_s", fmt(isr))));
    }

    private static double secondsSince(Instant later, Instant earlier) {
        return Duration.between(earlier, later).toMillis() / 1000.0;
    }

    /** Waits until every partition of every Vigil topic has all three replicas in sync; seconds since the call. */
    private double awaitFullIsr(Duration timeout) {
        Instant t = Instant.now();
        Instant deadline = t.plus(timeout);
        try (Admin admin = cluster.admin()) {
            while (true) {
                try {
                    Set<String> names = admin.listTopics().names().get(10, TimeUnit.SECONDS).stream()
                            .filter(n -> n.startsWith("vigil."))
                            .collect(Collectors.toSet());
                    boolean full =
                            admin.describeTopics(names).allTopicNames().get(10, TimeUnit.SECONDS).values().stream()
                                    .flatMap(d -> d.partitions().stream())
                                    .allMatch(p -> p.isr().size() == layout.brokers());
                    if (full) {
                        return LocalCluster.seconds(t);
                    }
                } catch (Exception e) {
                    // the cluster is still settling
                }
                if (Instant.now().isAfter(deadline)) {
                    throw new IllegalStateException("replicas not back in sync within " + timeout.toSeconds() + " s");
                }
                LocalCluster.sleep(500);
            }
        }
    }

    private void streamsDrill() {
        Instant t = Instant.now();
        String victim = LocalCluster.streams(1);
        List<String> ofVictim = localMonitors(1);
        out.println("drill streams: kill -9 " + victim + " (active for " + ofVictim.size()
                + " of the drill's monitors)," + " querying streams-2 every 100 ms");
        out.flush();
        cluster.kill9(victim);
        Instant killed = Instant.now();
        Instant lastWhole = killed;
        double longestGap = 0;
        Instant wholeAgainSince = null;
        int answers = 0;
        int notWhole = 0;
        int fromStandby = 0;
        // each monitor's first verdict decided after the kill, caught before the next one replaces it (10 s windows)
        Map<String, Long> firstDecidedAfterKill = new HashMap<>();
        Instant deadline = killed.plus(Duration.ofMinutes(3));
        while (Instant.now().isBefore(deadline)) {
            StatusSnapshot snapshot = status(2);
            answers++;
            Instant now = Instant.now();
            if (snapshot != null) {
                snapshot.decidedAt().forEach((id, at) -> {
                    if (at > killed.toEpochMilli()) {
                        firstDecidedAfterKill.putIfAbsent(id, at);
                    }
                });
                fromStandby += snapshot.fromStandby() ? 1 : 0;
            }
            if (snapshot != null && snapshot.decided() == monitors.size()) {
                longestGap = Math.max(longestGap, secondsSince(now, lastWhole));
                lastWhole = now;
                if (wholeAgainSince == null) {
                    wholeAgainSince = now;
                }
                if (secondsSince(now, killed) > 20
                        && secondsSince(now, wholeAgainSince) > 10
                        && firstDecidedAfterKill.keySet().containsAll(monitors)) {
                    break;
                }
            } else {
                notWhole++;
                wholeAgainSince = null;
            }
            LocalCluster.sleep(100);
        }
        if (wholeAgainSince == null) {
            throw new IllegalStateException("streams-2 did not answer for every monitor within 3 minutes of the kill");
        }
        Instant restart = Instant.now();
        cluster.start(victim);
        cluster.awaitReady(victim, Duration.ofMinutes(3));
        Map<String, String> figures = new java.util.LinkedHashMap<>();
        figures.put("killed", victim);
        figures.put("query_gap_s", fmt(longestGap));
        figures.put("queries", "" + answers);
        figures.put("not_whole", "" + notWhole);
        figures.put("answered_from_standby", "" + fromStandby);
        figures.put(
                "first_verdict_of_killed_s",
                fmt(secondsAfter(
                        killed,
                        ofVictim.stream()
                                .mapToLong(id -> firstDecidedAfterKill.getOrDefault(id, Long.MAX_VALUE))
                                .min()
                                .orElse(Long.MAX_VALUE))));
        figures.put(
                "every_monitor_decided_again_s",
                fmt(secondsAfter(
                        killed,
                        monitors.stream()
                                .mapToLong(id -> firstDecidedAfterKill.getOrDefault(id, Long.MAX_VALUE))
                                .max()
                                .orElse(Long.MAX_VALUE))));
        figures.put("restart_ready_s", fmt(LocalCluster.seconds(restart)));
        record(new Step("streams", LocalCluster.seconds(t), figures));
    }

    /** Seconds from {@code since} to {@code epochMs}; -1 when it never came ({@link Long#MAX_VALUE}). */
    private static double secondsAfter(Instant since, long epochMs) {
        return epochMs == Long.MAX_VALUE ? -1 : (epochMs - since.toEpochMilli()) / 1000.0;
    }

    /** The drill's monitors a Streams instance is active for ({@code /v1/status?scope=local}); empty if it fails. */
    private List<String> localMonitors(int instance) {
        try {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(URI.create(layout.streamsUrl(instance) + "/v1/status?scope=local"))
                            .header("Authorization", "Bearer " + cluster.adminToken())
                            .timeout(Duration.ofSeconds(3))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            List<String> ids = new ArrayList<>();
            if (r.statusCode() == 200) {
                for (JsonNode m : JSON.readTree(r.body()).path("monitors")) {
                    if (monitors.contains(m.path("monitorId").asText())) {
                        ids.add(m.path("monitorId").asText());
                    }
                }
            }
            return ids;
        } catch (IOException e) {
            return List.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        }
    }

    private void notifierDrill(VendorSink sink) {
        Instant t = Instant.now();
        String survivor = LocalCluster.notifier(2);
        String victim = LocalCluster.notifier(1);
        // with one notifier left, the next page the sink receives was sent by it
        cluster.stop(survivor);
        AtomicReference<String> inFlight = new AtomicReference<>();
        AtomicReference<RuntimeException> hookFailure = new AtomicReference<>();
        int before = sink.pages().size();
        sink.armBeforeReply(() -> {
            try {
                List<VendorSink.Page> pages = sink.pages();
                String eventId = pages.get(pages.size() - 1).eventId();
                cluster.kill9(victim);
                inFlight.set(eventId);
            } catch (RuntimeException e) {
                hookFailure.set(e);
            }
        });
        out.println("drill notifier: " + survivor + " stopped; kill -9 " + victim
                + " when its next page reaches the vendor");
        out.flush();
        Instant deadline = Instant.now().plus(Duration.ofMinutes(2));
        while (inFlight.get() == null
                && hookFailure.get() == null
                && Instant.now().isBefore(deadline)) {
            LocalCluster.sleep(100);
        }
        if (hookFailure.get() != null) {
            throw new IllegalStateException(
                    "killing " + victim + " at the vendor failed: "
                            + hookFailure.get().getMessage(),
                    hookFailure.get());
        }
        if (inFlight.get() == null) {
            throw new IllegalStateException("no page reached the vendor within 2 minutes with one notifier running");
        }
        Instant killed = Instant.now();
        // In flight too: every page the victim had claimed and not settled when it died. It sends several at once (a
        // partition taken over from the stopped notifier arrives as a burst), so the vendor may answer others while
        // it holds this one. With both notifiers down, the store says exactly which pages the next notifier will
        // send again once their leases run out.
        Map<String, String> unsettled = cluster.postgres().unsettledClaims(postgresPasswordOf());
        allowedResends.addAll(unsettled.keySet());
        allowedResends.add(inFlight.get());
        int unsettledAtKill = unsettled.size();
        // more than one owner would mean the notifier stopped cleanly beforehand left claims unsettled
        int unsettledOwners = new java.util.HashSet<>(unsettled.values()).size();
        cluster.start(victim);
        cluster.start(survivor);
        cluster.awaitReady(victim, Duration.ofMinutes(2));
        cluster.awaitReady(survivor, Duration.ofMinutes(2));
        double ready = LocalCluster.seconds(killed);
        // the page in flight is sent again after its claim's lease; wait for it so the count below is final
        Instant until = Instant.now().plus(Duration.ofSeconds(60));
        while (Instant.now().isBefore(until)
                && sink.pages().stream()
                                .filter(p -> p.eventId().equals(inFlight.get()))
                                .count()
                        < 2) {
            LocalCluster.sleep(500);
        }
        long copies = sink.pages().stream()
                .filter(p -> p.eventId().equals(inFlight.get()))
                .count();
        record(new Step(
                "notifier",
                LocalCluster.seconds(t),
                Map.of(
                        "killed",
                        victim,
                        "in_flight",
                        inFlight.get(),
                        "copies_of_in_flight",
                        "" + copies,
                        "unsettled_at_kill",
                        "" + unsettledAtKill,
                        "unsettled_owners",
                        "" + unsettledOwners,
                        "pages_during",
                        "" + (sink.pages().size() - before),
                        "both_ready_s",
                        fmt(ready))));
    }

    private void postgresDrill() {
        Instant t = Instant.now();
        out.println("drill postgres: stop for " + plan.postgresDown().toSeconds() + " s");
        out.flush();
        cluster.stop(LocalCluster.POSTGRES);
        LocalCluster.sleep(plan.postgresDown().toMillis());
        cluster.start(LocalCluster.POSTGRES);
        cluster.postgres().awaitReady(Duration.ofMinutes(2), postgresPasswordOf());
        record(new Step(
                "postgres",
                LocalCluster.seconds(t),
                Map.of("down_s", fmt(plan.postgresDown().toSeconds()))));
    }

    private String postgresPasswordOf() {
        try {
            return dev.vigil.kit.auth.SecretFiles.read(layout.config().resolve("postgres-password"))
                    .orElseThrow();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private void rollingDrill() {
        Instant t = Instant.now();
        Map<String, String> figures = new LinkedHashMap<>();
        List<String> order = new ArrayList<>();
        if (plan.rollEveryInstance()) {
            order.addAll(cluster.brokerNames());
            order.addAll(cluster.serviceNames());
        } else {
            order.addAll(List.of(
                    LocalCluster.streams(2),
                    LocalCluster.notifier(2),
                    LocalCluster.ingest(2),
                    LocalCluster.probe(layout.regions().get(layout.regions().size() - 1))));
        }
        for (String name : order) {
            out.println("drill rolling: restart " + name);
            out.flush();
            Instant s = Instant.now();
            cluster.stop(name);
            cluster.start(name);
            if (name.startsWith("kafka-")) {
                awaitFullIsr(Duration.ofMinutes(3));
            } else {
                cluster.awaitReady(name, Duration.ofMinutes(3));
            }
            figures.put(name, fmt(LocalCluster.seconds(s)));
        }
        record(new Step("rolling", LocalCluster.seconds(t), figures));
    }

    // ---------------------------------------------------------------- the count

    private Report settle(VendorSink sink, DrillTargets targets, AppPoster poster) {
        // every outage is over: wait until each flapping monitor's incidents are resolved and the sink has every page
        Instant deadline = Instant.now().plus(Duration.ofMinutes(4));
        Map<String, JsonNode> onTopic;
        Set<String> expected;
        while (true) {
            Map<String, JsonNode> read = readAlerts();
            onTopic = read;
            expected = read.values().stream()
                    .filter(e -> !e.path("silenced").asBoolean(false))
                    .map(e -> e.path("eventId").asText())
                    .collect(Collectors.toSet());
            Set<String> delivered =
                    sink.pages().stream().map(VendorSink.Page::eventId).collect(Collectors.toSet());
            boolean allResolved = flapping.stream()
                    .allMatch(id -> lastState(onTopic(read, id)).equals("resolved")
                            || onTopic(read, id).isEmpty());
            if (allResolved
                    && delivered.containsAll(expected)
                    && Instant.now().isAfter(poster.lastPost().plusSeconds(5))) {
                break;
            }
            if (Instant.now().isAfter(deadline)) {
                break;
            }
            LocalCluster.sleep(2000);
        }
        Map<String, Long> copies = sink.pages().stream()
                .collect(Collectors.groupingBy(VendorSink.Page::eventId, TreeMap::new, Collectors.counting()));
        List<String> lost =
                expected.stream().filter(id -> !copies.containsKey(id)).sorted().toList();
        List<String> duplicated = new ArrayList<>();
        int duplicates = 0;
        for (var e : copies.entrySet()) {
            for (long i = 1; i < e.getValue(); i++) {
                duplicated.add(e.getKey());
                duplicates++;
            }
        }
        Map<String, JsonNode> topic = onTopic;
        List<String> ingestMissing = poster.accepted.stream()
                .filter(id -> !topic.containsKey(id))
                .sorted()
                .toList();

        Map<String, String> scenario = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        List<String> warmup = new ArrayList<>();
        for (String id : monitors) {
            onTopic.values().stream()
                    .filter(e -> e.path("fingerprint").asText().equals("monitor/" + id))
                    .filter(e -> e.path("state").asText().equals("opened") && !inScenario(e))
                    .forEach(e -> warmup.add(e.path("incidentId").asText()));
        }
        scenario.put("warmup_incidents", warmup.isEmpty() ? "none" : String.join(",", warmup));
        for (String id : flapping) {
            List<JsonNode> events = onTopic(onTopic, id);
            long opened = events.stream()
                    .filter(e -> e.path("state").asText().equals("opened"))
                    .count();
            long resolved = events.stream()
                    .filter(e -> e.path("state").asText().equals("resolved"))
                    .count();
            int outages = targets.outages(id).size();
            scenario.put(id, "outages=" + outages + " opened=" + opened + " resolved=" + resolved);
            if (opened != outages || resolved != outages) {
                problems.add(id + ": " + outages + " outages, " + opened + " opened, " + resolved + " resolved");
            }
            String previous = "resolved";
            for (JsonNode e : events) {
                String state = e.path("state").asText();
                if ((state.equals("opened") && !previous.equals("resolved"))
                        || (state.equals("resolved") && previous.equals("resolved"))) {
                    problems.add(id + ": " + state + " after " + previous + " ("
                            + e.path("eventId").asText() + ")");
                }
                if (state.equals("opened") || state.equals("resolved")) {
                    previous = state;
                }
            }
        }
        for (String id : monitors) {
            if (!flapping.contains(id) && !onTopic(onTopic, id).isEmpty()) {
                problems.add(id + ": never failed but has alert events "
                        + onTopic(onTopic, id).size());
            }
        }
        scenario.put(
                "app",
                "accepted=" + poster.accepted.size() + " refused_attempts=" + poster.refused.get() + " failed_over="
                        + poster.failedOver.get());
        return new Report(
                List.of(),
                expected.size(),
                copies.size(),
                lost,
                duplicates,
                duplicated,
                Set.of(),
                poster.accepted.size(),
                ingestMissing,
                scenario,
                problems);
    }

    /**
     * Waits (within {@code bound}) until no incident of the drill's monitors is open: one a cold start opened (slow
     * first probes on a busy machine) would still be open when the first outage began, the outage would extend it
     * instead of opening its own, and the count would see an outage that never paged.
     */
    private void awaitWarmUpIncidentsResolved(Duration bound) {
        Instant deadline = Instant.now().plus(bound);
        while (Instant.now().isBefore(deadline)) {
            Map<String, JsonNode> read = readAlerts();
            boolean open = monitors.stream().anyMatch(id -> lastState(read.values().stream()
                            .filter(e -> e.path("fingerprint").asText().equals("monitor/" + id))
                            .toList())
                    .equals("opened"));
            if (!open) {
                return;
            }
            LocalCluster.sleep(2000);
        }
    }

    /** The events of a monitor's incidents that opened once the scenario had begun. */
    private List<JsonNode> onTopic(Map<String, JsonNode> events, String monitorId) {
        return events.values().stream()
                .filter(e -> e.path("fingerprint").asText().equals("monitor/" + monitorId))
                .filter(this::inScenario)
                .toList();
    }

    /** An event of an incident whose first breach came at or after the scenario's first window. */
    private boolean inScenario(JsonNode event) {
        long firstWindow = scenarioStartMs - scenarioStartMs % 10_000;
        return event.path("firstSeen").asLong(Long.MAX_VALUE) >= firstWindow;
    }

    private static String lastState(List<JsonNode> events) {
        String last = "";
        for (JsonNode e : events) {
            String s = e.path("state").asText();
            if (s.equals("opened") || s.equals("resolved")) {
                last = s;
            }
        }
        return last;
    }

    /** Every committed event on vigil.alerts, by event id, in partition order (a fingerprint keeps to one partition). */
    private Map<String, JsonNode> readAlerts() {
        Map<String, Object> props = new HashMap<>();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, layout.bootstrapServers());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        Map<String, JsonNode> events = new LinkedHashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> parts = consumer.partitionsFor(ALERTS_TOPIC).stream()
                    .map(p -> new TopicPartition(ALERTS_TOPIC, p.partition()))
                    .toList();
            consumer.assign(parts);
            Map<TopicPartition, Long> end = consumer.endOffsets(parts);
            // this run's events only: each partition from its first record stamped at or after the start
            Map<TopicPartition, Long> at = new HashMap<>();
            parts.forEach(p -> at.put(p, started.toEpochMilli()));
            consumer.offsetsForTimes(at).forEach((p, o) -> consumer.seek(p, o == null ? end.get(p) : o.offset()));
            Instant deadline = Instant.now().plusSeconds(60);
            while (parts.stream().anyMatch(p -> consumer.position(p) < end.get(p))
                    && Instant.now().isBefore(deadline)) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    try {
                        JsonNode n = JSON.readTree(r.value());
                        events.putIfAbsent(n.path("eventId").asText(), n);
                    } catch (IOException e) {
                        // not an alert event: the dead-letter path's business, not the drill's
                    }
                }
            }
        }
        return events;
    }

    private static void joinQuietly(Thread t) {
        try {
            t.join(15_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String fmt(double seconds) {
        return String.format(java.util.Locale.ROOT, "%.1f", seconds);
    }
}

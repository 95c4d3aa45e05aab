package dev.vigil.ingest.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.embedded.junit.WithKafka;
import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.kit.auth.BearerTokens;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.CheckType;
import dev.vigil.schemas.contract.DomainMetric;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.contract.VendorIncidentUpdate;
import dev.vigil.schemas.contract.WorkerHeartbeat;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.json.VigilSerdes;
import dev.vigil.schemas.sign.RequestSigner;
import dev.vigil.schemas.topic.Topics;
import dev.vigil.schemas.validate.PrivacyGuard;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * At least 5,000 random and mutated bodies against each ingest write route (metrics, probe results, worker heartbeats,
 * alert events, Alertmanager webhooks, the BetterStack webhook, heartbeat pings): structure-aware mutations of valid
 * seeds, byte-level mutations, garbage, odd content types, wrong credentials, GET pings. One server, a bounded number
 * of requests at once. No answer is a 5xx; nothing sent with a wrong credential, a bad signature or by GET to a
 * monitor that did not opt in is ever 2xx; and what reaches the topics is exactly what the 202 answers counted as
 * accepted, every record a valid, privacy-clean event of the caller's own identity.
 */
@WithKafka
class FuzzIT {
    private static final int PER_ROUTE = 5_000;
    private static final int CONCURRENCY = 8;
    private static final String PING_MONITOR = "fz-ping";
    private static final String PING_TOKEN = "vgl_fuzzPingToken0123456789abcdefghijklmnopqrstu";
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final String[] NASTY_STRINGS = {
        "",
        " ",
        "bob@example.com",
        "+1 415 555 2671",
        "4111 1111 1111 1111",
        "password=hunter2hunter2",
        "Bearer 4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c",
        "/p?q=1&r=2",
        "\u0000\u0001",
        "\n",
        "x".repeat(5000),
        "ünï©ødé",
        "\uD800",
        "../../etc",
        "P1",
        "firing",
        "resolved",
        "opened",
        "app",
        "probe",
        "200",
        "5xx",
        "1e308",
        "-1",
        "alertmanager/x",
        "a/b/c/d/e/f",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc",
        "%40example.com",
        "http://h/p#t=1",
        "Acknowledged",
        "Resolved",
        "vigil",
        "\u202Eevil",
        "2026-01-01T00:00:00Z"
    };

    /** The write routes, each fuzzed {@value #PER_ROUTE} times. */
    enum Route {
        METRICS,
        PROBE_RESULTS,
        HEARTBEATS,
        ALERTS,
        ALERTMANAGER,
        BETTERSTACK,
        PING
    }

    /** One request's outcome: what it may have published, and whether it had to be refused. */
    private record Outcome(Route route, int status, int accepted, boolean mustRefuse, String what) {}

    @Test
    void randomAndMutatedBodiesNeverCauseA5xxNorProduceInvalidRecords(EmbeddedKafka kafka) throws Exception {
        long seed = Long.getLong("fuzz.seed", System.nanoTime());
        String ctx = "fuzz seed " + seed + " (rerun with -Dfuzz.seed=" + seed + ")";
        kafka.createTopics(Topics.all().stream().map(t -> t.withPartitions(3)).toList());
        try (var monitors =
                new KafkaProducer<>(kafka.producerProps(), new StringSerializer(), VigilSerdes.monitorDefinition())) {
            monitors.send(new ProducerRecord<>(
                            Topics.MONITORS,
                            PING_MONITOR,
                            new MonitorDefinition(
                                    1,
                                    PING_MONITOR,
                                    null,
                                    null,
                                    null,
                                    7 * 24 * 3600,
                                    null,
                                    List.of(),
                                    null,
                                    null,
                                    null,
                                    null,
                                    null,
                                    Map.of(),
                                    null,
                                    CheckType.HEARTBEAT,
                                    null,
                                    null,
                                    null,
                                    null,
                                    null,
                                    new MonitorDefinition.Heartbeat(null, null, 60, BearerTokens.hash(PING_TOKEN)))))
                    .get();
        }
        // quotas out of the way: the fuzz is about bodies, and the quotas have their own tests
        try (IngestHarness ingest = new IngestHarness(kafka, c -> IngestHarness.withBetterStack(c)
                .withQuotas(c.quotas()
                        .withRates(1_000_000, 1_000_000, 1_000_000, 1_000_000)
                        .withMaxSeriesPerApp(1_000_000)))) {
            org.awaitility.Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> ingest.meter("vigil.ingest.heartbeat.catalog.ready") == 1.0);
            Map<Route, Map<Integer, Integer>> statuses = new ConcurrentHashMap<>();
            Map<String, AtomicInteger> acceptedByTopic = new ConcurrentHashMap<>();
            List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
            ExecutorService pool = Executors.newFixedThreadPool(CONCURRENCY);
            try {
                List<Future<?>> tasks = new ArrayList<>();
                Route[] routes = Route.values();
                for (int n = 0; n < PER_ROUTE * routes.length; n++) {
                    int index = n;
                    Route route = routes[n % routes.length];
                    tasks.add(pool.submit(() -> {
                        Random rnd = new Random(seed * 31 + index);
                        Outcome o;
                        try {
                            o = send(ingest, route, rnd);
                        } catch (RuntimeException e) {
                            failures.add(ctx + ", request #" + index + " to " + route + " got no answer: " + e);
                            return;
                        }
                        statuses.computeIfAbsent(route, r -> new ConcurrentHashMap<>())
                                .merge(o.status(), 1, Integer::sum);
                        if (o.status() >= 500 || o.status() < 200) {
                            failures.add(
                                    ctx + ", request #" + index + " to " + route + ": " + o.status() + " " + o.what());
                        }
                        if (o.mustRefuse() && o.status() < 300) {
                            failures.add(ctx + ", request #" + index + " to " + route + " should have been refused: "
                                    + o.status() + " " + o.what());
                        }
                        if (o.accepted() > 0) {
                            acceptedByTopic
                                    .computeIfAbsent(topic(route), t -> new AtomicInteger())
                                    .addAndGet(o.accepted());
                        }
                    }));
                }
                for (Future<?> f : tasks) {
                    f.get();
                }
            } finally {
                pool.shutdownNow();
            }
            System.out.println("fuzz statuses " + statuses + ", accepted " + acceptedByTopic + ", " + ctx);
            assertThat(failures).as(ctx).isEmpty();
            for (Route r : Route.values()) {
                assertThat(statuses.get(r).values().stream()
                                .mapToInt(Integer::intValue)
                                .sum())
                        .isEqualTo(PER_ROUTE);
            }
            assertThat(statuses.get(Route.METRICS).keySet())
                    .as("the fuzz reaches both outcomes")
                    .contains(202, 400, 422);
            assertThat(statuses.get(Route.ALERTS).keySet()).contains(202);
            assertThat(statuses.get(Route.BETTERSTACK).keySet()).contains(202, 400, 401);
            assertThat(statuses.get(Route.PING).keySet()).contains(401, 405);
            checkPublished(ingest, acceptedByTopic, ctx);
        }
    }

    private static String topic(Route route) {
        return switch (route) {
            case METRICS -> Topics.METRICS;
            case PROBE_RESULTS, PING -> Topics.PROBE_RESULTS;
            case HEARTBEATS -> Topics.HEARTBEATS;
            case ALERTS, ALERTMANAGER -> Topics.ALERTS;
            case BETTERSTACK -> Topics.VENDOR_UPDATES;
        };
    }

    private static Outcome send(IngestHarness ingest, Route route, Random rnd) {
        long now = System.currentTimeMillis();
        byte[] body = body(rnd, route, now);
        String contentType = contentType(rnd, route);
        boolean junk = rnd.nextInt(20) == 0;
        IngestHarness.Reply reply;
        switch (route) {
            case METRICS -> reply = ingest.post(
                    "/v1/metrics", contentType, body, IngestHarness.bearer(junk ? "junk" : IngestHarness.CHECKOUT_KEY));
            case ALERTS, ALERTMANAGER -> reply = ingest.post(
                    "/v1/alerts",
                    contentType,
                    body,
                    IngestHarness.bearer(junk ? IngestHarness.CHECKOUT_KEY + "x" : IngestHarness.CHECKOUT_KEY));
            case PROBE_RESULTS -> reply =
                    ingest.post("/v1/probe-results", contentType, body, signed(ingest, now, body, rnd, junk));
            case HEARTBEATS -> reply =
                    ingest.post("/v1/heartbeats", contentType, body, signed(ingest, now, body, rnd, junk));
            case BETTERSTACK -> reply = ingest.post(
                    "/v1/integrations/betterstack/"
                            + (junk ? IngestHarness.BETTERSTACK_TOKEN + "x" : IngestHarness.BETTERSTACK_TOKEN),
                    contentType,
                    body,
                    Map.of());
            default -> {
                boolean get = rnd.nextInt(10) == 0;
                String path = "/v1/heartbeat/" + PING_MONITOR + (rnd.nextBoolean() ? "/fail" : "");
                Map<String, String> auth =
                        IngestHarness.bearer(junk ? PING_TOKEN.toUpperCase(java.util.Locale.ROOT) : PING_TOKEN);
                reply = get ? ingest.getWith(path, auth) : ingest.post(path, contentType, body, auth);
                junk |= get;
            }
        }
        int accepted = 0;
        if (reply.status() == 202) {
            JsonNode json = reply.json();
            accepted = route == Route.PING ? 1 : json.get("accepted").asInt();
        }
        if (reply.status() >= 400 && !reply.contentType().startsWith("application/problem+json")) {
            return new Outcome(route, 599, 0, junk, "not problem+json: " + reply.contentType());
        }
        return new Outcome(
                route,
                reply.status(),
                accepted,
                junk,
                reply.text().length() > 300 ? reply.text().substring(0, 300) : reply.text());
    }

    private static void checkPublished(IngestHarness ingest, Map<String, AtomicInteger> acceptedByTopic, String ctx) {
        Map<String, Integer> expectedByTopic = new HashMap<>();
        for (Route r : Route.values()) {
            expectedByTopic.put(
                    topic(r),
                    acceptedByTopic.getOrDefault(topic(r), new AtomicInteger()).get());
        }
        int expected =
                expectedByTopic.values().stream().mapToInt(Integer::intValue).sum();
        try (var consumer = ingest.consumer(
                Topics.METRICS, Topics.PROBE_RESULTS, Topics.ALERTS, Topics.HEARTBEATS, Topics.VENDOR_UPDATES)) {
            List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
            IngestHarness.pollUntil(consumer, rs -> rs.size() >= expected, records, Duration.ofSeconds(120));
            for (int i = 0; i < 5; i++) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
            assertThat(records).as(ctx).hasSize(expected);
            Map<String, Integer> byTopic = new HashMap<>();
            expectedByTopic.keySet().forEach(t -> byTopic.put(t, 0));
            for (var r : records) {
                byTopic.merge(r.topic(), 1, Integer::sum);
                switch (r.topic()) {
                    case Topics.METRICS -> {
                        DomainMetric m = Json.read(r.value(), DomainMetric.class);
                        assertThat(PrivacyGuard.inspect(m)).as(ctx).isEmpty();
                        assertThat(m.appId()).isEqualTo("checkout");
                        assertThat(r.key()).isEqualTo(m.key());
                    }
                    case Topics.PROBE_RESULTS -> {
                        ProbeResult p = Json.read(r.value(), ProbeResult.class);
                        assertThat(PrivacyGuard.inspect(p)).as(ctx).isEmpty();
                        if (p.region().equals("push")) {
                            assertThat(p.monitorId()).isEqualTo(PING_MONITOR);
                            assertThat(p.workerId()).isEqualTo("ingest");
                        } else {
                            assertThat(p.region()).isEqualTo("us-east");
                        }
                    }
                    case Topics.HEARTBEATS -> {
                        WorkerHeartbeat h = Json.read(r.value(), WorkerHeartbeat.class);
                        assertThat(h.workerId()).as(ctx).isEqualTo("w-us-east");
                        assertThat(h.region()).as(ctx).isEqualTo("us-east");
                        assertThat(r.key()).isEqualTo(h.workerId());
                    }
                    case Topics.VENDOR_UPDATES -> {
                        VendorIncidentUpdate u = Json.read(r.value(), VendorIncidentUpdate.class);
                        assertThat(u.vendor()).isEqualTo("betterstack");
                        assertThat(u.by() == null ? java.util.Optional.empty() : PrivacyGuard.check("by", u.by()))
                                .as(ctx)
                                .isEmpty();
                        if (u.action() == VendorIncidentUpdate.Action.RESOLVED) {
                            assertThat(u.by())
                                    .as(ctx + ": Vigil's own resolution is never echoed")
                                    .isNotEqualToIgnoringCase("vigil");
                        }
                        assertThat(u.at())
                                .as(ctx + ": only fresh acts")
                                .isGreaterThan(System.currentTimeMillis() - 15 * 60_000);
                    }
                    default -> {
                        AlertEvent a = Json.read(r.value(), AlertEvent.class);
                        assertThat(PrivacyGuard.inspect(a)).as(ctx).isEmpty();
                        assertThat(a.source()).isEqualTo(AlertSource.APP);
                        assertThat(r.key()).isEqualTo(a.fingerprint());
                        // Whatever the body claimed, an app's event stays in its namespace under ids Vigil derived.
                        assertThat(a.fingerprint()).as(ctx).startsWith("app/checkout/");
                        assertThat(a.attributes()).as(ctx).containsEntry("app", "checkout");
                        assertThat(a.eventId()).as(ctx).isEqualTo(AlertEvent.appEventId(a.fingerprint(), a.state()));
                        assertThat(a.incidentId())
                                .as(ctx)
                                .isEqualTo(AlertEvent.incidentIdFor(a.fingerprint(), a.firstSeen()));
                    }
                }
            }
            assertThat(byTopic).as(ctx).isEqualTo(expectedByTopic);
        }
    }

    /** Signed with the us-east key; when {@code bad}, one of: another secret, an unknown key id, a zero signature. */
    private static Map<String, String> signed(IngestHarness ingest, long now, byte[] body, Random rnd, boolean bad) {
        String id = "fz-" + rnd.nextLong();
        int how = bad ? rnd.nextInt(3) : -1;
        Map<String, String> h = new HashMap<>();
        h.put(RequestSigner.HEADER_KEY_ID, how == 1 ? "w-nowhere" : "w-us-east");
        h.put(RequestSigner.HEADER_TIMESTAMP, Long.toString(now));
        h.put(RequestSigner.HEADER_REQUEST_ID, id);
        h.put(RequestSigner.HEADER_REGION, "us-east");
        h.put(
                RequestSigner.HEADER_SIGNATURE,
                how == 2
                        ? "v1=" + "0".repeat(64)
                        : (how == 0 ? ingest.euWest : ingest.usEast).sign(now, id, "us-east", body));
        return h;
    }

    private static String contentType(Random rnd, Route route) {
        int r = rnd.nextInt(40);
        if (r == 0) {
            return null;
        }
        if (r == 1) {
            return "text/plain";
        }
        if (r == 2) {
            return "application/json; charset=utf-8";
        }
        if (r == 3 && (route == Route.METRICS || route == Route.PROBE_RESULTS || route == Route.HEARTBEATS)) {
            return "application/x-ndjson";
        }
        return "application/json";
    }

    private static byte[] body(Random rnd, Route route, long now) {
        if (route == Route.PING && rnd.nextInt(3) > 0) {
            return rnd.nextBoolean()
                    ? new byte[0]
                    : ("backup done: " + NASTY_STRINGS[rnd.nextInt(NASTY_STRINGS.length)])
                            .getBytes(StandardCharsets.UTF_8);
        }
        int kind = rnd.nextInt(10);
        if (kind == 0) {
            byte[] garbage = new byte[rnd.nextInt(2000)];
            rnd.nextBytes(garbage);
            return garbage;
        }
        if (kind == 1) {
            return deep(rnd.nextInt(2) == 0 ? '[' : '{', 10 + rnd.nextInt(3000));
        }
        JsonNode seed = seed(rnd, route, now);
        int mutations = kind == 2 ? 0 : 1 + rnd.nextInt(4);
        for (int i = 0; i < mutations; i++) {
            seed = mutate(seed, rnd);
        }
        byte[] bytes = Json.bytes(seed);
        if (rnd.nextInt(4) == 0) {
            bytes = mutateBytes(bytes, rnd);
        }
        return bytes;
    }

    private static byte[] deep(char open, int depth) {
        String s = String.valueOf(open).repeat(depth);
        return (open == '{' ? s.replace("{", "{\"a\":") : s).getBytes(StandardCharsets.UTF_8);
    }

    private static JsonNode seed(Random rnd, Route route, long now) {
        if (route == Route.ALERTMANAGER) {
            return Json.tree(Events.alertmanager(
                            rnd.nextBoolean() ? "firing" : "resolved",
                            rnd.nextBoolean() ? null : Long.toHexString(rnd.nextLong()),
                            rnd.nextBoolean() ? "P1" : "warning")
                    .getBytes(StandardCharsets.UTF_8));
        }
        if (route == Route.BETTERSTACK) {
            String at =
                    java.time.Instant.ofEpochMilli(now - rnd.nextInt(400_000)).toString();
            String[] statuses = {"Acknowledged", "Resolved", "Started", "Validating"};
            String by = "Person " + rnd.nextInt(9);
            boolean resolved = rnd.nextBoolean();
            JsonNode incident = Json.tree(Events.betterStackIncident(
                            Integer.toString(rnd.nextInt(2000)),
                            statuses[rnd.nextInt(4)],
                            rnd.nextInt(5) == 0 ? null : at,
                            by,
                            resolved ? at : null,
                            resolved ? by : null)
                    .getBytes(StandardCharsets.UTF_8));
            if (rnd.nextInt(3) == 0) {
                // a name with anything in it (quotes, controls, bidi overrides, contact details), JSON-escaped
                ObjectNode attributes = (ObjectNode) incident.get("data").get("attributes");
                String nasty = NASTY_STRINGS[rnd.nextInt(NASTY_STRINGS.length)];
                attributes.put(resolved ? "resolved_by" : "acknowledged_by", nasty);
            }
            return incident;
        }
        int n = 1 + rnd.nextInt(5);
        List<String> items = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            items.add(
                    switch (route) {
                        case METRICS -> Events.metric(
                                rnd.nextBoolean() ? "checkout" : null,
                                "http_request",
                                rnd.nextBoolean() ? "200" : "503",
                                "/f/" + rnd.nextInt(1000),
                                now - rnd.nextInt(1000));
                        case PROBE_RESULTS -> Events.probeResult(
                                "mon-" + rnd.nextInt(50), "us-east", now - now % 60_000, "r-" + i);
                        case HEARTBEATS -> Events.heartbeat("w-us-east", "us-east", now - rnd.nextInt(1000));
                        default -> Events.alertEvent(
                                "app/fz-" + rnd.nextInt(100), rnd.nextBoolean() ? "opened" : "resolved", now);
                    });
        }
        return Json.tree(Events.array(items).getBytes(StandardCharsets.UTF_8));
    }

    /** Replaces, removes or adds one node somewhere in the tree. */
    private static JsonNode mutate(JsonNode root, Random rnd) {
        List<JsonNode> containers = new ArrayList<>();
        collect(root, containers);
        JsonNode target = containers.get(rnd.nextInt(containers.size()));
        if (target instanceof ObjectNode obj) {
            List<String> names = new ArrayList<>();
            obj.fieldNames().forEachRemaining(names::add);
            int op = rnd.nextInt(3);
            if (op == 0 && !names.isEmpty()) {
                obj.remove(names.get(rnd.nextInt(names.size())));
            } else if (op == 1 && !names.isEmpty()) {
                obj.set(names.get(rnd.nextInt(names.size())), randomValue(rnd, 0));
            } else {
                obj.set(
                        rnd.nextBoolean() ? NASTY_STRINGS[rnd.nextInt(NASTY_STRINGS.length)] : "f" + rnd.nextInt(9),
                        randomValue(rnd, 0));
            }
        } else if (target instanceof ArrayNode arr) {
            int op = rnd.nextInt(3);
            if (op == 0 && !arr.isEmpty()) {
                arr.remove(rnd.nextInt(arr.size()));
            } else if (op == 1 && !arr.isEmpty()) {
                arr.set(rnd.nextInt(arr.size()), randomValue(rnd, 0));
            } else {
                arr.add(
                        arr.isEmpty() || rnd.nextBoolean()
                                ? randomValue(rnd, 0)
                                : arr.get(0).deepCopy());
            }
        }
        return root;
    }

    private static void collect(JsonNode node, List<JsonNode> out) {
        if (node.isContainerNode()) {
            out.add(node);
            for (Iterator<JsonNode> it = node.elements(); it.hasNext(); ) {
                collect(it.next(), out);
            }
        }
    }

    private static JsonNode randomValue(Random rnd, int depth) {
        return switch (rnd.nextInt(depth > 2 ? 7 : 9)) {
            case 0 -> F.nullNode();
            case 1 -> F.booleanNode(rnd.nextBoolean());
            case 2 -> F.numberNode(rnd.nextLong());
            case 3 -> F.numberNode(rnd.nextDouble() * Math.pow(10, rnd.nextInt(40) - 20));
            case 4 -> F.numberNode(new java.math.BigInteger(200, rnd));
            case 5, 6 -> F.textNode(NASTY_STRINGS[rnd.nextInt(NASTY_STRINGS.length)]);
            case 7 -> {
                ArrayNode a = F.arrayNode();
                for (int i = rnd.nextInt(3); i > 0; i--) {
                    a.add(randomValue(rnd, depth + 1));
                }
                yield a;
            }
            default -> {
                ObjectNode o = F.objectNode();
                for (int i = rnd.nextInt(3); i > 0; i--) {
                    o.set(NASTY_STRINGS[rnd.nextInt(NASTY_STRINGS.length)], randomValue(rnd, depth + 1));
                }
                yield o;
            }
        };
    }

    private static byte[] mutateBytes(byte[] in, Random rnd) {
        byte[] b = in.clone();
        switch (rnd.nextInt(4)) {
            case 0 -> {
                for (int i = 1 + rnd.nextInt(5); i > 0 && b.length > 0; i--) {
                    b[rnd.nextInt(b.length)] = (byte) rnd.nextInt(256);
                }
            }
            case 1 -> b = java.util.Arrays.copyOf(b, rnd.nextInt(b.length + 1));
            case 2 -> {
                int at = rnd.nextInt(b.length + 1);
                byte[] ins = Set.of("\"", "}", "]", ",", "\\", "\n", "{", "[", "null", "\u00ff").stream()
                        .toList()
                        .get(rnd.nextInt(10))
                        .getBytes(StandardCharsets.UTF_8);
                byte[] out = new byte[b.length + ins.length];
                System.arraycopy(b, 0, out, 0, at);
                System.arraycopy(ins, 0, out, at, ins.length);
                System.arraycopy(b, at, out, at + ins.length, b.length - at);
                b = out;
            }
            default -> {
                if (b.length > 2) {
                    int from = rnd.nextInt(b.length - 1);
                    int to = from + rnd.nextInt(b.length - from);
                    byte[] out = new byte[b.length - (to - from)];
                    System.arraycopy(b, 0, out, 0, from);
                    System.arraycopy(b, to, out, from, b.length - to);
                    b = out;
                }
            }
        }
        return b;
    }
}

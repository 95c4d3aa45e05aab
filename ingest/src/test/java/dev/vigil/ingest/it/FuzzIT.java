package dev.vigil.ingest.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.embedded.junit.WithKafka;
import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.DomainMetric;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.json.Json;
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
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * At least 5,000 random and mutated bodies against all three routes (structure-aware mutations of valid
 * seeds, byte-level mutations, garbage, odd content types). No answer is a 5xx, and what reaches the
 * topics is exactly what the 202 answers counted as accepted, every record a valid, privacy-clean event.
 */
@WithKafka
class FuzzIT {
    private static final int BODIES = 5_200;
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final String[] NASTY_STRINGS = {
        "", " ", "bob@example.com", "+1 415 555 2671", "4111 1111 1111 1111", "password=hunter2hunter2",
        "Bearer 4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c", "/p?q=1&r=2", "\u0000\u0001", "\n", "x".repeat(5000), "ünï©ødé",
        "\uD800", "../../etc", "P1", "firing", "resolved", "opened", "app", "probe", "200", "5xx", "1e308", "-1",
        "alertmanager/x", "a/b/c/d/e/f", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc", "%40example.com", "http://h/p#t=1"
    };

    @Test
    void randomAndMutatedBodiesNeverCauseA5xxNorProduceInvalidRecords(EmbeddedKafka kafka) {
        long seed = Long.getLong("fuzz.seed", System.nanoTime());
        Random rnd = new Random(seed);
        String ctx = "fuzz seed " + seed + " (rerun with -Dfuzz.seed=" + seed + ")";
        try (IngestHarness ingest = new IngestHarness(kafka)) {
            Map<String, Integer> acceptedByTopic = new HashMap<>(Map.of(Topics.METRICS, 0, Topics.PROBE_RESULTS, 0, Topics.ALERTS, 0));
            Map<Integer, Integer> statuses = new TreeMap<>();
            String previous = "";
            for (int n = 0; n < BODIES; n++) {
                int route = rnd.nextInt(3);
                long now = System.currentTimeMillis();
                byte[] body = body(rnd, route, now);
                String contentType = contentType(rnd, route);
                IngestHarness.Reply reply;
                String topic;
                try {
                if (route == 0) {
                    topic = Topics.METRICS;
                    reply = ingest.post("/v1/metrics", contentType, body, IngestHarness.bearer(rnd.nextInt(20) == 0 ? "junk" : IngestHarness.CHECKOUT_KEY));
                } else if (route == 1) {
                    topic = Topics.PROBE_RESULTS;
                    reply = ingest.post("/v1/probe-results", contentType, body, signed(ingest.usEast, now, body, rnd));
                } else {
                    topic = Topics.ALERTS;
                    reply = ingest.post("/v1/alerts", contentType, body, IngestHarness.bearer(IngestHarness.CHECKOUT_KEY));
                }
                } catch (RuntimeException e) {
                    throw new AssertionError(ctx + ", body #" + n + " to route " + route + " (" + contentType + ", "
                            + body.length + " bytes) got no answer (previous: " + previous + "): " + new String(body, 0, Math.min(body.length, 400), StandardCharsets.UTF_8), e);
                }
                statuses.merge(reply.status(), 1, Integer::sum);
                previous = "route " + route + " " + contentType + " " + body.length + " bytes -> " + reply.status() + " " + reply.text();
                assertThat(reply.status()).as(ctx + ", body #" + n + ": " + reply.text()).isBetween(200, 499);
                if (reply.status() == 202) {
                    acceptedByTopic.merge(topic, reply.json().get("accepted").asInt(), Integer::sum);
                } else {
                    assertThat(reply.contentType()).as(ctx).startsWith("application/problem+json");
                }
            }
            System.out.println("fuzz statuses " + statuses + ", accepted " + acceptedByTopic + ", " + ctx);
            assertThat(statuses.keySet()).as("the fuzz reaches both outcomes").contains(202, 400, 422);

            int expected = acceptedByTopic.values().stream().mapToInt(Integer::intValue).sum();
            try (var consumer = ingest.consumer(Topics.METRICS, Topics.PROBE_RESULTS, Topics.ALERTS)) {
                List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
                IngestHarness.pollUntil(consumer, rs -> rs.size() >= expected, records, Duration.ofSeconds(60));
                for (int i = 0; i < 5; i++) {
                    consumer.poll(Duration.ofMillis(200)).forEach(records::add);
                }
                assertThat(records).as(ctx).hasSize(expected);
                Map<String, Integer> byTopic = new HashMap<>(Map.of(Topics.METRICS, 0, Topics.PROBE_RESULTS, 0, Topics.ALERTS, 0));
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
                            assertThat(p.region()).isEqualTo("us-east");
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
                            assertThat(a.incidentId()).as(ctx).isEqualTo(AlertEvent.incidentIdFor(a.fingerprint(), a.firstSeen()));
                        }
                    }
                }
                assertThat(byTopic).as(ctx).isEqualTo(acceptedByTopic);
            }
        }
    }

    private static Map<String, String> signed(RequestSigner signer, long now, byte[] body, Random rnd) {
        String id = "fz-" + rnd.nextLong();
        Map<String, String> h = new HashMap<>();
        h.put(RequestSigner.HEADER_KEY_ID, "w-us-east");
        h.put(RequestSigner.HEADER_TIMESTAMP, Long.toString(now));
        h.put(RequestSigner.HEADER_REQUEST_ID, id);
        h.put(RequestSigner.HEADER_REGION, "us-east");
        h.put(RequestSigner.HEADER_SIGNATURE, signer.sign(now, id, "us-east", body));
        if (rnd.nextInt(25) == 0) {
            h.put(RequestSigner.HEADER_SIGNATURE, "v1=" + "0".repeat(64));
        }
        return h;
    }

    private static String contentType(Random rnd, int route) {
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
        if (r == 3 && route != 2) {
            return "application/x-ndjson";
        }
        return "application/json";
    }

    private static byte[] body(Random rnd, int route, long now) {
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

    private static JsonNode seed(Random rnd, int route, long now) {
        int n = 1 + rnd.nextInt(5);
        List<String> items = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            items.add(switch (route) {
                case 0 -> Events.metric(rnd.nextBoolean() ? "checkout" : null, "http_request", rnd.nextBoolean() ? "200" : "503",
                        "/f/" + rnd.nextInt(1000), now - rnd.nextInt(1000));
                case 1 -> Events.probeResult("mon-" + rnd.nextInt(50), "us-east", now - now % 60_000, "r-" + i);
                default -> Events.alertEvent("app/fz-" + rnd.nextInt(100), rnd.nextBoolean() ? "opened" : "resolved", now);
            });
        }
        if (route == 2 && rnd.nextInt(3) == 0) {
            return Json.tree(Events.alertmanager(rnd.nextBoolean() ? "firing" : "resolved",
                    rnd.nextBoolean() ? null : Long.toHexString(rnd.nextLong()), rnd.nextBoolean() ? "P1" : "warning")
                    .getBytes(StandardCharsets.UTF_8));
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
                obj.set(rnd.nextBoolean() ? NASTY_STRINGS[rnd.nextInt(NASTY_STRINGS.length)] : "f" + rnd.nextInt(9), randomValue(rnd, 0));
            }
        } else if (target instanceof ArrayNode arr) {
            int op = rnd.nextInt(3);
            if (op == 0 && !arr.isEmpty()) {
                arr.remove(rnd.nextInt(arr.size()));
            } else if (op == 1 && !arr.isEmpty()) {
                arr.set(rnd.nextInt(arr.size()), randomValue(rnd, 0));
            } else {
                arr.add(arr.isEmpty() || rnd.nextBoolean() ? randomValue(rnd, 0) : arr.get(0).deepCopy());
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
                byte[] ins = Set.of("\"", "}", "]", ",", "\\", "\n", "{", "[", "null", "\u00ff").stream().toList()
                        .get(rnd.nextInt(10)).getBytes(StandardCharsets.UTF_8);
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

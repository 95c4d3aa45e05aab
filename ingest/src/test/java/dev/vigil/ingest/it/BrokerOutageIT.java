package dev.vigil.ingest.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.vigil.embedded.junit.WithKafka;
import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.schemas.contract.DomainMetric;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.topic.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The broker stops while clients keep posting: clients get 503 with Retry-After (never another 5xx),
 * every request answered 202 is on the topic once the broker is back, exactly once, and nothing of a
 * request answered 503 is visible to read_committed consumers. A BetterStack webhook call meets the same 503 and,
 * resent, is on its topic once; so does a heartbeat {@code /fail} ping (while a success already published for its
 * window is still answered 200 from memory).
 */
@WithKafka
class BrokerOutageIT {
    private static final int CLIENTS = 4;
    private static final int EVENTS_PER_REQUEST = 20;

    @Test
    void acceptedSurvivesOutageAndRefusedIsAbsent(EmbeddedKafka kafka) throws Exception {
        // the clients send as fast as they can: the per-app request rate is not what this test is about
        try (IngestHarness ingest = new IngestHarness(kafka, 1_500, c -> IngestHarness.withBetterStack(c)
                .withQuotas(c.quotas().withRates(1_000_000, 1_000_000, 1_000_000, 1_000_000)))) {
            Set<String> accepted = ConcurrentHashMap.newKeySet();
            Set<String> refused = ConcurrentHashMap.newKeySet();
            Map<Integer, AtomicInteger> otherStatuses = new ConcurrentHashMap<>();
            AtomicInteger acceptedAfterRestart = new AtomicInteger();
            AtomicBoolean restarted = new AtomicBoolean();
            AtomicBoolean stop = new AtomicBoolean();
            ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
            List<Future<?>> clients = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                int client = c;
                clients.add(pool.submit(() -> {
                    for (int seq = 0; !stop.get(); seq++) {
                        String request = "c" + client + "-" + seq;
                        long now = System.currentTimeMillis();
                        List<String> events = new ArrayList<>();
                        for (int i = 0; i < EVENTS_PER_REQUEST; i++) {
                            events.add(Events.metric(
                                    "checkout", "http_request", "200", "/outage/" + request + "/" + i, now));
                        }
                        var reply = ingest.metrics(IngestHarness.CHECKOUT_KEY, Events.array(events));
                        if (reply.status() == 202) {
                            assertThat(reply.json().get("accepted").asInt()).isEqualTo(EVENTS_PER_REQUEST);
                            accepted.add(request);
                            if (restarted.get()) {
                                acceptedAfterRestart.incrementAndGet();
                            }
                        } else if (reply.status() == 503) {
                            assertThat(reply.retryAfter()).isNotBlank();
                            assertThat(reply.contentType()).startsWith("application/problem+json");
                            refused.add(request);
                        } else {
                            otherStatuses
                                    .computeIfAbsent(reply.status(), s -> new AtomicInteger())
                                    .incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            String pingToken = dev.vigil.kit.auth.BearerTokens.generate();
            try (var producer = new org.apache.kafka.clients.producer.KafkaProducer<>(
                    kafka.producerProps(),
                    new org.apache.kafka.common.serialization.StringSerializer(),
                    dev.vigil.schemas.json.VigilSerdes.monitorDefinition())) {
                producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(
                                Topics.MONITORS,
                                "nightly",
                                HeartbeatPingIT.heartbeat(
                                        "nightly", dev.vigil.kit.auth.BearerTokens.hash(pingToken), null, true)))
                        .get();
            }
            String ping = "/v1/heartbeat/nightly?token=" + pingToken;
            await().atMost(Duration.ofSeconds(30)).until(() -> ingest.get(ping).status() == 202);
            await().atMost(Duration.ofSeconds(30)).until(() -> accepted.size() >= 20);
            kafka.stop();
            await().atMost(Duration.ofSeconds(60)).until(() -> refused.size() >= 2 * CLIENTS);
            assertThat(ingest.get("/ready").status())
                    .as("not ready while Kafka is down")
                    .isEqualTo(503);
            assertThat(ingest.get("/health").status()).isEqualTo(200);
            // A signed heartbeat Kafka cannot take: 503 + Retry-After, and its request id is released so the
            // worker may resend it as it is.
            String beatId = Events.id();
            long beatAt = System.currentTimeMillis();
            String beat = Events.array(List.of(Events.heartbeat("w-us-east", "us-east", beatAt)));
            var down = ingest.heartbeats("w-us-east", ingest.usEast, "us-east", beatAt, beatId, beat);
            assertThat(down.status()).as(down.text()).isEqualTo(503);
            assertThat(down.retryAfter()).isNotBlank();
            assertThat(down.json().get("type").asText()).isEqualTo("https://vigil.dev/problems/kafka-unavailable");
            String webhook = Events.betterStackIncident(
                    "outage-1",
                    "Acknowledged",
                    java.time.Instant.now()
                            .truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
                            .toString(),
                    "Alice",
                    null,
                    null);
            var webhookDown = ingest.betterStack(IngestHarness.BETTERSTACK_TOKEN, webhook);
            assertThat(webhookDown.status()).as(webhookDown.text()).isEqualTo(503);
            assertThat(webhookDown.retryAfter()).isNotBlank();
            assertThat(webhookDown.contentType()).startsWith("application/problem+json");
            assertThat(webhookDown.json().get("type").asText())
                    .isEqualTo("https://vigil.dev/problems/kafka-unavailable");
            assertThat(webhookDown.text()).doesNotContain(IngestHarness.BETTERSTACK_TOKEN);
            assertThat(ingest.get(ping).status())
                    .as("this window's success is published already")
                    .isEqualTo(200);
            var failDown = ingest.get("/v1/heartbeat/nightly/fail?token=" + pingToken);
            assertThat(failDown.status()).as(failDown.text()).isEqualTo(503);
            assertThat(failDown.json().get("type").asText()).isEqualTo("https://vigil.dev/problems/kafka-unavailable");
            assertThat(failDown.text()).doesNotContain(pingToken);
            kafka.start();
            restarted.set(true);
            await().atMost(Duration.ofSeconds(90)).until(() -> acceptedAfterRestart.get() >= 20);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> ingest.get("/ready").status() == 200);
            var resent =
                    ingest.heartbeats("w-us-east", ingest.usEast, "us-east", System.currentTimeMillis(), beatId, beat);
            assertThat(resent.status()).as(resent.text()).isEqualTo(202);
            var webhookResent = ingest.betterStack(IngestHarness.BETTERSTACK_TOKEN, webhook);
            assertThat(webhookResent.status()).as(webhookResent.text()).isEqualTo(202);
            var failResent = ingest.get("/v1/heartbeat/nightly/fail?token=" + pingToken);
            assertThat(failResent.status())
                    .as("Kafka did not take the first: the next /fail publishes")
                    .isEqualTo(202);
            stop.set(true);
            for (Future<?> f : clients) {
                f.get();
            }
            pool.shutdown();
            assertThat(otherStatuses).as("statuses other than 202/503").isEmpty();
            System.out.println("outage: accepted requests " + accepted.size() + ", refused (503) " + refused.size());

            Map<String, Integer> seen = new HashMap<>();
            try (var consumer = ingest.consumer(Topics.METRICS)) {
                int expected = accepted.size() * EVENTS_PER_REQUEST;
                List<org.apache.kafka.clients.consumer.ConsumerRecord<String, byte[]>> records = new ArrayList<>();
                IngestHarness.pollUntil(consumer, rs -> rs.size() >= expected, records, Duration.ofSeconds(120));
                // Anything committed after the last accepted request (a refused one, a duplicate) would be read by now
                // too:
                // poll a few more times while the log end is reached.
                for (int i = 0; i < 5; i++) {
                    consumer.poll(Duration.ofMillis(200)).forEach(records::add);
                }
                for (var r : records) {
                    String path = Json.read(r.value(), DomainMetric.class).pathname();
                    seen.merge(path, 1, Integer::sum);
                }
            }
            for (String request : accepted) {
                for (int i = 0; i < EVENTS_PER_REQUEST; i++) {
                    assertThat(seen.get("/outage/" + request + "/" + i))
                            .as("event %d of accepted request %s", i, request)
                            .isEqualTo(1);
                }
            }
            for (String request : refused) {
                for (int i = 0; i < EVENTS_PER_REQUEST; i++) {
                    assertThat(seen)
                            .as("event of refused request %s", request)
                            .doesNotContainKey("/outage/" + request + "/" + i);
                }
            }
            assertThat(seen.values()).as("no duplicates").allMatch(n -> n == 1);
            assertThat(seen).hasSize(accepted.size() * EVENTS_PER_REQUEST);

            try (var consumer = ingest.consumer(Topics.VENDOR_UPDATES)) {
                List<org.apache.kafka.clients.consumer.ConsumerRecord<String, byte[]>> updates = new ArrayList<>();
                IngestHarness.pollUntil(consumer, rs -> !rs.isEmpty(), updates, Duration.ofSeconds(60));
                for (int i = 0; i < 5; i++) {
                    consumer.poll(Duration.ofMillis(200)).forEach(updates::add);
                }
                assertThat(updates)
                        .as("the call answered 503 is not on the topic, the resent one is, once")
                        .extracting(org.apache.kafka.clients.consumer.ConsumerRecord::key)
                        .containsExactly("betterstack/outage-1");
            }

            try (var consumer = ingest.consumer(Topics.PROBE_RESULTS)) {
                List<org.apache.kafka.clients.consumer.ConsumerRecord<String, byte[]>> pings = new ArrayList<>();
                IngestHarness.pollUntil(consumer, rs -> rs.size() >= 2, pings, Duration.ofSeconds(60));
                for (int i = 0; i < 5; i++) {
                    consumer.poll(Duration.ofMillis(200)).forEach(pings::add);
                }
                assertThat(pings)
                        .extracting(r -> Json.read(r.value(), dev.vigil.schemas.contract.ProbeResult.class)
                                .outcome())
                        .as("the success before the outage and the resent /fail, once each")
                        .containsExactly(
                                dev.vigil.schemas.contract.Outcome.SUCCESS,
                                dev.vigil.schemas.contract.Outcome.ASSERTION_FAILURE);
            }
        }
    }
}

package dev.vigil.ingest.it;

import static dev.vigil.ingest.it.IngestHarness.BILLING_KEY;
import static dev.vigil.ingest.it.IngestHarness.CHECKOUT_KEY;
import static dev.vigil.ingest.it.IngestHarness.DEMO_KEY;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.embedded.http.RawHttpConnection;
import dev.vigil.embedded.junit.WithKafka;
import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.ingest.config.IngestConfig;
import dev.vigil.schemas.topic.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Attacks on the shared parts of ingest, on the real server over loopback: slow bodies that try to hold the whole body
 * budget, key ids probed through the signed routes' answers, and apps that send more requests or series than their
 * allowance. None of them keeps a page out or is answered differently for a key id that exists.
 */
@WithKafka
class FairShareIT {
    private static final int MAX_BODY = 64 * 1024;
    private static final long IN_FLIGHT = 1L << 20;

    private static UnaryOperator<IngestConfig> budget(long perPrincipal) {
        return c -> c.withLimits(c.limits().withMaxBodyBytes(MAX_BODY).withMaxInFlightBodyBytes(IN_FLIGHT))
                .withQuotas(c.quotas().withBodyBytes(perPrincipal, null));
    }

    private static String alertBatch(int n) {
        List<String> events = new ArrayList<>();
        long now = System.currentTimeMillis();
        for (int i = 0; i < n; i++) {
            events.add(Events.alertEvent("checkout/down-" + i, "opened", now));
        }
        return Events.array(events);
    }

    private static String metricsOf(String app, int n, String marker) {
        List<String> items = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            items.add(Events.metric(app, "http_request", "200", "/" + marker + "/" + i, System.currentTimeMillis()));
        }
        return Events.array(items);
    }

    /** Opens a metric post declaring a maximal body, sends most of it and stalls. */
    private static RawHttpConnection slowMetricPost(int port, String key) throws Exception {
        RawHttpConnection c = new RawHttpConnection(port, 10_000);
        c.sendPartial("POST /v1/metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + key
                + "\r\nContent-Type: application/json\r\nContent-Length: " + MAX_BODY + "\r\n\r\n"
                + "[".repeat(MAX_BODY - 4 * 1024));
        return c;
    }

    @Test
    void manySlowMetricPostsFromEveryAppLeaveRoomForAlerts(EmbeddedKafka kafka) throws Exception {
        // Shares large enough that the apps together could hold everything: only the alerts' reserve stays free.
        try (IngestHarness ingest = new IngestHarness(kafka, budget(IN_FLIGHT / 2))) {
            List<RawHttpConnection> slow = new ArrayList<>();
            try {
                String[] keys = {CHECKOUT_KEY, BILLING_KEY, DEMO_KEY};
                for (int i = 0; i < 40; i++) {
                    slow.add(slowMetricPost(ingest.server.port(), keys[i % keys.length]));
                }
                Awaitility.await()
                        .atMost(Duration.ofSeconds(20))
                        .until(() -> ingest.meter("vigil.http.body.in.flight.bytes", "server", "ingest") >= 600 * 1024);
                String alerts = alertBatch(60);
                assertThat(alerts.length())
                        .as("larger than what a first-come budget leaves")
                        .isGreaterThan(9 * 1024);
                for (int i = 0; i < 3; i++) {
                    IngestHarness.Reply r = ingest.alerts(CHECKOUT_KEY, alerts);
                    assertThat(r.status())
                            .as("a page gets through while metrics flood: %s", r.text())
                            .isEqualTo(202);
                }
                // the meter counts both lanes, and an alert's bytes are let go just after its 202: the stalled
                // metric posts hold theirs for good, so above the cap once the alerts' are gone means they took it
                Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
                                ingest.meter("vigil.ingest.body.budget.used.bytes"))
                        .as("metrics never hold the alerts' reserve")
                        .isLessThanOrEqualTo(IN_FLIGHT - IN_FLIGHT / 4));
            } finally {
                for (RawHttpConnection c : slow) {
                    c.close();
                }
            }
        }
    }

    @Test
    void oneAppsSlowPostsHoldOnlyItsShareAndTheRestAre429(EmbeddedKafka kafka) throws Exception {
        try (IngestHarness ingest = new IngestHarness(kafka, budget(2L * MAX_BODY))) {
            List<RawHttpConnection> slow = new ArrayList<>();
            try {
                for (int i = 0; i < 2; i++) {
                    slow.add(slowMetricPost(ingest.server.port(), CHECKOUT_KEY));
                }
                Awaitility.await()
                        .atMost(Duration.ofSeconds(20))
                        .until(() -> ingest.meter("vigil.http.body.in.flight.bytes", "server", "ingest")
                                >= 2 * (MAX_BODY - 4 * 1024));
                for (int i = 0; i < 4; i++) {
                    slow.add(slowMetricPost(ingest.server.port(), CHECKOUT_KEY));
                }
                int refused = 0;
                for (RawHttpConnection c : slow.subList(2, 6)) {
                    RawHttpConnection.Response r = c.read();
                    assertThat(r.status()).isEqualTo(429);
                    assertThat(r.headers().get("content-type")).isEqualTo("application/problem+json");
                    assertThat(r.headers()).containsKey("retry-after");
                    assertThat(r.body()).contains("https://vigil.dev/problems/body-budget");
                    refused++;
                }
                assertThat(refused).isEqualTo(4);
                // another app is not held up by checkout's share
                assertThat(ingest.metrics(BILLING_KEY, metricsOf("billing", 1, "share"))
                                .status())
                        .isEqualTo(202);
            } finally {
                for (RawHttpConnection c : slow) {
                    c.close();
                }
            }
        }
    }

    @Test
    void unknownAndKnownKeyIdsWithABadSignatureGetTheSameAnswer(EmbeddedKafka kafka) {
        try (IngestHarness ingest = new IngestHarness(kafka)) {
            long now = System.currentTimeMillis();
            String body = Events.array(List.of(Events.probeResult("api", "us-east", now - now % 60_000, Events.id())));
            // an unknown key id; a known one signed with another secret; a known one, wrong secret, another region
            IngestHarness.Reply unknown =
                    ingest.probeResults("w-nowhere", ingest.usEast, "us-east", now, Events.id(), body);
            IngestHarness.Reply forged =
                    ingest.probeResults("w-us-east", ingest.euWest, "us-east", now, Events.id(), body);
            IngestHarness.Reply wrongRegion =
                    ingest.probeResults("w-us-east", ingest.euWest, "eu-west", now, Events.id(), body);
            for (IngestHarness.Reply r : List.of(unknown, forged, wrongRegion)) {
                assertThat(r.status()).isEqualTo(401);
                assertThat(r.contentType()).isEqualTo("application/problem+json");
                assertThat(r.json()).as("nothing tells the key ids apart").isEqualTo(unknown.json());
            }
            String hb = Events.array(List.of(Events.heartbeat("w-nowhere", "us-east", now)));
            JsonNode unknownBeat = ingest.heartbeats("w-nowhere", ingest.usEast, "us-east", now, Events.id(), hb)
                    .json();
            JsonNode forgedBeat = ingest.heartbeats("w-us-east", ingest.euWest, "us-east", now, Events.id(), hb)
                    .json();
            assertThat(unknownBeat).isEqualTo(forgedBeat);
            assertThat(unknownBeat.get("type").asText()).isEqualTo("https://vigil.dev/problems/bad-signature");
        }
    }

    @Test
    void anAppOverItsRequestRateIs429WithRetryAfterAndItsAlertsStillGetThrough(EmbeddedKafka kafka) {
        try (IngestHarness ingest =
                new IngestHarness(kafka, c -> c.withQuotas(c.quotas().withRates(1, 5, 1, 20)))) {
            long now = System.currentTimeMillis();
            int accepted = 0;
            IngestHarness.Reply limited = null;
            long started = System.nanoTime();
            for (int i = 0; i < 50 && limited == null; i++) {
                IngestHarness.Reply r = ingest.metrics(CHECKOUT_KEY, Events.metrics(1, now, "rate"));
                if (r.status() == 429) {
                    limited = r;
                } else {
                    assertThat(r.status()).isEqualTo(202);
                    accepted++;
                }
            }
            assertThat(limited).as("the bucket runs dry").isNotNull();
            long elapsedSeconds = (System.nanoTime() - started) / 1_000_000_000L;
            assertThat(accepted).as("the burst, plus one a second").isBetween(5, 5 + (int) elapsedSeconds + 1);
            assertThat(limited.contentType()).isEqualTo("application/problem+json");
            assertThat(limited.retryAfter()).isNotNull();
            assertThat(Integer.parseInt(limited.retryAfter())).isPositive();
            assertThat(limited.json().get("type").asText()).isEqualTo("https://vigil.dev/problems/rate-limited");
            // alerts have their own allowance, other apps their own bucket
            assertThat(ingest.alerts(CHECKOUT_KEY, alertBatch(1)).status()).isEqualTo(202);
            assertThat(ingest.metrics(BILLING_KEY, metricsOf("billing", 1, "rate"))
                            .status())
                    .isEqualTo(202);
        }
    }

    @Test
    void anAppOverItsSeriesCapIs429AndNothingOfTheBatchIsPublished(EmbeddedKafka kafka) {
        try (IngestHarness ingest =
                        new IngestHarness(kafka, c -> c.withQuotas(c.quotas().withMaxSeriesPerApp(5)));
                TopicOffsets offsets = new TopicOffsets(kafka.consumerProps("x"), Topics.METRICS)) {
            long now = System.currentTimeMillis();
            assertThat(ingest.metrics(DEMO_KEY, metricsOf("demo", 5, "series")).status())
                    .isEqualTo(202);
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> offsets.total() > 0);
            long before = offsets.total();
            // the same five series again are fine; a sixth is not, and takes its batch-mates with it
            assertThat(ingest.metrics(DEMO_KEY, metricsOf("demo", 5, "series")).status())
                    .isEqualTo(202);
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> offsets.total() > before);
            long afterRepeat = offsets.total();
            IngestHarness.Reply r = ingest.metrics(DEMO_KEY, metricsOf("demo", 6, "series"));
            assertThat(r.status()).isEqualTo(429);
            assertThat(r.retryAfter()).isNotNull();
            assertThat(r.contentType()).isEqualTo("application/problem+json");
            assertThat(r.json().get("type").asText()).isEqualTo("https://vigil.dev/problems/series-limit");
            assertThat(offsets.total()).as("nothing of the refused batch").isEqualTo(afterRepeat);
            assertThat(ingest.metrics(BILLING_KEY, metricsOf("billing", 5, "series"))
                            .status())
                    .as("another app's series are its own")
                    .isEqualTo(202);
        }
    }
}

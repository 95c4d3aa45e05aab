package dev.vigil.ingest.it;

import static dev.vigil.ingest.it.IngestHarness.BILLING_KEY;
import static dev.vigil.ingest.it.IngestHarness.CHECKOUT_KEY;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.embedded.junit.WithKafka;
import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.schemas.sign.RequestSigner;
import dev.vigil.schemas.topic.Topics;
import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every bad request gets its precise 4xx with an RFC 9457 problem body, and produces nothing: the end
 * offsets (read_uncommitted, so even an aborted attempt would show) of the four ingest topics do not move.
 */
@WithKafka
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BadRequestTableIT {
    private IngestHarness ingest;
    private TopicOffsets offsets;

    record Case(
            String name,
            Consumer<IngestHarness> setup,
            Function<IngestHarness, IngestHarness.Reply> request,
            int status,
            String type,
            String detail) {
        @Override
        public String toString() {
            return name;
        }
    }

    @BeforeAll
    void start(EmbeddedKafka kafka) {
        ingest = new IngestHarness(kafka);
        offsets = new TopicOffsets(
                kafka.consumerProps("x"), Topics.METRICS, Topics.PROBE_RESULTS, Topics.ALERTS, Topics.HEARTBEATS);
    }

    @AfterAll
    void stop() {
        offsets.close();
        ingest.close();
    }

    static long now() {
        return System.currentTimeMillis();
    }

    static String one(String metric) {
        return Events.array(List.of(metric));
    }

    static String withLabel(String key, String value) {
        return one(Events.metric("200", now()).replace("{\"method\":\"GET\"}", "{\"" + key + "\":\"" + value + "\"}"));
    }

    static Case metrics(String name, String body, int status, String type, String detail) {
        return new Case(name, null, h -> h.metrics(CHECKOUT_KEY, body), status, type, detail);
    }

    static Case alerts(String name, String body, int status, String type, String detail) {
        return new Case(name, null, h -> h.alerts(CHECKOUT_KEY, body), status, type, detail);
    }

    static Case probes(
            String name, Function<IngestHarness, IngestHarness.Reply> request, int status, String type, String detail) {
        return new Case(name, null, request, status, type, detail);
    }

    static String probeBody(String region) {
        long n = now();
        return Events.array(List.of(Events.probeResult("table-api", region, n - n % 60_000, "r-1")));
    }

    static String beat(String workerId, String region) {
        return Events.array(List.of(Events.heartbeat(workerId, region, now())));
    }

    static IngestHarness.Reply usEastBeat(IngestHarness h, String body) {
        return h.heartbeats("w-us-east", h.usEast, "us-east", now(), Events.id(), body);
    }

    static Case beats(
            String name, Function<IngestHarness, IngestHarness.Reply> request, int status, String type, String detail) {
        return new Case(name, null, request, status, type, detail);
    }

    static Stream<Case> cases() {
        return Stream.of(endpointCases(), heartbeatCases(), dateCases()).flatMap(c -> c);
    }

    /**
     * Extreme or malformed times, as JSON values, and the reason each gets. Where a route reports per-event results
     * (every batch route), an event with a bad time is rejected by index; alone in its batch that is a 422
     * {@code invalid-events} naming the field. Never a 5xx, never published.
     */
    private static final String[][] BAD_TIMES = {
        {"\"+999999999-01-01T00:00:00Z\"", "has the wrong type or format"},
        {"-1", "must be at least 0"},
        {"9223372036854775807", "is more than"},
        {"\"2026-13-45T99:00:00Z\"", "has the wrong type or format"},
        {"1e300", "has the wrong type or format"},
        {"9223372036854775808", "is out of range"},
    };

    /** The same, as Alertmanager's RFC 3339 {@code startsAt}/{@code endsAt} (where a number is the wrong type). */
    private static final String[][] BAD_RFC3339 = {
        {"\"+999999999-01-01T00:00:00Z\"", "is out of range"},
        {"-1", "must be an RFC 3339 time string"},
        {"9223372036854775807", "must be an RFC 3339 time string"},
        {"\"2026-13-45T99:00:00Z\"", "must be an RFC 3339 time"},
        {"1e300", "must be an RFC 3339 time string"},
        {"\"9999-12-31T23:59:59Z\"", "is more than 300 s ahead"},
        {"\"1969-12-31T23:59:59Z\"", "must not be before 1970"},
    };

    static Stream<Case> dateCases() {
        List<Case> cases = new ArrayList<>();
        for (String[] t : BAD_TIMES) {
            String v = t[0];
            String why = t[1];
            cases.add(new Case(
                    "metrics: timestamp " + v,
                    null,
                    h -> h.metrics(
                            CHECKOUT_KEY,
                            one(Events.metric("200", now()).replaceAll("\"timestamp\":\\d+", "\"timestamp\":" + v))),
                    422,
                    "invalid-events",
                    "event 0: timestamp: " + why));
            cases.add(probes(
                    "probe: windowStart and startedAt " + v,
                    h -> h.probeResults(
                            "w-us-east",
                            h.usEast,
                            "us-east",
                            now(),
                            Events.id(),
                            probeBody("us-east").replaceAll("\"(windowStart|startedAt)\":\\d+", "\"$1\":" + v)),
                    422,
                    "invalid-events",
                    "event 0: windowStart: " + why));
            cases.add(probes(
                    "probe: startedAt " + v,
                    h -> h.probeResults(
                            "w-us-east",
                            h.usEast,
                            "us-east",
                            now(),
                            Events.id(),
                            probeBody("us-east").replaceAll("\"startedAt\":\\d+", "\"startedAt\":" + v)),
                    422,
                    "invalid-events",
                    "event 0: startedAt: " + why));
            cases.add(beats(
                    "heartbeat: sentAt " + v,
                    h -> usEastBeat(h, beat("w-us-east", "us-east").replaceAll("\"sentAt\":\\d+", "\"sentAt\":" + v)),
                    422,
                    "invalid-events",
                    "event 0: sentAt: " + why));
            cases.add(new Case(
                    "alerts: firstSeen and lastSeen " + v,
                    null,
                    h -> h.alerts(
                            CHECKOUT_KEY,
                            Events.alertEvent("checkout/db", "opened", now())
                                    .replaceAll("\"(firstSeen|lastSeen)\":\\d+", "\"$1\":" + v)),
                    422,
                    "invalid-events",
                    "event 0: firstSeen: " + why));
            cases.add(new Case(
                    "alerts: lastSeen " + v,
                    null,
                    h -> h.alerts(
                            CHECKOUT_KEY,
                            Events.alertEvent("checkout/db", "opened", now())
                                    .replaceAll("\"lastSeen\":\\d+", "\"lastSeen\":" + v)),
                    422,
                    "invalid-events",
                    "event 0: lastSeen: " + why));
        }
        for (String[] t : BAD_RFC3339) {
            String v = t[0];
            String why = t[1];
            cases.add(alerts(
                    "alertmanager: startsAt " + v,
                    Events.alertmanager("firing", "abc", "P1").replace("\"2026-01-01T10:00:00Z\"", v),
                    422,
                    "invalid-events",
                    "event 0: alerts[0].startsAt: " + why));
            cases.add(alerts(
                    "alertmanager: resolved, endsAt " + v,
                    Events.alertmanager("resolved", "abc", "P1").replace("\"2026-01-01T10:30:00Z\"", v),
                    422,
                    "invalid-events",
                    "event 0: alerts[0].endsAt: " + why));
        }
        // Signature timestamps: not epoch milliseconds (or negative) is 400; a number far from now is stale (401),
        // the documented answer for any timestamp outside the skew.
        for (String v :
                new String[] {"+999999999-01-01T00:00:00Z", "-1", "2026-13-45T99:00:00Z", "1e300", "9223372036854775808"
                }) {
            cases.add(probes(
                    "probe: signature timestamp " + v,
                    h -> withTimestamp(h, "/v1/probe-results", v),
                    400,
                    "bad-timestamp",
                    "epoch milliseconds"));
            cases.add(beats(
                    "heartbeat: signature timestamp " + v,
                    h -> withTimestamp(h, "/v1/heartbeats", v),
                    400,
                    "bad-timestamp",
                    "epoch milliseconds"));
        }
        cases.add(probes(
                "probe: signature timestamp 9223372036854775807",
                h -> h.probeResults(
                        "w-us-east", h.usEast, "us-east", Long.MAX_VALUE, Events.id(), probeBody("us-east")),
                401,
                "stale",
                "clock skew"));
        // Validly signed: Math.abs(now - ts) wraps for this one, which passed the skew check and was accepted.
        cases.add(probes(
                "probe: signature timestamp Long.MIN_VALUE + now",
                h -> h.probeResults(
                        "w-us-east", h.usEast, "us-east", Long.MIN_VALUE + now(), Events.id(), probeBody("us-east")),
                400,
                "bad-timestamp",
                "epoch milliseconds"));
        cases.add(beats(
                "heartbeat: signature timestamp Long.MIN_VALUE + now",
                h -> h.heartbeats(
                        "w-us-east",
                        h.usEast,
                        "us-east",
                        Long.MIN_VALUE + now(),
                        Events.id(),
                        beat("w-us-east", "us-east")),
                400,
                "bad-timestamp",
                "epoch milliseconds"));
        return cases.stream();
    }

    /** A correctly signed request whose timestamp header is then replaced by {@code timestamp}. */
    private static IngestHarness.Reply withTimestamp(IngestHarness h, String path, String timestamp) {
        String body = path.equals("/v1/heartbeats") ? beat("w-us-east", "us-east") : probeBody("us-east");
        Map<String, String> headers = signedHeaders(h.usEast, now(), Events.id(), "us-east", body);
        headers.put(RequestSigner.HEADER_TIMESTAMP, timestamp);
        return h.post(path, "application/json", body.getBytes(StandardCharsets.UTF_8), headers);
    }

    static Stream<Case> heartbeatCases() {
        String replayedId = Events.id();
        return Stream.of(
                beats(
                        "heartbeat: unsigned",
                        h -> h.post(
                                "/v1/heartbeats",
                                "application/json",
                                beat("w-us-east", "us-east").getBytes(StandardCharsets.UTF_8),
                                Map.of()),
                        401,
                        "missing-headers",
                        "X-Vigil-Signature"),
                beats(
                        "heartbeat: unknown key id",
                        h -> h.heartbeats(
                                "w-nowhere", h.usEast, "us-east", now(), Events.id(), beat("w-nowhere", "us-east")),
                        401,
                        "bad-signature",
                        "does not match"),
                beats(
                        "heartbeat: forged signature (other secret)",
                        h -> h.heartbeats(
                                "w-us-east", h.euWest, "us-east", now(), Events.id(), beat("w-us-east", "us-east")),
                        401,
                        "bad-signature",
                        "does not match"),
                beats(
                        "heartbeat: stale timestamp (120 s old)",
                        h -> h.heartbeats(
                                "w-us-east",
                                h.usEast,
                                "us-east",
                                now() - 120_000,
                                Events.id(),
                                beat("w-us-east", "us-east")),
                        401,
                        "stale",
                        "clock skew"),
                new Case(
                        "heartbeat: replayed request id",
                        h -> assertThat(h.heartbeats(
                                                "w-us-east",
                                                h.usEast,
                                                "us-east",
                                                now(),
                                                replayedId,
                                                beat("w-us-east", "us-east"))
                                        .status())
                                .isEqualTo(202),
                        h -> h.heartbeats(
                                "w-us-east", h.usEast, "us-east", now(), replayedId, beat("w-us-east", "us-east")),
                        409,
                        "replayed",
                        "already received"),
                beats(
                        "heartbeat: signed for a region not the key's",
                        h -> h.heartbeats(
                                "w-us-east", h.usEast, "eu-west", now(), Events.id(), beat("w-us-east", "eu-west")),
                        403,
                        "wrong-region",
                        "region"),
                beats(
                        "heartbeat: of another worker id",
                        h -> usEastBeat(h, beat("w-eu-west", "us-east")),
                        422,
                        "invalid-events",
                        "event 0: workerId: is not the signing key's worker id ('w-us-east')"),
                beats(
                        "heartbeat: of another region",
                        h -> usEastBeat(h, beat("w-us-east", "eu-west")),
                        422,
                        "invalid-events",
                        "event 0: region: is not the signing key's region ('us-east')"),
                beats(
                        "heartbeat: configured worker id differs from the key id",
                        h -> h.heartbeats(
                                "k-ap-south", h.euWest, "ap-south", now(), Events.id(), beat("k-ap-south", "ap-south")),
                        422,
                        "invalid-events",
                        "event 0: workerId: is not the signing key's worker id ('probe-ap-south-1')"),
                beats(
                        "heartbeat: negative inFlight",
                        h -> usEastBeat(h, beat("w-us-east", "us-east").replace("\"inFlight\":2", "\"inFlight\":-1")),
                        422,
                        "invalid-events",
                        "event 0: inFlight:"),
                beats(
                        "heartbeat: missing sentAt",
                        h -> usEastBeat(h, beat("w-us-east", "us-east").replaceAll("\"sentAt\":\\d+,", "")),
                        422,
                        "invalid-events",
                        "event 0: sentAt: is required"),
                beats(
                        "heartbeat: sentAt ten minutes behind the server clock",
                        h -> usEastBeat(
                                h, Events.array(List.of(Events.heartbeat("w-us-east", "us-east", now() - 600_000)))),
                        422,
                        "invalid-events",
                        "event 0: sentAt: is more than 60 s away from the server clock"),
                beats(
                        "heartbeat: e-mail in version",
                        h -> usEastBeat(h, beat("w-us-east", "us-east").replace("0.1.0", "ops@example.com")),
                        422,
                        "invalid-events",
                        "event 0: version: contains an e-mail address"),
                beats(
                        "heartbeat: not an object",
                        h -> usEastBeat(h, "[42]"),
                        422,
                        "invalid-events",
                        "must be a JSON object"),
                beats(
                        "heartbeat: malformed JSON",
                        h -> usEastBeat(h, "[{\"workerId\":"),
                        400,
                        "malformed-json",
                        "not valid JSON"),
                beats("heartbeat: empty batch", h -> usEastBeat(h, "[]"), 400, "empty-batch", "no events"));
    }

    static Stream<Case> endpointCases() {
        String big = "[" + "x".repeat((1 << 20)) + "]";
        List<String> many = new ArrayList<>();
        for (int i = 0; i < 1001; i++) {
            many.add(Events.metric("200", now()));
        }
        String replayedId = Events.id();
        return Stream.of(
                // --- /v1/metrics: framing and size
                metrics("metrics: malformed JSON", "[{\"schemaVersion\":1,", 400, "malformed-json", "not valid JSON"),
                metrics(
                        "metrics: JSON object instead of array",
                        Events.metric("200", now()),
                        400,
                        "not-a-batch",
                        "JSON array"),
                metrics("metrics: empty array", "[]", 400, "empty-batch", "no events"),
                new Case(
                        "metrics: wrong content type",
                        null,
                        h -> h.post(
                                "/v1/metrics",
                                "text/plain",
                                one(Events.metric("200", now())).getBytes(StandardCharsets.UTF_8),
                                IngestHarness.bearer(CHECKOUT_KEY)),
                        415,
                        "unsupported-media-type",
                        "application/x-ndjson"),
                new Case(
                        "metrics: no content type",
                        null,
                        h -> h.post(
                                "/v1/metrics",
                                null,
                                one(Events.metric("200", now())).getBytes(StandardCharsets.UTF_8),
                                IngestHarness.bearer(CHECKOUT_KEY)),
                        415,
                        "unsupported-media-type",
                        "Content-Type is required"),
                metrics("metrics: body over 1 MiB (Content-Length)", big, 413, "payload-too-large", "1048576 bytes"),
                new Case(
                        "metrics: body over 1 MiB (chunked, no Content-Length)",
                        null,
                        h -> chunked(h, big),
                        413,
                        "payload-too-large",
                        "1048576 bytes"),
                metrics("metrics: 1,001 events", Events.array(many), 413, "too-many-events", "at most 1000 events"),
                new Case(
                        "metrics: NDJSON with a malformed line",
                        null,
                        h -> h.post(
                                "/v1/metrics",
                                "application/x-ndjson",
                                (Events.metric("200", now()) + "\n{oops\n").getBytes(StandardCharsets.UTF_8),
                                IngestHarness.bearer(CHECKOUT_KEY)),
                        400,
                        "malformed-json",
                        "line 2"),
                // --- /v1/metrics: authentication
                new Case(
                        "metrics: missing Authorization",
                        null,
                        h -> h.metrics(null, one(Events.metric("200", now()))),
                        401,
                        "missing-credentials",
                        "Authorization: Bearer"),
                new Case(
                        "metrics: unknown API key",
                        null,
                        h -> h.metrics("not-a-key", one(Events.metric("200", now()))),
                        401,
                        "invalid-credentials",
                        "not valid"),
                new Case(
                        "metrics: Basic instead of Bearer",
                        null,
                        h -> h.post(
                                "/v1/metrics",
                                "application/json",
                                one(Events.metric("200", now())).getBytes(StandardCharsets.UTF_8),
                                Map.of("Authorization", "Basic " + CHECKOUT_KEY)),
                        401,
                        "invalid-credentials",
                        "not valid"),
                new Case(
                        "metrics: key for another app",
                        null,
                        h -> h.metrics(BILLING_KEY, one(Events.metric("200", now()))),
                        403,
                        "app-mismatch",
                        "'billing'"),
                // --- /v1/metrics: every event invalid (PII in each string field, contract, time)
                metrics(
                        "metrics: e-mail in status",
                        one(Events.metric("checkout", "http_request", "bob@example.com", "/a", now())),
                        422,
                        "invalid-events",
                        "status: contains an e-mail address"),
                metrics(
                        "metrics: phone number in a label value",
                        withLabel("note", "call +44 20 7946 0958"),
                        422,
                        "invalid-events",
                        "labels.note: contains a phone number"),
                metrics(
                        "metrics: e-mail as a label key",
                        withLabel("bob@example.com", "x"),
                        422,
                        "invalid-events",
                        "labels: contains an e-mail address"),
                metrics(
                        "metrics: JWT in a label",
                        withLabel(
                                "auth",
                                "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"),
                        422,
                        "invalid-events",
                        "labels.auth: contains a JWT"),
                metrics(
                        "metrics: bearer token in a label",
                        withLabel("header", "Bearer 4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c"),
                        422,
                        "invalid-events",
                        "labels.header: contains a bearer token"),
                metrics(
                        "metrics: password in a label",
                        withLabel("cfg", "password=hunter2hunter2"),
                        422,
                        "invalid-events",
                        "labels.cfg: contains a password"),
                metrics(
                        "metrics: card number in a label",
                        withLabel("card", "4111 1111 1111 1111"),
                        422,
                        "invalid-events",
                        "labels.card: contains a card number"),
                metrics(
                        "metrics: query string in a label",
                        withLabel("url", "/search?q=shoes&user=42"),
                        422,
                        "invalid-events",
                        "labels.url: contains a query string"),
                metrics(
                        "metrics: timestamp 10 minutes old",
                        one(Events.metric("200", now() - 600_000)),
                        422,
                        "invalid-events",
                        "timestamp: is more than 300 s away"),
                metrics(
                        "metrics: timestamp 10 minutes ahead",
                        one(Events.metric("200", now() + 600_000)),
                        422,
                        "invalid-events",
                        "timestamp: is more than 300 s away"),
                metrics(
                        "metrics: bad metric name",
                        one(Events.metric("checkout", "HTTP Request", "200", "/a", now())),
                        422,
                        "invalid-events",
                        "metricName: must be"),
                metrics(
                        "metrics: missing timestamp",
                        one("{\"schemaVersion\":1,\"metricName\":\"http_request\"}"),
                        422,
                        "invalid-events",
                        "timestamp: is required"),
                metrics(
                        "metrics: events that are not objects",
                        "[1,\"two\",null]",
                        422,
                        "invalid-events",
                        "must be a JSON object"),
                // --- /v1/probe-results: signatures
                probes(
                        "probe: unsigned",
                        h -> h.post(
                                "/v1/probe-results",
                                "application/json",
                                probeBody("us-east").getBytes(StandardCharsets.UTF_8),
                                Map.of()),
                        401,
                        "missing-headers",
                        "X-Vigil-Signature"),
                probes(
                        "probe: unknown key id",
                        h -> h.probeResults("w-nowhere", h.usEast, "us-east", now(), Events.id(), probeBody("us-east")),
                        401,
                        "bad-signature",
                        "does not match"),
                probes(
                        "probe: stale timestamp (120 s old)",
                        h -> h.probeResults(
                                "w-us-east", h.usEast, "us-east", now() - 120_000, Events.id(), probeBody("us-east")),
                        401,
                        "stale",
                        "clock skew"),
                probes(
                        "probe: timestamp 120 s in the future",
                        h -> h.probeResults(
                                "w-us-east", h.usEast, "us-east", now() + 120_000, Events.id(), probeBody("us-east")),
                        401,
                        "stale",
                        "clock skew"),
                probes(
                        "probe: forged signature (other secret)",
                        h -> h.probeResults("w-us-east", h.euWest, "us-east", now(), Events.id(), probeBody("us-east")),
                        401,
                        "bad-signature",
                        "does not match"),
                probes(
                        "probe: body changed after signing",
                        BadRequestTableIT::tampered,
                        401,
                        "bad-signature",
                        "does not match"),
                new Case(
                        "probe: replayed request id",
                        h -> assertThat(h.probeResults(
                                                "w-us-east",
                                                h.usEast,
                                                "us-east",
                                                now(),
                                                replayedId,
                                                probeBody("us-east"))
                                        .status())
                                .isEqualTo(202),
                        h -> h.probeResults("w-us-east", h.usEast, "us-east", now(), replayedId, probeBody("us-east")),
                        409,
                        "replayed",
                        "already received"),
                probes(
                        "probe: region not the key's",
                        h -> h.probeResults("w-us-east", h.usEast, "eu-west", now(), Events.id(), probeBody("eu-west")),
                        403,
                        "wrong-region",
                        "region"),
                probes(
                        "probe: result for another region than the key's",
                        h -> h.probeResults("w-us-east", h.usEast, "us-east", now(), Events.id(), probeBody("eu-west")),
                        403,
                        "wrong-region",
                        "'us-east'"),
                probes(
                        "probe: timestamp not a number",
                        BadRequestTableIT::badTimestamp,
                        400,
                        "bad-timestamp",
                        "epoch milliseconds"),
                probes(
                        "probe: e-mail in detail",
                        h -> h.probeResults(
                                "w-us-east",
                                h.usEast,
                                "us-east",
                                now(),
                                Events.id(),
                                probeBody("us-east")
                                        .replace(
                                                "\"requestId\"", "\"detail\":\"owner ops@example.com\",\"requestId\"")),
                        422,
                        "invalid-events",
                        "detail: contains an e-mail address"),
                probes(
                        "probe: body over 1 MiB",
                        h -> h.probeResults("w-us-east", h.usEast, "us-east", now(), Events.id(), big),
                        413,
                        "payload-too-large",
                        "1048576 bytes"),
                // --- /v1/alerts
                new Case(
                        "alerts: missing Authorization",
                        null,
                        h -> h.alerts(null, Events.alertEvent("app/x", "opened", now())),
                        401,
                        "missing-credentials",
                        "Bearer"),
                new Case(
                        "alerts: NDJSON content type",
                        null,
                        h -> h.post(
                                "/v1/alerts",
                                "application/x-ndjson",
                                Events.alertEvent("app/x", "opened", now()).getBytes(StandardCharsets.UTF_8),
                                IngestHarness.bearer(CHECKOUT_KEY)),
                        415,
                        "unsupported-media-type",
                        "application/json"),
                alerts("alerts: malformed JSON", "{\"fingerprint\":", 400, "malformed-json", "not valid JSON"),
                alerts(
                        "alerts: fingerprint with too many parts once namespaced",
                        Events.alertEvent("checkout/a/b/c", "opened", now()),
                        422,
                        "invalid-events",
                        "event 0: fingerprint: has too many parts once namespaced as app/checkout/"),
                alerts(
                        "alerts: missing fingerprint",
                        Events.alertEvent("app/x", "opened", now()).replace("\"fingerprint\":\"app/x\",", ""),
                        422,
                        "invalid-events",
                        "fingerprint: is required"),
                alerts(
                        "alerts: e-mail in summary",
                        Events.alertEvent("app/x", "opened", now())
                                .replace("Checkout failing", "Mail carol@example.com"),
                        422,
                        "invalid-events",
                        "summary: contains an e-mail address"),
                alerts(
                        "alertmanager: missing alerts",
                        "{\"version\":\"4\",\"status\":\"firing\",\"receiver\":\"vigil\",\"groupKey\":\"g\"}",
                        400,
                        "alertmanager-payload",
                        "alerts: is required"),
                alerts(
                        "alertmanager: missing version",
                        Events.alertmanager("firing", "abc", "P1").replace("\"version\":\"4\",", ""),
                        400,
                        "alertmanager-payload",
                        "version: is required"),
                alerts(
                        "alertmanager: version 3",
                        Events.alertmanager("firing", "abc", "P1").replace("\"version\":\"4\"", "\"version\":\"3\""),
                        400,
                        "alertmanager-payload",
                        "version \"4\""),
                alerts(
                        "alertmanager: alert without status",
                        Events.alertmanager("firing", "abc", "P1").replace("[{\"status\":\"firing\",", "[{"),
                        422,
                        "invalid-events",
                        "alerts[0].status: is required"),
                alerts(
                        "alertmanager: alert without labels",
                        Events.alertmanager("firing", "abc", "P1").replaceAll("\"labels\":\\{[^}]*},", ""),
                        422,
                        "invalid-events",
                        "alerts[0].labels: is required"),
                alerts(
                        "alertmanager: alert without startsAt",
                        Events.alertmanager("firing", "abc", "P1")
                                .replace("\"startsAt\":\"2026-01-01T10:00:00Z\",", ""),
                        422,
                        "invalid-events",
                        "alerts[0].startsAt: is required"),
                // --- routing
                new Case(
                        "unknown route",
                        null,
                        h -> h.post("/v1/nothing", "application/json", "[]".getBytes(StandardCharsets.UTF_8), Map.of()),
                        404,
                        "not-found",
                        "no such endpoint"));
    }

    private static IngestHarness.Reply chunked(IngestHarness h, String body) {
        try {
            var req = HttpRequest.newBuilder(h.uri("/v1/metrics"))
                    .header("Content-Type", "application/json")
                    .header("Authorization", "Bearer " + CHECKOUT_KEY)
                    .POST(HttpRequest.BodyPublishers.ofInputStream(
                            () -> new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8))))
                    .build();
            HttpResponse<byte[]> r = h.http.send(req, HttpResponse.BodyHandlers.ofByteArray());
            return new IngestHarness.Reply(
                    r.statusCode(), r.headers().firstValue("Content-Type").orElse(""), null, r.body());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static IngestHarness.Reply tampered(IngestHarness h) {
        String body = probeBody("us-east");
        long ts = now();
        String id = Events.id();
        Map<String, String> headers = signedHeaders(h.usEast, ts, id, "us-east", body);
        return h.post(
                "/v1/probe-results",
                "application/json",
                body.replace("\"responseMs\":42", "\"responseMs\":41").getBytes(StandardCharsets.UTF_8),
                headers);
    }

    private static IngestHarness.Reply badTimestamp(IngestHarness h) {
        String body = probeBody("us-east");
        Map<String, String> headers = signedHeaders(h.usEast, now(), Events.id(), "us-east", body);
        headers.put(RequestSigner.HEADER_TIMESTAMP, "yesterday");
        return h.post("/v1/probe-results", "application/json", body.getBytes(StandardCharsets.UTF_8), headers);
    }

    private static Map<String, String> signedHeaders(
            RequestSigner signer, long ts, String id, String region, String body) {
        Map<String, String> h = new HashMap<>();
        h.put(RequestSigner.HEADER_KEY_ID, "w-us-east");
        h.put(RequestSigner.HEADER_TIMESTAMP, Long.toString(ts));
        h.put(RequestSigner.HEADER_REQUEST_ID, id);
        h.put(RequestSigner.HEADER_REGION, region);
        h.put(RequestSigner.HEADER_SIGNATURE, signer.sign(ts, id, region, body.getBytes(StandardCharsets.UTF_8)));
        return h;
    }

    @Test
    void tableHasAtLeastThirtyCases() {
        assertThat(cases().count()).isGreaterThanOrEqualTo(30);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void refusedPreciselyAndNothingProduced(Case c) {
        if (c.setup() != null) {
            long beforeSetup = offsets.total();
            c.setup().accept(ingest);
            // The setup commits one record; its commit marker is written to the partition just after the commit
            // returns, so wait for record + marker before taking the baseline.
            org.awaitility.Awaitility.await()
                    .atMost(java.time.Duration.ofSeconds(10))
                    .until(() -> offsets.total() >= beforeSetup + 2);
        }
        long before = offsets.total();
        IngestHarness.Reply reply = c.request().apply(ingest);
        assertThat(reply.status()).as(c.name() + ": " + reply.text()).isEqualTo(c.status());
        assertThat(reply.contentType()).startsWith("application/problem+json");
        JsonNode p = reply.json();
        assertThat(p.get("type").asText()).isEqualTo("https://vigil.dev/problems/" + c.type());
        assertThat(p.get("status").asInt()).isEqualTo(c.status());
        assertThat(p.get("title").asText()).isNotBlank();
        assertThat(p.get("instance").asText()).startsWith("/");
        assertThat(p.get("detail").asText()).contains(c.detail());
        assertThat(reply.text()).doesNotContain(CHECKOUT_KEY, BILLING_KEY, "example.com", "hunter2", "4111", "7946");
        assertThat(offsets.total()).as("records produced by " + c.name()).isEqualTo(before);
    }
}

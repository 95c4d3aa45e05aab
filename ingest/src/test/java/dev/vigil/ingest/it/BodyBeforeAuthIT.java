package dev.vigil.ingest.it;

import static dev.vigil.ingest.it.IngestHarness.CHECKOUT_KEY;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.embedded.http.RawHttpConnection;
import dev.vigil.embedded.junit.WithKafka;
import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.sign.RequestSigner;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A declared {@code Content-Length} costs the client nothing, so it buys no memory: a request that is not
 * authenticated is answered from its headers at once, before any body buffer exists, and an authenticated one gets
 * a buffer that grows with the bytes that actually arrive. Measured with the body-buffer allocation counter and the
 * in-flight gauge, not with timing; the socket read timeout (well under the 5 s drain and 30 s body timeouts) only
 * bounds the wait for the answer.
 */
@WithKafka
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BodyBeforeAuthIT {
    private static final int DECLARED = 1_000_000;
    private IngestHarness ingest;

    @BeforeAll
    void start(EmbeddedKafka kafka) {
        ingest = new IngestHarness(kafka);
    }

    @AfterAll
    void stop() {
        ingest.close();
    }

    private double allocated() {
        return ingest.meter("vigil.ingest.body.allocated.bytes");
    }

    private static String head(String path, String... headerLines) {
        StringBuilder sb = new StringBuilder("POST ")
                .append(path)
                .append(" HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                .append("Content-Type: application/json\r\nContent-Length: ")
                .append(DECLARED)
                .append("\r\n");
        for (String h : headerLines) {
            sb.append(h).append("\r\n");
        }
        return sb.append("\r\n").toString();
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "/v1/metrics       | -                                   | missing-credentials",
                "/v1/metrics       | Authorization: Bearer not-a-key     | invalid-credentials",
                "/v1/alerts        | -                                   | missing-credentials",
                "/v1/probe-results | -                                   | missing-headers",
                "/v1/heartbeats    | X-Vigil-Region: us-east             | missing-headers"
            })
    void anUnauthenticatedRequestDeclaringALargeBodyIsAnswered401AtOnceWithoutABuffer(
            String path, String header, String type) throws Exception {
        String[] lines = header.equals("-") ? new String[0] : signing(header);
        double allocatedBefore = allocated();
        try (RawHttpConnection c = new RawHttpConnection(ingest.server.port(), 3000)) {
            c.sendPartial(head(path, lines)); // and no body at all
            RawHttpConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(401);
            assertThat(Json.tree(r.body().getBytes()).get("type").asText())
                    .isEqualTo("https://vigil.dev/problems/" + type);
        }
        assertThat(allocated()).as("no body buffer was allocated").isEqualTo(allocatedBefore);
        assertThat(ingest.meter("vigil.ingest.inflight.bytes")).isZero();
    }

    /** The signing headers of a request whose key id is {@code keyIdLine}, fresh, for the wrong region. */
    private static String[] signing(String line) {
        if (!line.startsWith(RequestSigner.HEADER_KEY_ID)) {
            return new String[] {line};
        }
        long now = System.currentTimeMillis();
        return new String[] {
            line,
            RequestSigner.HEADER_TIMESTAMP + ": " + now,
            RequestSigner.HEADER_REQUEST_ID + ": " + Events.id(),
            RequestSigner.HEADER_REGION + ": eu-west",
            RequestSigner.HEADER_SIGNATURE + ": v1=00"
        };
    }

    @Test
    void anAuthenticatedRequestGetsABufferThatGrowsWithTheBytesThatArriveNotWithTheDeclaredLength() throws Exception {
        double allocatedBefore = allocated();
        try (RawHttpConnection c = new RawHttpConnection(ingest.server.port(), 3000)) {
            c.sendPartial(head("/v1/metrics", "Authorization: Bearer " + CHECKOUT_KEY) + "[{\"schemaVersion\":1}");
            Awaitility.await()
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> ingest.meter("vigil.ingest.inflight.bytes") == 20);
            assertThat(allocated() - allocatedBefore)
                    .as("first buffer, not the declared 1,000,000 bytes")
                    .isPositive()
                    .isLessThanOrEqualTo(64 * 1024);
            // the first buffer is taken from the app's share before the body has arrived, not left uncounted
            assertThat(ingest.meter("vigil.ingest.body.budget.used.bytes"))
                    .as("the pre-body buffer is counted")
                    .isEqualTo(allocated() - allocatedBefore);
        }
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> ingest.meter("vigil.ingest.inflight.bytes") == 0);
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(() -> ingest.meter("vigil.ingest.body.budget.used.bytes") == 0);
    }
}

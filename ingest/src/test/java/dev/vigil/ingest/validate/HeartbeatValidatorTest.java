package dev.vigil.ingest.validate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.schemas.contract.WorkerHeartbeat;
import dev.vigil.schemas.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HeartbeatValidatorTest {
    private static final long NOW = 1_700_000_000_000L;
    private final HeartbeatValidator validator = new HeartbeatValidator(60_000);

    private static List<JsonNode> batch(String... items) {
        List<JsonNode> out = new ArrayList<>();
        Json.tree(("[" + String.join(",", items) + "]").getBytes(StandardCharsets.UTF_8))
                .forEach(out::add);
        return out;
    }

    static String beat(String workerId, String region, String version) {
        return "{\"schemaVersion\":1,\"workerId\":\"" + workerId + "\",\"region\":\"" + region
                + "\",\"sentAt\":1700000000000,\"inFlight\":3,\"monitorsAssigned\":12,\"version\":\"" + version + "\"}";
    }

    private static Rejection only(BatchResult<WorkerHeartbeat> r) {
        assertThat(r.accepted()).isEmpty();
        assertThat(r.rejected()).hasSize(1);
        return r.rejected().get(0);
    }

    @Test
    void theKeysOwnHeartbeatIsAcceptedKeyedByWorkerIdExactlyAsSent() {
        var r = validator.validate(batch(beat("w-us-east", "us-east", "1.2.0")), "w-us-east", "us-east", NOW);
        assertThat(r.rejected()).isEmpty();
        assertThat(r.accepted()).singleElement().satisfies(a -> {
            assertThat(a.index()).isZero();
            assertThat(a.key()).isEqualTo("w-us-east");
            assertThat(a.value())
                    .isEqualTo(new WorkerHeartbeat(1, "w-us-east", "us-east", 1_700_000_000_000L, 3, 12, "1.2.0"));
        });
    }

    @Test
    void aHeartbeatForAnotherWorkerIsRejectedNamingTheKeysWorker() {
        Rejection x = only(validator.validate(batch(beat("w-other", "us-east", "1.2.0")), "w-us-east", "us-east", NOW));
        assertThat(x.index()).isZero();
        assertThat(x.field()).isEqualTo("workerId");
        assertThat(x.reason()).contains("signing key's worker id ('w-us-east')").doesNotContain("w-other");
        assertThat(x.kind()).isEqualTo(Rejection.Kind.IDENTITY);
    }

    @Test
    void aHeartbeatForAnotherRegionIsRejectedNamingTheKeysRegion() {
        Rejection x =
                only(validator.validate(batch(beat("w-us-east", "eu-west", "1.2.0")), "w-us-east", "us-east", NOW));
        assertThat(x.field()).isEqualTo("region");
        assertThat(x.reason()).contains("signing key's region ('us-east')");
        assertThat(x.kind()).isEqualTo(Rejection.Kind.IDENTITY);
    }

    @Test
    void contractViolationsNamedByField() {
        Rejection missing = only(validator.validate(
                batch(beat("w-us-east", "us-east", "1.2.0").replace("\"sentAt\":1700000000000,", "")),
                "w-us-east",
                "us-east",
                NOW));
        assertThat(missing.field()).isEqualTo("sentAt");
        assertThat(missing.reason()).contains("required");
        assertThat(missing.kind()).isEqualTo(Rejection.Kind.CONTRACT);

        Rejection negative = only(validator.validate(
                batch(beat("w-us-east", "us-east", "1.2.0").replace("\"inFlight\":3", "\"inFlight\":-1")),
                "w-us-east",
                "us-east",
                NOW));
        assertThat(negative.field()).isEqualTo("inFlight");
        assertThat(negative.kind()).isEqualTo(Rejection.Kind.CONTRACT);
    }

    @Test
    void personalDataInTheVersionIsRejectedWithoutEchoingIt() {
        Rejection x = only(validator.validate(
                batch(beat("w-us-east", "us-east", "ops@example.com")), "w-us-east", "us-east", NOW));
        assertThat(x.field()).isEqualTo("version");
        assertThat(x.reason()).contains("e-mail").doesNotContain("example.com");
        assertThat(x.kind()).isEqualTo(Rejection.Kind.PRIVACY);
    }

    @Test
    void eachEventIsJudgedOnItsOwnByIndex() {
        var r = validator.validate(
                batch(
                        beat("w-us-east", "us-east", "1"),
                        "7",
                        beat("w-x", "us-east", "1"),
                        beat("w-us-east", "us-east", "2")),
                "w-us-east",
                "us-east",
                NOW);
        assertThat(r.accepted()).extracting(Accepted::index).containsExactly(0, 3);
        assertThat(r.rejected()).extracting(Rejection::index).containsExactly(1, 2);
        assertThat(r.rejected().get(0).kind()).isEqualTo(Rejection.Kind.NOT_OBJECT);
    }

    @Test
    void aBeatFromAWorkerWhoseClockIsOffIsRefusedNamingSentAt() {
        String late = beat("w-us-east", "us-east", "1.2.0").replace("1700000000000", Long.toString(NOW - 61_000));
        String early = beat("w-us-east", "us-east", "1.2.0").replace("1700000000000", Long.toString(NOW + 61_000));
        String withinSkew = beat("w-us-east", "us-east", "1.2.0").replace("1700000000000", Long.toString(NOW - 59_000));
        var r = validator.validate(batch(late, early, withinSkew), "w-us-east", "us-east", NOW);
        assertThat(r.accepted()).extracting(Accepted::index).containsExactly(2);
        assertThat(r.rejected()).extracting(Rejection::index).containsExactly(0, 1);
        assertThat(r.rejected()).allSatisfy(rej -> {
            assertThat(rej.field()).isEqualTo("sentAt");
            assertThat(rej.reason()).contains("60 s away from the server clock");
            assertThat(rej.kind()).isEqualTo(Rejection.Kind.TIMESTAMP);
        });
    }
}

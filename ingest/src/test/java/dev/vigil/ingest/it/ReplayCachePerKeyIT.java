package dev.vigil.ingest.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.embedded.junit.WithKafka;
import dev.vigil.embedded.kafka.EmbeddedKafka;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One signing key filling its replay cache (a runaway worker, or a stolen secret replaying fresh ids) locks out
 * only itself: another key's fresh requests are still accepted, and the full key's used ids are still refused.
 */
@WithKafka
class ReplayCachePerKeyIT {
    private static final int CACHE = 16;

    @Test
    void aKeyFillingItsReplayCacheDoesNotLockOutAnotherKey(EmbeddedKafka kafka) {
        try (IngestHarness ingest =
                new IngestHarness(kafka, c -> c.withLimits(c.limits().withReplayCacheSize(CACHE)))) {
            List<String> usedByUsEast = new ArrayList<>();
            for (int i = 0; i < CACHE; i++) {
                String id = Events.id();
                var r = usEastBeat(ingest, id);
                assertThat(r.status()).as(r.text()).isEqualTo(202);
                usedByUsEast.add(id);
            }
            var full = usEastBeat(ingest, Events.id());
            assertThat(full.status()).as(full.text()).isEqualTo(429);
            assertThat(full.json().get("type").asText()).isEqualTo("https://vigil.dev/problems/replay-cache-full");

            for (int i = 0; i < 3; i++) {
                long now = System.currentTimeMillis();
                var other = ingest.heartbeats(
                        "w-eu-west",
                        ingest.euWest,
                        "eu-west",
                        now,
                        Events.id(),
                        Events.array(List.of(Events.heartbeat("w-eu-west", "eu-west", now))));
                assertThat(other.status())
                        .as("another key's fresh request: " + other.text())
                        .isEqualTo(202);
            }

            var replay = usEastBeat(ingest, usedByUsEast.get(0));
            assertThat(replay.status()).as(replay.text()).isEqualTo(409);
            assertThat(replay.json().get("type").asText()).isEqualTo("https://vigil.dev/problems/replayed");
        }
    }

    private static IngestHarness.Reply usEastBeat(IngestHarness ingest, String requestId) {
        long now = System.currentTimeMillis();
        return ingest.heartbeats(
                "w-us-east",
                ingest.usEast,
                "us-east",
                now,
                requestId,
                Events.array(List.of(Events.heartbeat("w-us-east", "us-east", now))));
    }
}

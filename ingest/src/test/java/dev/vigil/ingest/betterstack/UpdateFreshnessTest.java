package dev.vigil.ingest.betterstack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.VendorIncidentUpdate;
import org.junit.jupiter.api.Test;

class UpdateFreshnessTest {
    private static final long MIN = 60_000;

    private static VendorIncidentUpdate ack(String id, long at, String by) {
        return new VendorIncidentUpdate(
                1, "betterstack", id, VendorIncidentUpdate.Action.ACKNOWLEDGED, by, at, at + 100);
    }

    @Test
    void staleUndatedReplayedAndNewUpdatesAreToldApart() {
        UpdateFreshness f = new UpdateFreshness(5 * MIN, 100);
        long now = 100 * MIN;
        assertThat(f.admit(ack("1", now - 6 * MIN, "A"), now - 6 * MIN, now)).isEqualTo(UpdateFreshness.Verdict.STALE);
        assertThat(f.admit(ack("1", now, "A"), null, now)).isEqualTo(UpdateFreshness.Verdict.NO_TIME);
        assertThat(f.admit(ack("1", now - MIN, "A"), now - MIN, now)).isEqualTo(UpdateFreshness.Verdict.NEW);
        assertThat(f.admit(ack("1", now - MIN, "A"), now - MIN, now + 1000))
                .isEqualTo(UpdateFreshness.Verdict.REPLAYED);
        assertThat(f.admit(ack("1", now, "A"), now, now))
                .as("a later act of the same incident")
                .isEqualTo(UpdateFreshness.Verdict.NEW);
        assertThat(f.admit(ack("2", now - MIN, "A"), now - MIN, now)).isEqualTo(UpdateFreshness.Verdict.NEW);
        // once the window has passed, the replay is stale and the memory of it gone
        assertThat(f.admit(ack("1", now - MIN, "A"), now - MIN, now + 5 * MIN))
                .isEqualTo(UpdateFreshness.Verdict.STALE);
        assertThat(f.admit(ack("3", now + 5 * MIN, "A"), now + 5 * MIN, now + 5 * MIN))
                .isEqualTo(UpdateFreshness.Verdict.NEW);
        assertThat(f.size()).as("expired ones are dropped").isEqualTo(2);
    }

    @Test
    void anUpdateNotPublishedIsForgottenSoItsResendCounts() {
        UpdateFreshness f = new UpdateFreshness(5 * MIN, 100);
        VendorIncidentUpdate u = ack("1", 1000, "A");
        assertThat(f.admit(u, 1000L, 2000)).isEqualTo(UpdateFreshness.Verdict.NEW);
        f.forget(u, 1000L);
        assertThat(f.admit(u, 1000L, 3000)).isEqualTo(UpdateFreshness.Verdict.NEW);
    }

    @Test
    void theMemoryIsBoundedAndAFullOneRefusesRatherThanForgets() {
        UpdateFreshness f = new UpdateFreshness(5 * MIN, 3);
        for (int i = 0; i < 3; i++) {
            assertThat(f.admit(ack("i" + i, 1000, "A"), 1000L, 2000)).isEqualTo(UpdateFreshness.Verdict.NEW);
        }
        assertThat(f.admit(ack("x", 1000, "A"), 1000L, 2000)).isEqualTo(UpdateFreshness.Verdict.FULL);
        assertThat(f.admit(ack("i0", 1000, "A"), 1000L, 2000)).isEqualTo(UpdateFreshness.Verdict.REPLAYED);
        assertThat(f.size()).isEqualTo(3);
    }
}

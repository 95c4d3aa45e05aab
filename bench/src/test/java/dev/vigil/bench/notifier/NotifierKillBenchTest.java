package dev.vigil.bench.notifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the kill -9 variant at small scale: a notifier process killed mid-burst and a second one finishing it lose
 * nothing and record no delivery twice. Figures (the resends of unrecorded sends, the recovery time) are reported,
 * not asserted.
 */
class NotifierKillBenchTest {
    @TempDir
    Path results;

    @Test
    void aBurstSurvivesAKill9WithNothingLostAndNoRecordedDeliverySentAgain() throws Exception {
        System.setProperty("vigil.results.dir", results.toString());
        try {
            Map<String, Object> r = NotifierKillBench.run(new NotifierKillBench.Options(400, 0.3, "2s"));
            assertThat(r.get("events")).isEqualTo(400);
            assertThat(r.get("lost")).isEqualTo(0);
            assertThat(r.get("delivered_twice_recorded")).isEqualTo(0L);
            assertThat(r.get("all_committed")).isEqualTo(true);
            assertThat((int) r.get("received_at_kill")).isGreaterThanOrEqualTo(120);
            assertThat(r).containsKeys("resent_unrecorded", "recovery_seconds");
        } finally {
            System.clearProperty("vigil.results.dir");
        }
    }

    @Test
    void aKillPointOutsideTheBurstIsRefused() {
        assertThatThrownBy(() -> NotifierKillBench.Options.parse(new String[] {"--kill-at", "1.5"}))
                .hasMessageContaining("--kill-at must be between 0 and 1");
    }
}

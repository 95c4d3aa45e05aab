package dev.vigil.streams.health;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The clock worker liveness is judged at: wall clock while heartbeats are read as sent, their time while read behind. */
class HeartbeatClockTest {
    static final long T = 1_800_000_000_000L;

    @Test
    void beforeAnyHeartbeatItIsWallClock() {
        assertThat(new HeartbeatClock().at(T)).isEqualTo(T);
    }

    @Test
    void whileHeartbeatsAreReadBehindItStandsAtThePointRead() {
        var clock = new HeartbeatClock();
        clock.read(T - 90_000, T);
        assertThat(clock.at(T)).isEqualTo(T - 90_000);
        clock.read(T - 80_000, T + 1_000);
        assertThat(clock.at(T + 1_000)).isEqualTo(T - 80_000);
        // an older heartbeat read later (another worker, behind) does not move it back
        clock.read(T - 200_000, T + 2_000);
        assertThat(clock.at(T + 2_000)).isEqualTo(T - 79_000);
    }

    @Test
    void whenNothingArrivesItRunsOnWithWallClockSoSilenceIsNoticed() {
        var clock = new HeartbeatClock();
        clock.read(T - 1_000, T);
        assertThat(clock.at(T + 60_000)).isEqualTo(T + 59_000);
    }

    @Test
    void aHeartbeatFromAClockAheadNeverPutsItAheadOfWallClock() {
        var clock = new HeartbeatClock();
        clock.read(T + 3_600_000, T);
        assertThat(clock.at(T)).isEqualTo(T);
        assertThat(clock.at(T + 5_000)).isEqualTo(T + 5_000);
    }
}

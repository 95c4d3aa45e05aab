package dev.vigil.notifier.consume;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PartitionProgressTest {
    @Test
    void commitsOnlyPastAContiguousRunOfFinishedOffsets() {
        PartitionProgress p = new PartitionProgress();
        for (long o = 10; o < 15; o++) {
            p.read(o);
        }
        assertThat(p.takeCommittable()).isEqualTo(-1);
        p.finish(12);
        p.finish(11);
        assertThat(p.takeCommittable()).isEqualTo(-1);
        p.finish(10);
        assertThat(p.takeCommittable()).isEqualTo(13);
        assertThat(p.takeCommittable()).isEqualTo(-1);
        assertThat(p.inFlight()).isEqualTo(2);
        p.finish(14);
        assertThat(p.takeCommittable()).isEqualTo(-1);
        p.finish(13);
        assertThat(p.takeCommittable()).isEqualTo(15);
        assertThat(p.inFlight()).isZero();
    }
}

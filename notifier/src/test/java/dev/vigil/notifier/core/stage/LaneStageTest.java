package dev.vigil.notifier.core.stage;

import static dev.vigil.notifier.support.TestEvents.opened;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.notifier.core.ChannelLane;
import dev.vigil.notifier.core.DeliveryOutcome;
import dev.vigil.notifier.core.SendStage;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.Severity;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

class LaneStageTest {
    private final StageFixture f = new StageFixture();
    private final ChannelLane lane = f.lane(1);
    private final AlertEvent a = opened("monitor/a", Severity.CRITICAL);
    private final AlertEvent b = opened("monitor/b", Severity.CRITICAL);

    @AfterEach
    void close() {
        lane.close();
        f.close();
    }

    /** An in-lane stage that records which event entered it. */
    private static DeliveryStage entering(List<String> entered) {
        return new DeliveryStage() {
            @Override
            public String name() {
                return "probe";
            }

            @Override
            public Mono<Delivery> apply(Delivery d, Chain next) {
                entered.add(d.event().fingerprint());
                return next.proceed(d);
            }
        };
    }

    @Test
    void printsItselfFollowedByTheStagesItRunsInside() {
        LaneStage stage = new LaneStage(
                lane, StageList.of(new ClaimStep(f.claims(), Duration.ofSeconds(1)), entering(new ArrayList<>())));

        assertThat(stage.names()).containsExactly("lane", "claim", "probe");
    }

    @Test
    void theStagesAfterItRunOutsideTheLaneSoTheyNeverHoldUpTheNextDelivery() {
        List<String> entered = new ArrayList<>();
        LaneStage stage = new LaneStage(lane, StageList.of(entering(entered)));
        Sinks.One<Delivery> settleOfA = Sinks.one();
        List<Delivery> done = new ArrayList<>();

        // a's later stages hang (a slow settle); with one slot, b still gets into the lane
        stage.apply(f.delivery(a), d -> settleOfA.asMono()).subscribe(done::add);
        stage.apply(f.delivery(b), f.recording).subscribe(done::add);
        f.vts.advanceTime();

        assertThat(entered).containsExactly("monitor/a", "monitor/b");
        assertThat(done).extracting(d -> d.event().fingerprint()).containsExactly("monitor/b");
    }

    @Test
    void theStagesInsideHoldTheSlotUntilTheyEnd() {
        Sinks.One<Delivery> sendOfA = Sinks.one();
        List<String> entered = new ArrayList<>();
        DeliveryStage hanging = new DeliveryStage() {
            @Override
            public String name() {
                return "hang";
            }

            @Override
            public Mono<Delivery> apply(Delivery d, Chain next) {
                entered.add(d.event().fingerprint());
                return d.event().equals(a) ? sendOfA.asMono() : next.proceed(d);
            }
        };
        LaneStage stage = new LaneStage(lane, StageList.of(hanging));

        stage.apply(f.delivery(a), f.recording).subscribe();
        stage.apply(f.delivery(b), f.recording).subscribe();
        f.vts.advanceTime();
        assertThat(entered).containsExactly("monitor/a");

        sendOfA.tryEmitValue(f.delivery(a));
        f.vts.advanceTime();
        assertThat(entered).containsExactly("monitor/a", "monitor/b");
    }

    @Test
    void aVendorsRetryAfterHoldsTheLaneBack() {
        List<String> entered = new ArrayList<>();
        DeliveryStage throttled = new DeliveryStage() {
            @Override
            public String name() {
                return "send";
            }

            @Override
            public Mono<Delivery> apply(Delivery d, Chain next) {
                entered.add(d.event().fingerprint());
                return next.proceed(d.withSent(new SendStage.Sent(
                        new DeliveryOutcome.Transient("slack answered HTTP 429", Duration.ofSeconds(30), 429), 1)));
            }
        };
        LaneStage stage = new LaneStage(lane, StageList.of(throttled));

        stage.apply(f.delivery(a), f.recording).subscribe();
        f.vts.advanceTime();
        stage.apply(f.delivery(b), f.recording).subscribe();
        f.vts.advanceTimeBy(Duration.ofSeconds(29));
        assertThat(entered).containsExactly("monitor/a");

        f.vts.advanceTimeBy(Duration.ofSeconds(1));
        assertThat(entered).containsExactly("monitor/a", "monitor/b");
    }
}

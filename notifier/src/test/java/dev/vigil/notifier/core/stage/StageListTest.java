package dev.vigil.notifier.core.stage;

import static dev.vigil.notifier.support.TestEvents.opened;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.notifier.core.FinalOutcome;
import dev.vigil.schemas.contract.Severity;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

class StageListTest {
    private final StageFixture f = new StageFixture();
    private final List<String> ran = new ArrayList<>();

    @AfterEach
    void close() {
        f.close();
    }

    private DeliveryStage passing(String name) {
        return new DeliveryStage() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Mono<Delivery> apply(Delivery d, Chain next) {
                ran.add(name);
                return next.proceed(d);
            }
        };
    }

    private DeliveryStage ending(String name) {
        return new DeliveryStage() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Mono<Delivery> apply(Delivery d, Chain next) {
                ran.add(name);
                return next.proceed(d.finished(FinalOutcome.DEDUPLICATED, 0, "seen"));
            }
        };
    }

    @Test
    void runsItsStagesInOrderAndDescribesThemSo() {
        StageList list = StageList.of(passing("a"), passing("b"), passing("c"));

        Delivery out = f.run(list.run(f.delivery(opened("monitor/a", Severity.CRITICAL))));

        assertThat(ran).containsExactly("a", "b", "c");
        assertThat(out.stopped()).isFalse();
        assertThat(list.describe()).isEqualTo("a \u2192 b \u2192 c");
        assertThat(list).hasToString("a \u2192 b \u2192 c");
    }

    @Test
    void aStoppedDeliverySkipsTheStagesLeftEvenWhenTheStopperCallsOn() {
        StageList list = StageList.of(passing("a"), ending("b"), passing("c"));

        Delivery out = f.run(list.run(f.delivery(opened("monitor/a", Severity.CRITICAL))));

        assertThat(ran).containsExactly("a", "b");
        assertThat(out.result().outcome()).isEqualTo(FinalOutcome.DEDUPLICATED);
    }

    @Test
    void anEmptyListIsRefused() {
        assertThatThrownBy(() -> new StageList(List.of())).isInstanceOf(IllegalArgumentException.class);
    }
}

package dev.vigil.notifier.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

class KeyedSequencerTest {
    @Test
    void sameKeyRunsInOrderOtherKeysDoNotWait() {
        KeyedSequencer seq = new KeyedSequencer();
        List<String> started = new CopyOnWriteArrayList<>();
        Sinks.One<String> openedGate = Sinks.one();
        seq.run("monitor/a", () -> {
                    started.add("a-opened");
                    return openedGate.asMono();
                })
                .subscribe();
        seq.run("monitor/a", () -> {
                    started.add("a-resolved");
                    return Mono.just("x");
                })
                .subscribe();
        seq.run("monitor/b", () -> {
                    started.add("b-opened");
                    return Mono.just("y");
                })
                .subscribe();
        assertThat(started).containsExactly("a-opened", "b-opened");
        assertThat(seq.activeKeys()).isEqualTo(1);
        openedGate.tryEmitValue("done");
        assertThat(started).containsExactly("a-opened", "b-opened", "a-resolved");
        assertThat(seq.activeKeys()).isZero();
    }

    @Test
    void aFailureDoesNotBlockTheNextOfItsKey() {
        KeyedSequencer seq = new KeyedSequencer();
        List<String> seen = new CopyOnWriteArrayList<>();
        seq.run("k", () -> Mono.<String>error(new RuntimeException("x"))).subscribe(seen::add, e -> seen.add("err"));
        seq.run("k", () -> Mono.just("second")).subscribe(seen::add);
        assertThat(seen).containsExactly("err", "second");
    }
}

package dev.vigil.notifier.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

class CoalescerTest {
    private final Coalescer coalescer = new Coalescer();
    private final List<Sinks.Empty<Void>> runs = new ArrayList<>();

    private Mono<Void> work() {
        Sinks.Empty<Void> run = Sinks.empty();
        runs.add(run);
        return run.asMono();
    }

    @Test
    void callersDuringARunShareTheNextRunAndNoneIsAnsweredByARunThatStartedBeforeIt() {
        AtomicInteger done = new AtomicInteger();
        coalescer.run("slack", this::work).subscribe(null, null, done::incrementAndGet);
        assertThat(runs).hasSize(1);
        for (int i = 0; i < 5; i++) {
            coalescer.run("slack", this::work).subscribe(null, null, done::incrementAndGet);
        }
        assertThat(runs).hasSize(1);
        runs.get(0).tryEmitEmpty();
        // the first caller is answered; the five that came later wait for one run started after them
        assertThat(done).hasValue(1);
        assertThat(runs).hasSize(2);
        runs.get(1).tryEmitEmpty();
        assertThat(done).hasValue(6);
        assertThat(runs).hasSize(2);
    }

    @Test
    void keysRunIndependentlyAndAnIdleKeyRunsAtOnce() {
        AtomicInteger done = new AtomicInteger();
        coalescer.run("slack", this::work).subscribe(null, null, done::incrementAndGet);
        coalescer.run("discord", this::work).subscribe(null, null, done::incrementAndGet);
        assertThat(runs).hasSize(2);
        runs.get(1).tryEmitEmpty();
        runs.get(0).tryEmitEmpty();
        assertThat(done).hasValue(2);
        coalescer.run("slack", this::work).subscribe(null, null, done::incrementAndGet);
        assertThat(runs).hasSize(3);
    }

    @Test
    void aFailedRunFailsItsCallersAndTheNextRunStillHappens() {
        List<Throwable> errors = new ArrayList<>();
        AtomicInteger done = new AtomicInteger();
        coalescer.run("slack", this::work).subscribe(null, errors::add);
        coalescer.run("slack", this::work).subscribe(null, errors::add, done::incrementAndGet);
        runs.get(0).tryEmitError(new IllegalStateException("store down"));
        assertThat(errors).singleElement().satisfies(e -> assertThat(e).hasMessage("store down"));
        runs.get(1).tryEmitEmpty();
        assertThat(done).hasValue(1);
    }
}

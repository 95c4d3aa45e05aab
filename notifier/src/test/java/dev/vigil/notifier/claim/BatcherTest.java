package dev.vigil.notifier.claim;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

class BatcherTest {
    private final List<List<String>> batches = new CopyOnWriteArrayList<>();
    private final List<Sinks.One<List<String>>> pending = new CopyOnWriteArrayList<>();

    private Batcher<String, String> batcher(int maxBatch, int maxConcurrent) {
        return new Batcher<>(
                "test",
                maxBatch,
                maxConcurrent,
                s -> s.split("#")[0],
                items -> {
                    batches.add(List.copyOf(items));
                    Sinks.One<List<String>> s = Sinks.one();
                    pending.add(s);
                    return s.asMono();
                },
                new SimpleMeterRegistry());
    }

    private static List<String> upper(List<String> in) {
        return in.stream().map(String::toUpperCase).toList();
    }

    @Test
    void aLoneRequestRunsAtOnceAndOthersQueueIntoTheNextBatch() {
        Batcher<String, String> b = batcher(3, 1);
        List<String> results = new CopyOnWriteArrayList<>();
        for (String s : List.of("a", "b", "c", "d", "e")) {
            b.submit(s).subscribe(results::add);
        }
        assertThat(batches).containsExactly(List.of("a"));
        pending.get(0).tryEmitValue(upper(batches.get(0)));
        assertThat(batches).containsExactly(List.of("a"), List.of("b", "c", "d"));
        pending.get(1).tryEmitValue(upper(batches.get(1)));
        pending.get(2).tryEmitValue(upper(batches.get(2)));
        assertThat(batches.get(2)).containsExactly("e");
        assertThat(results).containsExactly("A", "B", "C", "D", "E");
    }

    @Test
    void sameKeyNeverSharesABatchAndKeepsItsOrder() {
        Batcher<String, String> b = batcher(10, 1);
        b.submit("block").subscribe();
        for (String s : List.of("x#1", "y#1", "x#2", "x#3", "z#1")) {
            b.submit(s).subscribe();
        }
        pending.get(0).tryEmitValue(List.of("ok"));
        assertThat(batches.get(1)).containsExactly("x#1", "y#1", "z#1");
        pending.get(1).tryEmitValue(List.of("1", "2", "3"));
        assertThat(batches.get(2)).containsExactly("x#2");
        pending.get(2).tryEmitValue(List.of("4"));
        assertThat(batches.get(3)).containsExactly("x#3");
    }

    @Test
    void aFailedStatementFailsItsRequestsOnlyAndTheNextBatchRuns() {
        Batcher<String, String> b = batcher(10, 2);
        List<String> seen = new ArrayList<>();
        b.submit("a").subscribe(seen::add, e -> seen.add("a:" + e.getMessage()));
        b.submit("b").subscribe(seen::add, e -> seen.add("b:" + e.getMessage()));
        b.submit("c").subscribe(seen::add, e -> seen.add("c:" + e.getMessage()));
        assertThat(batches).containsExactly(List.of("a"), List.of("b"));
        pending.get(0).tryEmitError(new IllegalStateException("connection lost"));
        assertThat(batches).hasSize(3);
        pending.get(1).tryEmitValue(List.of("B"));
        pending.get(2).tryEmitValue(List.of("C"));
        assertThat(seen).containsExactly("a:connection lost", "B", "C");
    }

    @Test
    void anEmptyResultCompletesEveryRequestEmpty() {
        Batcher<String, Boolean> b =
                new Batcher<>("void", 10, 1, s -> s, items -> Mono.empty(), new SimpleMeterRegistry());
        List<String> done = new ArrayList<>();
        b.submit("a").doOnSuccess(v -> done.add("a")).subscribe();
        b.submit("b").doOnSuccess(v -> done.add("b")).subscribe();
        assertThat(done).containsExactly("a", "b");
    }
}

package dev.vigil.notifier.core;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import reactor.core.publisher.Mono;

/**
 * Runs a check per key at most once at a time, and never runs it for nothing: a caller always waits for a run
 * that starts after it called, and every caller that arrives while a run is going shares the next one. A burst of
 * a thousand successes on one channel so costs a handful of runs, not a thousand.
 */
final class Coalescer {
    private final Map<String, Slot> slots = new HashMap<>();

    /** A key's run in progress, and the run the callers that came after it wait for. */
    private static final class Slot {
        CompletableFuture<Void> next;
        Supplier<Mono<Void>> nextWork;
    }

    Mono<Void> run(String key, Supplier<Mono<Void>> work) {
        return Mono.defer(() -> {
            CompletableFuture<Void> mine;
            boolean start = false;
            synchronized (slots) {
                Slot s = slots.get(key);
                if (s == null) {
                    slots.put(key, new Slot());
                    mine = new CompletableFuture<>();
                    start = true;
                } else {
                    if (s.next == null) {
                        s.next = new CompletableFuture<>();
                    }
                    s.nextWork = work;
                    mine = s.next;
                }
            }
            if (start) {
                start(key, work, mine);
            }
            // a caller that goes away does not cancel the run others share
            return Mono.fromFuture(mine, true);
        });
    }

    private void start(String key, Supplier<Mono<Void>> work, CompletableFuture<Void> done) {
        Mono.defer(work).subscribe(null, error -> finished(key, done, error), () -> finished(key, done, null));
    }

    private void finished(String key, CompletableFuture<Void> done, Throwable error) {
        CompletableFuture<Void> next;
        Supplier<Mono<Void>> nextWork;
        synchronized (slots) {
            Slot s = slots.get(key);
            next = s.next;
            nextWork = s.nextWork;
            s.next = null;
            s.nextWork = null;
            if (next == null) {
                slots.remove(key);
            }
        }
        if (error == null) {
            done.complete(null);
        } else {
            done.completeExceptionally(error);
        }
        if (next != null) {
            start(key, nextWork, next);
        }
    }
}

package dev.vigil.notifier.core;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import reactor.core.publisher.Mono;

/**
 * Runs work for the same key one after another, in subscription order, and work for different keys in parallel.
 * The dispatcher keys by fingerprint, so an incident's {@code resolved} never starts on any channel before its
 * {@code opened} has reached a final outcome there.
 */
public final class KeyedSequencer {
    private final Map<String, CompletableFuture<Void>> tails = new HashMap<>();

    public <T> Mono<T> run(String key, Supplier<Mono<T>> work) {
        return Mono.defer(() -> {
            CompletableFuture<Void> done = new CompletableFuture<>();
            CompletableFuture<Void> previous;
            synchronized (tails) {
                previous = tails.put(key, done);
            }
            Mono<Void> wait = previous == null ? Mono.empty() : Mono.fromFuture(previous, true);
            return wait.then(Mono.defer(work)).doFinally(s -> {
                synchronized (tails) {
                    tails.remove(key, done);
                }
                done.complete(null);
            });
        });
    }

    /** Keys with work queued or running. */
    public int activeKeys() {
        synchronized (tails) {
            return tails.size();
        }
    }
}

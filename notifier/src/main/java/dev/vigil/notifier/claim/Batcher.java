package dev.vigil.notifier.claim;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;

/**
 * Group commit for single-item requests: while {@code maxConcurrent} batches are running, new requests queue;
 * each time a batch finishes, everything queued (up to {@code maxBatch}) goes out as the next batch. Under low
 * load a request runs at once, alone; under high load one statement serves hundreds of requests.
 *
 * <p>Items with the same {@code key} never share a batch (an upsert cannot touch one row twice per statement).
 */
public final class Batcher<I, O> {
    private final String name;
    private final int maxBatch;
    private final int maxConcurrent;
    private final Function<I, Object> key;
    private final Function<List<I>, Mono<List<O>>> execute;
    private final ArrayDeque<Pending<I, O>> queue = new ArrayDeque<>();
    private int running;
    private final io.micrometer.core.instrument.DistributionSummary sizes;
    private final io.micrometer.core.instrument.Timer latency;

    /**
     * @param execute runs one batch; its list holds one result per item, in order (null for Mono&lt;Void&gt;-like)
     */
    public Batcher(
            String name,
            int maxBatch,
            int maxConcurrent,
            Function<I, Object> key,
            Function<List<I>, Mono<List<O>>> execute,
            io.micrometer.core.instrument.MeterRegistry meters) {
        this.name = name;
        this.sizes = io.micrometer.core.instrument.DistributionSummary.builder("vigil.notifier.store.batch.size")
                .tag("statement", name)
                .register(meters);
        this.latency = io.micrometer.core.instrument.Timer.builder("vigil.notifier.store.statement")
                .tag("statement", name)
                .register(meters);
        this.maxBatch = maxBatch;
        this.maxConcurrent = maxConcurrent;
        this.key = key;
        this.execute = execute;
    }

    public Mono<O> submit(I item) {
        return Mono.create(sink -> {
            synchronized (queue) {
                queue.add(new Pending<>(item, sink));
            }
            drain();
        });
    }

    public String name() {
        return name;
    }

    private void drain() {
        while (true) {
            List<Pending<I, O>> batch;
            synchronized (queue) {
                if (running >= maxConcurrent || queue.isEmpty()) {
                    return;
                }
                batch = take();
                running++;
            }
            run(batch);
        }
    }

    /** Up to maxBatch queued items with distinct keys, in arrival order; duplicates stay queued for the next batch. */
    private List<Pending<I, O>> take() {
        List<Pending<I, O>> batch = new ArrayList<>(Math.min(maxBatch, queue.size()));
        Set<Object> keys = new HashSet<>();
        List<Pending<I, O>> skipped = null;
        while (!queue.isEmpty() && batch.size() < maxBatch) {
            Pending<I, O> p = queue.poll();
            if (keys.add(key.apply(p.item))) {
                batch.add(p);
            } else {
                if (skipped == null) {
                    skipped = new ArrayList<>();
                }
                skipped.add(p);
            }
        }
        if (skipped != null) {
            for (int i = skipped.size() - 1; i >= 0; i--) {
                queue.addFirst(skipped.get(i));
            }
        }
        return batch;
    }

    private void run(List<Pending<I, O>> batch) {
        List<I> items = new ArrayList<>(batch.size());
        for (Pending<I, O> p : batch) {
            items.add(p.item);
        }
        long t0 = System.nanoTime();
        Mono<List<O>> m;
        try {
            m = execute.apply(items);
        } catch (RuntimeException e) {
            m = Mono.error(e);
        }
        m.defaultIfEmpty(List.of())
                .doOnTerminate(() -> {
                    sizes.record(batch.size());
                    latency.record(System.nanoTime() - t0, java.util.concurrent.TimeUnit.NANOSECONDS);
                })
                .subscribe(
                        results -> {
                            for (int i = 0; i < batch.size(); i++) {
                                O r = i < results.size() ? results.get(i) : null;
                                if (r == null) {
                                    batch.get(i).sink.success();
                                } else {
                                    batch.get(i).sink.success(r);
                                }
                            }
                            finished();
                        },
                        error -> {
                            for (Pending<I, O> p : batch) {
                                p.sink.error(error);
                            }
                            finished();
                        });
    }

    private void finished() {
        synchronized (queue) {
            running--;
        }
        drain();
    }

    private record Pending<I, O>(I item, MonoSink<O> sink) {}
}

package dev.vigil.notifier.core;

import dev.vigil.schemas.contract.AlertEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;

/**
 * One chat channel's group wait: the events of a grouped route that share a group key and reach this channel
 * within the wait of the first one are delivered together ({@link ChannelPipeline#deliverGroup}).
 *
 * <p>Nothing is claimed while an event waits, and its {@link #offer} completes only when its delivery here is
 * final, so the consumer does not commit it before then: a notifier that dies in the wait has sent and claimed
 * nothing for the waiting events, and the events read again after the restart are grouped, claimed and sent then.
 */
final class GroupWait {
    private final ChannelPipeline pipeline;
    private final Scheduler timer;
    private final Map<List<Object>, Open> open = new HashMap<>();
    /** Set when the notifier stops: nothing waits any more. */
    private boolean closing;

    GroupWait(ChannelPipeline pipeline, Scheduler timer) {
        this.pipeline = pipeline;
        this.timer = timer;
    }

    private record Waiting(ChannelPipeline.Member member, Sinks.One<ChannelResult> result) {}

    /** A group still gathering. */
    private static final class Open {
        final List<Waiting> waiting = new ArrayList<>();
        Disposable due;
    }

    /**
     * Adds {@code e} to its group (the grouping and its key values); completes with its result on
     * this channel once the group's message is settled.
     */
    Mono<ChannelResult> offer(AlertEvent e, List<String> routed, List<Object> key, Duration wait) {
        return Mono.defer(() -> {
            Sinks.One<ChannelResult> result = Sinks.one();
            List<Waiting> full = null;
            synchronized (this) {
                if (closing) {
                    full = List.of(new Waiting(new ChannelPipeline.Member(e, routed), result));
                }
            }
            if (full != null) {
                send(full);
                return result.asMono();
            }
            synchronized (this) {
                Open g = open.get(key);
                if (g == null) {
                    Open created = new Open();
                    open.put(key, created);
                    created.due = timer.schedule(() -> due(key, created), wait.toMillis(), TimeUnit.MILLISECONDS);
                    g = created;
                }
                g.waiting.add(new Waiting(new ChannelPipeline.Member(e, routed), result));
                if (g.waiting.size() >= Grouping.MAX_EVENTS) {
                    // a full group goes at once; the next event starts a new one
                    open.remove(key);
                    g.due.dispose();
                    full = g.waiting;
                }
            }
            if (full != null) {
                send(full);
            }
            return result.asMono();
        });
    }

    private void due(List<Object> key, Open g) {
        synchronized (this) {
            if (open.get(key) != g) {
                return; // went out when it filled up
            }
            open.remove(key);
        }
        send(g.waiting);
    }

    private void send(List<Waiting> group) {
        pipeline.deliverGroup(group.stream().map(Waiting::member).toList())
                .subscribe(
                        results -> {
                            for (int i = 0; i < group.size(); i++) {
                                group.get(i).result().tryEmitValue(results.get(i));
                            }
                        },
                        err -> group.forEach(w -> w.result().tryEmitError(err)));
    }

    /**
     * Sends every group now, without waiting for its time, and sends every later event at once: a notifier that
     * stops delivers (and so commits) what it holds within its drain time, however long the wait.
     */
    void sendAll() {
        List<List<Waiting>> groups = new ArrayList<>();
        synchronized (this) {
            closing = true;
            for (Open g : open.values()) {
                g.due.dispose();
                groups.add(g.waiting);
            }
            open.clear();
        }
        groups.forEach(this::send);
    }

    /** Events waiting here now. */
    synchronized int waiting() {
        return open.values().stream().mapToInt(g -> g.waiting.size()).sum();
    }
}

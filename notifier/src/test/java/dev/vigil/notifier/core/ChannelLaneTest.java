package dev.vigil.notifier.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.scheduler.VirtualTimeScheduler;

class ChannelLaneTest {
    private final VirtualTimeScheduler vts = VirtualTimeScheduler.create();

    @AfterEach
    void dispose() {
        vts.dispose();
    }

    private Mono<Long> stamp(List<Long> starts) {
        return Mono.fromSupplier(() -> {
            long now = vts.now(java.util.concurrent.TimeUnit.MILLISECONDS);
            starts.add(now);
            return now;
        });
    }

    @Test
    void pacesStartsToTheRate() {
        ChannelLane lane = new ChannelLane("slack", 1.0, 4, vts);
        List<Long> starts = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 5; i++) {
            lane.submit(stamp(starts)).subscribe();
        }
        vts.advanceTimeBy(Duration.ofMillis(4500));
        assertThat(starts).containsExactly(0L, 1000L, 2000L, 3000L, 4000L);
        lane.close();
    }

    @Test
    void holdOffPausesTheWholeLane() {
        ChannelLane lane = new ChannelLane("discord", 0, 4, vts);
        List<Long> starts = new CopyOnWriteArrayList<>();
        lane.holdOff(Duration.ofSeconds(2));
        lane.submit(stamp(starts)).subscribe();
        lane.submit(stamp(starts)).subscribe();
        vts.advanceTimeBy(Duration.ofMillis(1999));
        assertThat(starts).isEmpty();
        vts.advanceTimeBy(Duration.ofMillis(1));
        assertThat(starts).containsExactly(2000L, 2000L);
        lane.close();
    }

    @Test
    void boundsConcurrencyAndQueuesTheRest() {
        ChannelLane lane = new ChannelLane("hook", 0, 2, vts);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger maxRunning = new AtomicInteger();
        List<Sinks.One<String>> gates = new CopyOnWriteArrayList<>();
        List<String> results = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 5; i++) {
            Sinks.One<String> gate = Sinks.one();
            gates.add(gate);
            lane.submit(Mono.defer(() -> {
                        maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
                        return gate.asMono().doOnSuccess(v -> running.decrementAndGet());
                    }))
                    .subscribe(results::add);
        }
        assertThat(running.get()).isEqualTo(2);
        assertThat(lane.queued()).isEqualTo(3);
        for (int i = 0; i < 5; i++) {
            gates.get(i).tryEmitValue("r" + i);
        }
        assertThat(results).containsExactlyInAnyOrder("r0", "r1", "r2", "r3", "r4");
        assertThat(maxRunning.get()).isEqualTo(2);
        lane.close();
    }

    @Test
    void anErrorReachesOnlyItsCaller() {
        ChannelLane lane = new ChannelLane("hook", 0, 1, vts);
        List<String> seen = new CopyOnWriteArrayList<>();
        lane.submit(Mono.<String>error(new IllegalStateException("boom")))
                .subscribe(seen::add, e -> seen.add("error:" + e.getMessage()));
        lane.submit(Mono.just("next")).subscribe(seen::add);
        assertThat(seen).containsExactly("error:boom", "next");
        lane.close();
    }

    @Test
    void theCallersContextReachesTheWorkAlsoWhenItWaitedForASlot() {
        ChannelLane lane = new ChannelLane("hook", 0, 1, vts);
        Sinks.One<String> first = Sinks.one();
        List<String> seen = new CopyOnWriteArrayList<>();
        lane.submit(first.asMono()).subscribe(seen::add);
        // queued behind the first: it starts later, from the first's completion, and still sees its caller's trace
        lane.submit(Mono.deferContextual(c -> Mono.just(c.getOrDefault("trace", "none"))))
                .contextWrite(reactor.util.context.Context.of("trace", "t-1"))
                .subscribe(seen::add);
        assertThat(seen).isEmpty();
        first.tryEmitValue("first");
        assertThat(seen).containsExactly("first", "t-1");
        lane.close();
    }
}

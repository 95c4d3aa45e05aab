package dev.vigil.probe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.probe.schedule.FleetRegions;
import dev.vigil.probe.schedule.MonitorSink;
import dev.vigil.probe.schedule.ProbeScheduler;
import dev.vigil.probe.schedule.ScheduleListener;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.contract.WorkerHeartbeat;
import dev.vigil.schemas.json.VigilSerdes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.scheduler.VirtualTimeScheduler;

/** The heartbeat's self-watch counts, as the worker fills them from its scheduler and its view of the fleet. */
class ProbeWorkerHeartbeatTest {
    static MonitorDefinition monitor(String id, String... regions) {
        return new MonitorDefinition(
                1,
                id,
                null,
                "https://example.com/" + id,
                null,
                10,
                2000,
                List.of(regions),
                null,
                null,
                null,
                null,
                null,
                null,
                null);
    }

    @Test
    void countsProbesStartedAndSkippedSinceStartAndTheRegionsTheFleetNames() {
        var clock = VirtualTimeScheduler.create();
        List<ProbeResult> published = new ArrayList<>();
        // every probe runs 25 s on a 10 s interval: of six windows, two start and four are skipped
        var scheduler = new ProbeScheduler(
                "us-east",
                "w-1",
                clock,
                (m, ws) -> Mono.delay(Duration.ofSeconds(25), clock)
                        .map(x -> new ProbeResult(
                                1,
                                m.id(),
                                "us-east",
                                "w-1",
                                ws,
                                ws,
                                Outcome.SUCCESS,
                                null,
                                200,
                                1,
                                1,
                                0L,
                                0,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                "r")),
                published::add,
                16,
                ScheduleListener.NONE);
        var fleet = new FleetRegions();
        MonitorSink feed = MonitorSink.both(scheduler, fleet);
        try {
            feed.upsert(monitor("slow", "us-east", "eu-west"));
            feed.upsert(monitor("elsewhere", "eu-west", "asia-east"));
            clock.advanceTimeBy(Duration.ofSeconds(60));

            WorkerHeartbeat hb = ProbeWorker.Running.heartbeat("w-1", "us-east", scheduler, fleet, 123L);
            assertThat(hb.workerId()).isEqualTo("w-1");
            assertThat(hb.sentAt()).isEqualTo(123L);
            assertThat(hb.monitorsAssigned()).isEqualTo(1);
            assertThat(hb.probesStarted()).isEqualTo(2);
            assertThat(hb.probesSkipped()).isEqualTo(4);
            assertThat(published.stream().filter(ProbeResult::skipped)).hasSize(4);
            // every monitor the feed handed over counts, not only this region's
            assertThat(hb.regionsNamed())
                    .containsExactly(Map.entry("asia-east", 1), Map.entry("eu-west", 2), Map.entry("us-east", 1));
            // and the counts travel on the wire
            byte[] wire = VigilSerdes.workerHeartbeat().serialize("t", hb);
            assertThat(VigilSerdes.workerHeartbeat().deserialize("t", wire)).isEqualTo(hb);

            feed.remove("elsewhere");
            assertThat(ProbeWorker.Running.heartbeat("w-1", "us-east", scheduler, fleet, 124L)
                            .regionsNamed())
                    .containsExactly(Map.entry("eu-west", 1), Map.entry("us-east", 1));
        } finally {
            clock.dispose();
        }
    }
}

package dev.vigil.streams.selfwatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.WorkerHeartbeat;
import java.util.Map;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.Test;

/** A heartbeat becomes one signal per region it concerns; the drill's region and push are never watched. */
class SignalSplitterTest {
    @Test
    void oneSignalPerRegionNamedAndTheWorkersOwnRegionCarriesItsCounters() {
        var context = new MockProcessorContext<String, WatchSignal>();
        var splitter = SignalSplitter.heartbeats();
        splitter.init(context);
        var hb = new WorkerHeartbeat(
                1,
                "w-eu",
                "eu-west",
                1_000L,
                0,
                0,
                "1",
                500L,
                3L,
                Map.of("eu-west", 10, "ap-south", 4, MonitorDefinition.DRILL_REGION, 2));
        splitter.process(new Record<>("w-eu", hb, 1_000L));
        java.util.List<String> keys =
                context.forwarded().stream().map(f -> (String) f.record().key()).toList();
        java.util.List<WatchSignal> signals = context.forwarded().stream()
                .map(f -> (WatchSignal) f.record().value())
                .toList();
        assertThat(keys).containsExactly("ap-south", "eu-west");
        assertThat(signals.get(0))
                .isEqualTo(new WatchSignal(WatchSignal.HEARTBEAT, "w-eu", "eu-west", 1_000L, 4, null, null));
        assertThat(signals.get(1))
                .isEqualTo(new WatchSignal(WatchSignal.HEARTBEAT, "w-eu", "eu-west", 1_000L, 10, 500L, 3L));
    }
}

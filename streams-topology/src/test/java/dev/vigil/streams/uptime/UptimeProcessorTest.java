package dev.vigil.streams.uptime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.schemas.contract.Status;
import dev.vigil.streams.Fixtures;
import dev.vigil.streams.ProcessorContexts;
import dev.vigil.streams.topology.StoreNames;
import dev.vigil.streams.verdict.MonitorEvent;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

class UptimeProcessorTest {
    private static final MonitorDefinition SHOP = Fixtures.monitor("shop", Fixtures.regions(1));
    private static final long DAY = 86_400_000L;
    private static final long D = 20_833; // an epoch day
    private static final long MIDNIGHT = D * DAY + DAY; // start of day D + 1

    private static MonitorStatus verdict(long windowStart, Status status) {
        return new MonitorStatus(1, "shop", windowStart, status, true, Map.of(), List.of(), windowStart);
    }

    private static void process(UptimeProcessor p, long windowStart, Status status) {
        p.process(new Record<>(
                "shop", new MonitorEvent.Decided(SHOP, verdict(windowStart, status), Long.MIN_VALUE), windowStart));
    }

    private static KeyValueStore<String, DailyUptime> store(MockProcessorContext<String, Object> context) {
        return ProcessorContexts.addKeyValueStore(context, StoreNames.UPTIME_STORE, new DailyUptimeSerde());
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void init(UptimeProcessor p, MockProcessorContext<String, Object> context) {
        p.init((MockProcessorContext) context);
    }

    @Test
    void countsEachVerdictIntoItsOwnDayAcrossMidnightAndForLateVerdicts() {
        var context = ProcessorContexts.context(MIDNIGHT);
        var store = store(context);
        var p = new UptimeProcessor(StoreNames.uptime(), 90);
        init(p, context);
        process(p, MIDNIGHT - 60_000, Status.UP);
        process(p, MIDNIGHT, Status.DOWN);
        process(p, MIDNIGHT - 120_000, Status.DEGRADED); // decided late, after the next day began
        process(p, MIDNIGHT + 60_000, Status.UNKNOWN);

        assertThat(store.get(UptimeProcessor.key("shop", D))).isEqualTo(new DailyUptime(D, 1, 1, 0, 0));
        assertThat(store.get(UptimeProcessor.key("shop", D + 1))).isEqualTo(new DailyUptime(D + 1, 0, 0, 1, 1));
    }

    @Test
    void aSecondInitReadsTheRestoredStoreNotWhatTheAbortedTransactionCounted() {
        var p = new UptimeProcessor(StoreNames.uptime(), 90);
        var aborted = ProcessorContexts.context(MIDNIGHT);
        store(aborted);
        init(p, aborted);
        process(p, MIDNIGHT - 60_000, Status.UP);

        var revived = ProcessorContexts.context(MIDNIGHT);
        var restored = store(revived);
        init(p, revived);
        process(p, MIDNIGHT - 60_000, Status.UP); // the same verdict, processed again

        assertThat(restored.get(UptimeProcessor.key("shop", D))).isEqualTo(new DailyUptime(D, 1, 0, 0, 0));
    }
}

package dev.vigil.streams.alerting;

import static dev.vigil.streams.Fixtures.INTERVAL_MS;
import static dev.vigil.streams.Fixtures.W0;
import static dev.vigil.streams.Fixtures.monitor;
import static dev.vigil.streams.Fixtures.regions;
import static dev.vigil.streams.ProcessorContexts.addKeyValueStore;
import static dev.vigil.streams.ProcessorContexts.addVerdictStores;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.ErrorKind;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.Status;
import dev.vigil.schemas.json.JsonSerde;
import dev.vigil.schemas.silence.Silence;
import dev.vigil.streams.ProcessorContexts;
import dev.vigil.streams.config.AlertingConfig;
import dev.vigil.streams.rules.Fingerprints;
import dev.vigil.streams.rules.MonitorRuleState;
import dev.vigil.streams.rules.MonitorRuleStateSerde;
import dev.vigil.streams.topology.StoreNames;
import dev.vigil.streams.verdict.MonitorEvent;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.WindowStore;
import org.junit.jupiter.api.Test;

/**
 * The monitor alert processor's rule state across restarts: it writes the state only when more than the last
 * window moves on, and takes the last window from the newest verdict decided before each one, so that a restart neither
 * re-applies an out-of-order verdict nor forgets a streak.
 */
class MonitorAlertProcessorTest {
    private static final MonitorDefinition SHOP = monitor("shop", regions(1));
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final MockProcessorContext<String, Object> context = ProcessorContexts.context(W0);
    private final WindowStore<String, MonitorStatus> history = addVerdictStores(context, SHOP);
    private final KeyValueStore<String, MonitorRuleState> ruleStates =
            addKeyValueStore(context, StoreNames.MONITOR_RULE_STATE_STORE, new MonitorRuleStateSerde());

    MonitorAlertProcessorTest() {
        addKeyValueStore(context, StoreNames.MONITOR_ALERTS_STORE, new JsonSerde<>(AlertStateRecord.class));
        addKeyValueStore(context, StoreNames.SILENCES_STORE, new JsonSerde<>(Silence.class));
    }

    private MonitorAlertProcessor started(MockProcessorContext<String, Object> in) {
        var processor = new MonitorAlertProcessor(
                AlertingConfig.defaults(), StoreNames.monitorAlerts(), "alerts", new AlertEmitter.Counters(registry));
        processor.init(in);
        return processor;
    }

    /** As the verdict processor does: into the history, then forwarded with the newest window decided before it. */
    private void verdict(MonitorAlertProcessor processor, long windowStart, Status status) {
        // a degraded (or down) window carries a target failure: only target evidence counts for alerting
        var result = status == Status.UP
                ? new MonitorStatus.RegionResult(Outcome.SUCCESS, null, 200, 40)
                : new MonitorStatus.RegionResult(Outcome.NETWORK_FAILURE, ErrorKind.CONNECT_REFUSED, null, null);
        var v = new MonitorStatus(
                1,
                "shop",
                windowStart,
                status,
                true,
                status == Status.UNKNOWN ? Map.of() : Map.of("eu-west", result),
                List.of(),
                windowStart + 5_000);
        processor.process(new Record<>("shop", decided(history, v), windowStart));
    }

    private static MonitorEvent decided(WindowStore<String, MonitorStatus> history, MonitorStatus v) {
        long newestBefore = Long.MIN_VALUE;
        try (var it = history.backwardFetch("shop", 0L, Long.MAX_VALUE)) {
            if (it.hasNext()) {
                newestBefore = it.next().key;
            }
        }
        history.put("shop", v, v.windowStart());
        return new MonitorEvent.Decided(SHOP, v, newestBefore);
    }

    private List<AlertEvent> opened() {
        return context.forwarded("alerts").stream()
                .map(f -> (AlertEvent) f.record().value())
                .filter(e -> e.state() == AlertState.OPENED)
                .toList();
    }

    @Test
    void healthyVerdictsWriteNoRuleStateAndAStreakIsWritten() {
        var processor = started(context);
        for (int i = 0; i < 3; i++) {
            verdict(processor, W0 + i * INTERVAL_MS, Status.UP);
        }
        assertThat(ruleStates.get("shop")).as("only the last window moved on").isNull();

        verdict(processor, W0 + 3 * INTERVAL_MS, Status.DEGRADED);
        assertThat(ruleStates.get("shop").consecutiveDegraded()).isEqualTo(1);
    }

    @Test
    void aStreakSurvivesARestart() {
        verdict(started(context), W0, Status.DEGRADED);
        var restarted = started(context);
        verdict(restarted, W0 + INTERVAL_MS, Status.DEGRADED);
        assertThat(opened())
                .as("two degraded windows in a row, across the restart")
                .singleElement()
                .satisfies(e -> assertThat(e.fingerprint()).isEqualTo(Fingerprints.monitor("shop")));
    }

    @Test
    void afterARestartAnOutOfOrderVerdictIsStillIgnored() {
        var before = started(context);
        verdict(before, W0 + 3 * INTERVAL_MS, Status.UP); // applied; the store still says "no window yet"
        var restarted = started(context);

        // older windows decided at their deadlines, after the restart
        verdict(restarted, W0 + INTERVAL_MS, Status.DOWN);
        verdict(restarted, W0 + 2 * INTERVAL_MS, Status.DOWN);
        assertThat(opened())
                .as("verdicts older than one already applied are ignored")
                .isEmpty();

        verdict(restarted, W0 + 4 * INTERVAL_MS, Status.DOWN);
        assertThat(opened()).hasSize(1);
    }

    @Test
    void reinitialisedOverRestoredStoresAReplayedDownVerdictPagesAgain() {
        var processor = started(context);
        verdict(processor, W0, Status.DOWN);
        assertThat(opened()).as("the first pass opens the incident").hasSize(1);

        // revive: the same instance initialised again over stores restored to the last commit (before W0)
        var revived = ProcessorContexts.context(W0);
        WindowStore<String, MonitorStatus> restoredHistory = addVerdictStores(revived, SHOP);
        addKeyValueStore(revived, StoreNames.MONITOR_RULE_STATE_STORE, new MonitorRuleStateSerde());
        addKeyValueStore(revived, StoreNames.MONITOR_ALERTS_STORE, new JsonSerde<>(AlertStateRecord.class));
        addKeyValueStore(revived, StoreNames.SILENCES_STORE, new JsonSerde<>(Silence.class));
        processor.init(revived);
        var replayed = new MonitorStatus(1, "shop", W0, Status.DOWN, true, Map.of(), List.of(), W0 + 5_000);
        processor.process(new Record<>("shop", decided(restoredHistory, replayed), W0));

        assertThat(revived.forwarded("alerts"))
                .map(f -> ((AlertEvent) f.record().value()).state())
                .as("the aborted page was never committed: it is sent again")
                .containsExactly(AlertState.OPENED);
    }
}

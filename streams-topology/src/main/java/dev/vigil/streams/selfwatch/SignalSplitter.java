package dev.vigil.streams.selfwatch;

import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.WorkerHeartbeat;
import java.util.TreeSet;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Re-keys what the region watch needs onto the signals topic. Stateless; two inputs, one per sub-topology:
 * {@link #heartbeats()} turns a heartbeat into one signal per region it concerns (its own and every region it says
 * monitors name), {@link #deadLetters()} turns any dead letter into one signal under one key. A dead letter is counted,
 * never decoded: a record on the dead-letter topic that could not be read must not become a dead letter again.
 */
public final class SignalSplitter {
    private SignalSplitter() {}

    public static Processor<String, WorkerHeartbeat, String, WatchSignal> heartbeats() {
        return new Processor<>() {
            private ProcessorContext<String, WatchSignal> context;

            @Override
            public void init(ProcessorContext<String, WatchSignal> context) {
                this.context = context;
            }

            @Override
            public void process(Record<String, WorkerHeartbeat> record) {
                WorkerHeartbeat hb = record.value();
                if (hb == null || !hb.workerId().equals(record.key())) {
                    return; // the heartbeat processor dead-letters it
                }
                var regions = new TreeSet<>(hb.regionsNamed().keySet());
                regions.add(hb.region());
                // the drill's region is served by no worker on purpose, and push is ingest's: neither can be blind
                regions.remove(MonitorDefinition.DRILL_REGION);
                regions.remove(MonitorDefinition.PUSH_REGION);
                for (String region : regions) {
                    context.forward(new Record<>(region, WatchSignal.of(hb, region), record.timestamp()));
                }
            }
        };
    }

    public static Processor<String, byte[], String, WatchSignal> deadLetters() {
        return new Processor<>() {
            private ProcessorContext<String, WatchSignal> context;

            @Override
            public void init(ProcessorContext<String, WatchSignal> context) {
                this.context = context;
            }

            @Override
            public void process(Record<String, byte[]> record) {
                context.forward(new Record<>(
                        WatchSignal.DEAD_LETTERS_KEY, WatchSignal.deadLetter(record.timestamp()), record.timestamp()));
            }
        };
    }
}

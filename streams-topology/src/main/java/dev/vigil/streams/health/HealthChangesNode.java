package dev.vigil.streams.health;

import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/** The stream of worker health changes as one node; consumers (e.g. worker-dead alerts) attach as its children. */
public final class HealthChangesNode implements Processor<String, WorkerHealth, String, WorkerHealth> {
    private ProcessorContext<String, WorkerHealth> context;

    @Override
    public void init(ProcessorContext<String, WorkerHealth> context) {
        this.context = context;
    }

    @Override
    public void process(Record<String, WorkerHealth> record) {
        context.forward(record);
    }
}

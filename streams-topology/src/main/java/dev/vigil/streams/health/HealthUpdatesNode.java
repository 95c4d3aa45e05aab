package dev.vigil.streams.health;

import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Every write of a worker's health, with whether its health changed, as one node; consumers (e.g. worker-dead
 * alerts) attach as its children and keep what they need of it in their own stores.
 */
public final class HealthUpdatesNode implements Processor<String, WorkerHealthUpdate, String, WorkerHealthUpdate> {
    private ProcessorContext<String, WorkerHealthUpdate> context;

    @Override
    public void init(ProcessorContext<String, WorkerHealthUpdate> context) {
        this.context = context;
    }

    @Override
    public void process(Record<String, WorkerHealthUpdate> record) {
        context.forward(record);
    }
}

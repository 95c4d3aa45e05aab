package dev.vigil.streams.verdict;

import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * The monitor event stream as one node: every window verdict (and every TLS observation, disabled and deleted
 * monitor) passes here exactly once, in decision order. Downstream consumers (the status topic, the uptime rollup,
 * the alerting half) attach as its children.
 */
public final class VerdictsNode implements Processor<String, MonitorEvent, String, MonitorEvent> {
    private ProcessorContext<String, MonitorEvent> context;

    @Override
    public void init(ProcessorContext<String, MonitorEvent> context) {
        this.context = context;
    }

    @Override
    public void process(Record<String, MonitorEvent> record) {
        context.forward(record);
    }
}

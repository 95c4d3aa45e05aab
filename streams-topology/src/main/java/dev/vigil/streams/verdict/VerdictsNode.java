package dev.vigil.streams.verdict;

import dev.vigil.schemas.contract.MonitorStatus;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * The verdict stream as one node: every window verdict passes here exactly once, in decision order.
 * Downstream consumers (the status topic sink, the uptime rollup, the alerting half) attach as its children.
 */
public final class VerdictsNode implements Processor<String, MonitorStatus, String, MonitorStatus> {
    private ProcessorContext<String, MonitorStatus> context;

    @Override
    public void init(ProcessorContext<String, MonitorStatus> context) {
        this.context = context;
    }

    @Override
    public void process(Record<String, MonitorStatus> record) {
        context.forward(record);
    }
}

package dev.vigil.streams.topology;

import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.streams.verdict.MonitorEvent;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * What the status topic gets of the monitor events: each verdict, and a tombstone when a monitor is deleted or
 * disabled, which has no current verdict any more. Without the tombstone a parent deleted or disabled while down would
 * stay down in the topic, and hold its children's notifications for good.
 */
final class StatusNode implements Processor<String, MonitorEvent, String, MonitorStatus> {
    private ProcessorContext<String, MonitorStatus> context;

    @Override
    public void init(ProcessorContext<String, MonitorStatus> context) {
        this.context = context;
    }

    @Override
    public void process(Record<String, MonitorEvent> record) {
        MonitorEvent event = record.value();
        if (event instanceof MonitorEvent.Decided decided) {
            context.forward(record.withValue(decided.verdict()));
        } else if (event instanceof MonitorEvent.Deleted || event instanceof MonitorEvent.Disabled) {
            context.forward(record.<MonitorStatus>withValue(null));
        }
    }
}

package dev.vigil.streams.topology;

import java.util.function.Function;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * A stateless node that gives a record's value another type (or drops the record when the mapping returns null),
 * so that each processor after it has one typed input; as the identity, a named attach point for the processors
 * after it.
 */
final class MappingNode<K, V, W> implements Processor<K, V, K, W> {
    private final Function<V, W> mapping;
    private ProcessorContext<K, W> context;

    MappingNode(Function<V, W> mapping) {
        this.mapping = mapping;
    }

    @Override
    public void init(ProcessorContext<K, W> context) {
        this.context = context;
    }

    @Override
    public void process(Record<K, V> record) {
        W mapped = mapping.apply(record.value());
        if (mapped != null) {
            context.forward(record.withValue(mapped));
        }
    }
}

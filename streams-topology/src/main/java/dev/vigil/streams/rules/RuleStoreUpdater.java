package dev.vigil.streams.rules;

import dev.vigil.schemas.contract.AlertRule;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Keeps the global rules store equal to the compacted {@code vigil.alert-rules} topic: a value puts, a
 * tombstone deletes. A rule whose id differs from its key is ignored.
 */
public final class RuleStoreUpdater implements Processor<String, AlertRule, Void, Void> {
    private final String storeName;
    private KeyValueStore<String, AlertRule> store;

    public RuleStoreUpdater(String storeName) {
        this.storeName = storeName;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        store = context.getStateStore(storeName);
    }

    @Override
    public void process(Record<String, AlertRule> record) {
        if (record.key() == null) {
            return;
        }
        if (record.value() == null) {
            store.delete(record.key());
        } else if (record.key().equals(record.value().id())) {
            store.put(record.key(), record.value());
        }
    }

    /**
     * The rules in force: the shipped defaults, each replaced by a published rule with the same id, plus every
     * other published rule. Publishing a default's id with {@code enabled=false} switches it off.
     */
    public static Map<String, AlertRule> effective(ReadOnlyKeyValueStore<String, AlertRule> published) {
        Map<String, AlertRule> rules = new LinkedHashMap<>();
        for (AlertRule r : DefaultRules.all()) {
            rules.put(r.id(), r);
        }
        if (published != null) {
            try (var it = published.all()) {
                it.forEachRemaining(kv -> {
                    if (kv.value != null) {
                        rules.put(kv.key, kv.value);
                    }
                });
            }
        }
        return rules;
    }
}

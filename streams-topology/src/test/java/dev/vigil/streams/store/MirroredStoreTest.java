package dev.vigil.streams.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.streams.ProcessorContexts;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

/** The mirror is the store, read whole at load and written through on every change. */
class MirroredStoreTest {
    private final MockProcessorContext<String, Object> context = ProcessorContexts.context(0);
    private final KeyValueStore<String, String> store =
            ProcessorContexts.addKeyValueStore(context, "mirrored", Serdes.String());

    @Test
    void loadsWhatTheStoreHoldsAndWritesThrough() {
        store.put("b", "2");
        store.put("a", "1");
        var mirror = MirroredStore.load(store);
        assertThat(mirror.get("a")).isEqualTo("1");
        assertThat(mirror.keys()).containsExactly("a", "b");

        mirror.put("c", "3");
        mirror.put("a", "one");
        mirror.delete("b");
        assertThat(store.get("c")).isEqualTo("3");
        assertThat(store.get("a")).isEqualTo("one");
        assertThat(store.get("b")).isNull();
        assertThat(mirror.values()).containsExactly("one", "3");
        assertThat(MirroredStore.load(store).keys())
                .as("a new mirror sees exactly what the old one wrote")
                .containsExactlyElementsOf(mirror.keys());
    }

    @Test
    void aNullPutDeletesAndDeletingAnAbsentKeyWritesNothing() {
        var mirror = MirroredStore.load(store);
        mirror.put("a", "1");
        mirror.put("a", null);
        assertThat(mirror.containsKey("a")).isFalse();
        assertThat(store.get("a")).isNull();

        store.put("outside", "written behind the mirror's back");
        mirror.delete("outside");
        assertThat(store.get("outside"))
                .as("the mirror deletes only what it holds")
                .isNotNull();
    }

    @Test
    void aReloadForgetsWhatTheStoreNoLongerHolds() {
        var mirror = MirroredStore.load(store);
        mirror.put("a", "1");
        // a revived task: the store restored to the last commit (here: emptied), the processor initialised again
        store.delete("a");
        assertThat(MirroredStore.load(store).get("a")).isNull();
    }

    @Test
    void prefixesSelectOneMonitorsKeysInOrder() {
        var mirror = MirroredStore.load(store);
        for (String key : List.of(
                StoreKeys.of("shop", 2, 13),
                StoreKeys.of("shop", 1, 13),
                StoreKeys.of("shopping", 1, 13),
                StoreKeys.of("sho", 1, 13))) {
            mirror.put(key, key);
        }
        String prefix = StoreKeys.prefix("shop");
        assertThat(mirror.keysWithPrefix(prefix))
                .containsExactly(StoreKeys.of("shop", 1, 13), StoreKeys.of("shop", 2, 13));
        assertThat(mirror.valuesWithPrefix(prefix))
                .containsExactly(StoreKeys.of("shop", 1, 13), StoreKeys.of("shop", 2, 13));
        assertThat(mirror.keysWithPrefix("")).hasSize(4);
    }

    @Test
    void aViewIsMadeOncePerWriteAndLoad() {
        store.put("a", "1");
        AtomicInteger made = new AtomicInteger();
        var mirror = MirroredStore.load(store, (key, value) -> {
            made.incrementAndGet();
            return key + "=" + value;
        });
        assertThat(mirror.view("a")).isEqualTo("a=1");
        assertThat(mirror.view("a")).isSameAs(mirror.view("a"));
        mirror.put("a", "2");
        assertThat(mirror.view("a")).isEqualTo("a=2");
        mirror.delete("a");
        assertThat(mirror.view("a")).isNull();
        assertThat(made).hasValue(2);
    }

    @Test
    void snapshotsMayBeWrittenWhileIterated() {
        var mirror = MirroredStore.load(store);
        mirror.put("a", "1");
        mirror.put("b", "2");
        List<String> seen = new ArrayList<>();
        for (String key : mirror.keys()) {
            seen.add(key);
            mirror.delete(key);
        }
        assertThat(seen).containsExactly("a", "b");
        assertThat(mirror.size()).isZero();
    }
}

package dev.vigil.streams.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.junit.jupiter.api.Test;

/** The page parameters, the per-partition range scan from the cursor, and the merge of several instances' pages. */
class StatusPageTest {

    @Test
    void noLimitIsTheWholeListAndLimitsAreBounded() {
        assertThat(StatusPage.of(null, null)).isNull();
        assertThat(StatusPage.of("1", null)).isEqualTo(new StatusPage(1, null));
        assertThat(StatusPage.of("10000", StatusCursor.encode("api"))).isEqualTo(new StatusPage(10_000, "api"));
        for (String bad : new String[] {
            "0", "-1", "10001", "", " 5", "5 ", "1.5", "1e3", "abc", "99999999999999999999", "0x10", "2147483648"
        }) {
            assertThatThrownBy(() -> StatusPage.of(bad, null))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'limit'")
                    .hasMessageContaining("10000");
        }
        assertThatThrownBy(() -> StatusPage.of(null, StatusCursor.encode("api")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'cursor' needs 'limit'");
        assertThatThrownBy(() -> StatusPage.of("10", "not a cursor"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'cursor'");
        assertThatThrownBy(() -> new StatusPage(5, "monitor/api")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aPeerIsAskedForThePageWithTheCursorEncodedAgain() {
        assertThat(new StatusPage(50, null).query()).isEqualTo("limit=50");
        assertThat(new StatusPage(50, "ab-c").query()).isEqualTo("limit=50&cursor=" + StatusCursor.encode("ab-c"));
    }

    /**
     * Ids in several partitions (as one instance holds several): for every cursor position and limit, the scan
     * gives exactly the first limit + 1 ids after the cursor, in order, though each partition is read only from
     * the cursor and at most limit + 1 keys deep.
     */
    @Test
    void theScanOfEveryPartitionFromTheCursorIsTheFirstKeysInOrder() {
        List<String> ids =
                List.of("a", "a-b", "a0", "ab", "ab-c", "ab-c-d", "abc", "b", "m-1", "m-10", "m-2", "z", "zz");
        Random random = new Random(7);
        List<MapStore> partitions = List.of(new MapStore(), new MapStore(), new MapStore());
        for (String id : ids) {
            partitions.get(random.nextInt(partitions.size())).map.put(id, "v-" + id);
        }
        List<String> cursors = new ArrayList<>();
        cursors.add(null);
        cursors.addAll(ids);
        cursors.add("m-15"); // not a monitor: a position between ids
        for (String after : cursors) {
            for (int limit = 1; limit <= ids.size() + 1; limit++) {
                StatusPage page = new StatusPage(limit, after);
                partitions.forEach(p -> p.deepest = 0);
                NavigableMap<String, String> first = page.scan(partitions);
                List<String> expected = ids.stream()
                        .filter(id -> after == null || id.compareTo(after) > 0)
                        .limit(limit + 1L)
                        .toList();
                assertThat(first.keySet())
                        .as("after %s, limit %d", after, limit)
                        .containsExactlyElementsOf(expected);
                first.forEach((k, v) -> assertThat(v).isEqualTo("v-" + k));
                for (MapStore p : partitions) {
                    assertThat(p.deepest).as("keys read from one partition").isLessThanOrEqualTo(limit + 2);
                    assertThat(p.scannedAll)
                            .as("a cursor is a range scan, not a read of everything")
                            .isEqualTo(after == null);
                }
            }
        }
    }

    @Test
    void theMergeCutsAtTheLimitAndSaysWhenMoreFollow() {
        StatusPage page = new StatusPage(3, null);
        Comparator<String> order = StatusPage.ID_ORDER;
        // together more than a page
        var merged = page.cut(List.of(slice(false, "b", "e"), slice(false, "a", "d"), slice(false, "c")), order);
        assertThat(merged.rows()).containsExactly("a", "b", "c");
        assertThat(merged.more()).isTrue();
        assertThat(StatusPage.next(merged, s -> s)).isEqualTo(StatusCursor.encode("c"));
        // exactly a page, but one instance has more than it sent: more follow
        merged = page.cut(List.of(slice(true, "a", "c", "e"), slice(false)), order);
        assertThat(merged.rows()).containsExactly("a", "c", "e");
        assertThat(merged.more()).isTrue();
        // exactly a page and nobody has more: the last page
        merged = page.cut(List.of(slice(false, "a"), slice(false, "b", "c")), order);
        assertThat(merged.rows()).containsExactly("a", "b", "c");
        assertThat(merged.more()).isFalse();
        assertThat(StatusPage.next(merged, s -> s)).isNull();
        // nothing after the cursor
        merged = page.cut(List.of(slice(false), slice(false)), order);
        assertThat(merged.rows()).isEmpty();
        assertThat(StatusPage.next(merged, s -> s)).isNull();
    }

    /**
     * Many instances, each answering its own first page after the cursor: following the merged pages lists every
     * id exactly once, in order, whatever the limit.
     */
    @Test
    void followingMergedPagesListsEveryIdOnceInOrder() {
        Random random = new Random(11);
        List<TreeSet<String>> instances = List.of(new TreeSet<>(), new TreeSet<>(), new TreeSet<>());
        TreeSet<String> all = new TreeSet<>();
        for (int i = 0; i < 200; i++) {
            String id = "m-" + random.nextInt(1000);
            if (all.add(id)) {
                instances.get(random.nextInt(instances.size())).add(id);
            }
        }
        for (int limit : new int[] {1, 2, 3, 7, 50, all.size() - 1, all.size(), all.size() + 1}) {
            List<String> listed = new ArrayList<>();
            String cursor = null;
            int pages = 0;
            do {
                StatusPage page = StatusPage.of(String.valueOf(limit), cursor);
                List<StatusPage.Slice<String>> parts = new ArrayList<>();
                for (TreeSet<String> instance : instances) {
                    var after = page.after() == null ? instance : instance.tailSet(page.after(), false);
                    List<String> rows = after.stream().limit(limit).toList();
                    parts.add(new StatusPage.Slice<>(rows, after.size() > limit));
                }
                var merged = page.cut(parts, StatusPage.ID_ORDER);
                assertThat(merged.rows().size()).isLessThanOrEqualTo(limit);
                listed.addAll(merged.rows());
                cursor = StatusPage.next(merged, s -> s);
                if (cursor != null) {
                    assertThat(merged.rows())
                            .as("a page before the last is full")
                            .hasSize(limit);
                }
                assertThat(++pages).isLessThanOrEqualTo(all.size() + 1);
            } while (cursor != null);
            assertThat(listed).as("limit %d", limit).containsExactlyElementsOf(all);
        }
    }

    private static StatusPage.Slice<String> slice(boolean more, String... rows) {
        return new StatusPage.Slice<>(List.of(rows), more);
    }

    /** One partition's store: iterates in key order, and records how it was read. */
    private static final class MapStore implements ReadOnlyKeyValueStore<String, String> {
        final TreeMap<String, String> map = new TreeMap<>();
        int deepest;
        boolean scannedAll;

        @Override
        public String get(String key) {
            return map.get(key);
        }

        @Override
        public KeyValueIterator<String, String> range(String from, String to) {
            scannedAll = false;
            NavigableMap<String, String> sub = from == null ? map : map.tailMap(from, true);
            return iterator(
                    (to == null ? sub : sub.headMap(to, true)).entrySet().iterator());
        }

        @Override
        public KeyValueIterator<String, String> all() {
            scannedAll = true;
            return iterator(map.entrySet().iterator());
        }

        @Override
        public long approximateNumEntries() {
            return map.size();
        }

        private KeyValueIterator<String, String> iterator(Iterator<java.util.Map.Entry<String, String>> it) {
            return new KeyValueIterator<>() {
                int read;

                @Override
                public boolean hasNext() {
                    return it.hasNext();
                }

                @Override
                public KeyValue<String, String> next() {
                    var e = it.next();
                    deepest = Math.max(deepest, ++read);
                    return KeyValue.pair(e.getKey(), e.getValue());
                }

                @Override
                public void close() {}

                @Override
                public String peekNextKey() {
                    throw new UnsupportedOperationException();
                }
            };
        }
    }
}

package dev.vigil.streams.query;

import dev.vigil.schemas.contract.Require;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * One page of {@code GET /v1/status}: at most {@code limit} monitors whose ids come strictly after {@code after}
 * (null: from the first), in id order.
 *
 * <p>Across instances a page is exact without any instance reading more than its own first {@code limit}: each
 * instance answers its first {@code limit} monitors after the cursor and whether it has more, the answering instance
 * merges those answers in id order and cuts at {@code limit} ({@link #cut}). Every monitor of the whole first
 * {@code limit} is among its owner's first {@code limit}, so nothing is skipped; the last id kept is the next cursor.
 *
 * @param limit at most this many monitors, 1 to {@link #MAX_LIMIT}
 * @param after the monitor id the page continues after, or null for the first page
 */
public record StatusPage(int limit, String after) {
    /**
     * The largest page: about 3 MB of JSON (some 300 bytes a monitor, as the console benchmark measured), and at
     * most this many rows from each instance for the answering one to merge. A whole fleet of 100,000 monitors is
     * ten such pages; the CLI asks for 1,000 at a time.
     */
    public static final int MAX_LIMIT = 10_000;
    /**
     * The order of monitor ids on a page. The stores order keys by their serialized (UTF-8) bytes; ids are slugs
     * ({@code [a-z0-9-]}, ASCII), for which {@link String#compareTo} is that same order, so a range scan of a store and
     * the merge here agree.
     */
    public static final Comparator<String> ID_ORDER = Comparator.naturalOrder();

    public StatusPage {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw badLimit();
        }
        if (after != null && !Require.SLUG.matcher(after).matches()) {
            throw new IllegalArgumentException("a page continues after a monitor id");
        }
    }

    /**
     * The page a request asks for with its {@code limit} and {@code cursor} query parameters; null when it gives
     * neither (the whole list in one answer, as before paging). A {@code cursor} without a {@code limit}, a limit that
     * is not a whole number from 1 to {@link #MAX_LIMIT}, or a cursor this API did not give out is an
     * {@link IllegalArgumentException} whose message names the parameter (a 400).
     */
    public static StatusPage of(String limit, String cursor) {
        if (limit == null) {
            if (cursor != null) {
                throw new IllegalArgumentException("'cursor' needs 'limit' (the page size to go on with)");
            }
            return null;
        }
        int n;
        try {
            n = limit.length() > 6 ? -1 : Integer.parseInt(limit);
        } catch (NumberFormatException e) {
            throw badLimit();
        }
        if (n < 1 || n > MAX_LIMIT) {
            throw badLimit();
        }
        return new StatusPage(n, cursor == null ? null : StatusCursor.decode(cursor));
    }

    private static IllegalArgumentException badLimit() {
        return new IllegalArgumentException("'limit' must be a whole number from 1 to " + MAX_LIMIT);
    }

    /** The query parameters that ask an instance for the same page ({@code limit=…&cursor=…}). */
    public String query() {
        return "limit=" + limit + (after == null ? "" : "&cursor=" + StatusCursor.encode(after));
    }

    /**
     * The first {@code limit + 1} entries after {@link #after} over {@code partitions}, in id order: one range scan
     * from the cursor per partition store, each stopped after {@code limit + 1} keys (each partition iterates in key
     * order, so its first {@code limit + 1} hold every key of the merged first {@code limit + 1} it has). The extra
     * entry tells whether there is more than a page.
     */
    public <V> NavigableMap<String, V> scan(List<? extends ReadOnlyKeyValueStore<String, V>> partitions) {
        NavigableMap<String, V> first = new TreeMap<>(ID_ORDER);
        for (ReadOnlyKeyValueStore<String, V> store : partitions) {
            int taken = 0;
            try (var it = after == null ? store.all() : store.range(after, null)) {
                while (taken <= limit && it.hasNext()) {
                    var kv = it.next();
                    if (after != null && ID_ORDER.compare(kv.key, after) <= 0 || kv.value == null) {
                        continue; // the cursor's own id: a range starts at its lower bound, inclusive
                    }
                    first.put(kv.key, kv.value);
                    taken++;
                }
            }
        }
        while (first.size() > limit + 1) {
            first.pollLastEntry();
        }
        return first;
    }

    /**
     * Rows from several sources (this instance's and each peer's page), merged in {@code order} and cut at
     * {@link #limit}: more follow when a source said it had more, or the sources hold more than a page together.
     */
    public <T> Slice<T> cut(List<Slice<T>> parts, Comparator<? super T> order) {
        List<T> all = new ArrayList<>();
        boolean more = false;
        for (Slice<T> part : parts) {
            all.addAll(part.rows());
            more |= part.more();
        }
        all.sort(order);
        if (all.size() > limit) {
            return new Slice<>(List.copyOf(all.subList(0, limit)), true);
        }
        return new Slice<>(List.copyOf(all), more);
    }

    /** The {@code next} cursor after {@code slice}, or null when it is the last page. */
    public static <T> String next(Slice<T> slice, Function<? super T, String> id) {
        if (!slice.more() || slice.rows().isEmpty()) {
            return null;
        }
        return StatusCursor.encode(id.apply(slice.rows().get(slice.rows().size() - 1)));
    }

    /**
     * Some rows in order, and whether more follow them.
     *
     * @param rows the rows (of one instance, or merged)
     * @param more true when the source holds rows after the last of these
     */
    public record Slice<T>(List<T> rows, boolean more) {
        public Slice {
            rows = List.copyOf(rows);
        }

        /** Every row: nothing follows. */
        public static <T> Slice<T> whole(List<T> rows) {
            return new Slice<>(rows, false);
        }

        public <R> Slice<R> map(Function<? super T, ? extends R> f) {
            return new Slice<>(rows.stream().<R>map(f).toList(), more);
        }
    }
}

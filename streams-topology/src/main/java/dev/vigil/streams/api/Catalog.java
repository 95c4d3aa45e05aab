package dev.vigil.streams.api;

import dev.vigil.kit.kafka.CompactedTopicView;
import dev.vigil.streams.query.HttpResult;
import dev.vigil.streams.query.QueryRequest;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * What a compacted topic of managed values (the monitors, the alert rules) holds now, as this instance knows it: the
 * topic followed whole by a {@link CompactedTopicView}, with this instance's own writes laid over it until the view has
 * read them back. So an editor reads what it just wrote on the instance that wrote it, and two writes through one
 * instance are judged one after the other ({@link #reserve}): the second sees the first.
 *
 * <p>Another instance sees a write once its own view has read it (normally well under a second). A conditional write
 * judged on a peer within that moment can still pass: the API's optimistic concurrency holds per instance and, across
 * instances, once the topic has been read back.
 *
 * @param <V> the managed value
 */
public final class Catalog<V> implements AutoCloseable {
    /**
     * Past this, a write the view has not shown is forgotten: the view is the truth, and a write another instance made
     * just after this one's (which the overlay cannot tell from one made before it) shows here within this bound.
     */
    static final Duration OVERLAY_FOR = Duration.ofSeconds(10);

    private final CompactedTopicView<V> view;
    private final Function<V, String> idOf;
    private final Clock clock;
    private final Map<String, Pending<V>> overlay = new ConcurrentHashMap<>();

    /** A write of this instance: the value (null: deleted) and until when it stands in for the view. */
    private record Pending<V>(V value, long until) {}

    /**
     * @param view   makes the view with the listener the catalogue needs (a consumer of its own, or a test's)
     * @param idOf   the key of a value
     */
    public Catalog(
            Function<CompactedTopicView.Listener<V>, CompactedTopicView<V>> view,
            Function<V, String> idOf,
            Clock clock) {
        this.idOf = idOf;
        this.clock = clock;
        this.view = view.apply(new CompactedTopicView.Listener<>() {
            @Override
            public void upserted(String key, V value) {
                overlay.computeIfPresent(key, (k, p) -> Objects.equals(p.value(), value) ? null : p);
            }

            @Override
            public void removed(String key) {
                overlay.computeIfPresent(key, (k, p) -> p.value() == null ? null : p);
            }
        });
    }

    public Catalog<V> start() {
        view.start();
        return this;
    }

    /** Whether the topic was read up to where it ended when this instance started: until then answers would be partial. */
    public boolean ready() {
        return view.isCaughtUp();
    }

    /** 503 while {@link #ready} is false: an answer now would be made of part of the topic. */
    public HttpResult notReady(QueryRequest req) {
        return HttpResult.unavailable(
                "this instance is still reading " + view.topic() + "; retry in a moment", req.path());
    }

    /** The current value of {@code id}, or null. */
    public V get(String id) {
        Pending<V> p = overlay.get(id);
        if (p != null && p.until() > clock.millis()) {
            return p.value();
        }
        return view.get(id);
    }

    /** Every value, by id. */
    public SortedMap<String, V> snapshot() {
        // the overlay first: a write the view reads meanwhile is then in one or the other (the view stores a value
        // before it drops the overlay's copy), never in neither
        Map<String, Pending<V>> pending = Map.copyOf(overlay);
        SortedMap<String, V> out = new TreeMap<>();
        view.values().forEach(v -> out.put(idOf.apply(v), v));
        long now = clock.millis();
        pending.forEach((id, p) -> {
            if (p.until() > now) {
                if (p.value() == null) {
                    out.remove(id);
                } else {
                    out.put(id, p.value());
                }
            }
        });
        return out;
    }

    /**
     * Takes {@code id} for a write of {@code next} (null: a delete) if it still holds {@code expected} (null: absent):
     * the check and the reservation are one step, so of two writes judged against the same value only one passes.
     * Release it with {@link #release} when the write fails.
     */
    public synchronized boolean reserve(String id, V expected, V next) {
        if (!Objects.equals(get(id), expected)) {
            return false;
        }
        overlay.put(id, new Pending<>(next, clock.millis() + OVERLAY_FOR.toMillis()));
        return true;
    }

    /** Reserves every value of {@code next} (id → value, null for a delete) without a check: a bulk apply's writes. */
    public synchronized void reserveAll(Map<String, V> next) {
        long until = clock.millis() + OVERLAY_FOR.toMillis();
        next.forEach((id, v) -> overlay.put(id, new Pending<>(v, until)));
    }

    /** Undoes {@link #reserve} of {@code next} after a write that did not commit. */
    public synchronized void release(String id, V next) {
        overlay.computeIfPresent(id, (k, p) -> Objects.equals(p.value(), next) ? null : p);
    }

    @Override
    public void close() {
        view.close();
    }
}

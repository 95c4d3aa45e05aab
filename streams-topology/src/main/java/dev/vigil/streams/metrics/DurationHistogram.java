package dev.vigil.streams.metrics;

import com.datadoghq.sketch.ddsketch.mapping.LogarithmicMapping;
import com.datadoghq.sketch.ddsketch.store.Bin;
import com.datadoghq.sketch.ddsketch.store.Store;
import com.datadoghq.sketch.ddsketch.store.UnboundedSizeDenseStore;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Objects;

/**
 * A mergeable distribution of durations (ms) with a guaranteed relative error on quantiles: a DDSketch
 * (Masson et al., VLDB 2019) built from DataDog's sketches-java, its logarithmic bucket mapping
 * ({@link LogarithmicMapping}) and an unbounded dense store of counts ({@link UnboundedSizeDenseStore}).
 * This class adds what Vigil's rules need and the library does not give: exact count, minimum and maximum,
 * a zero bucket, nearest-rank quantiles, and the bounds of the bucket holding a rank.
 *
 * <p><b>Why fixed buckets.</b> Buckets are the same for every instance and every minute, so merging N
 * one-minute histograms is adding counts index by index: exact, associative, commutative, order-free, which
 * is what a replay-deterministic topology needs. A sketch whose shape depends on the data (t-digest, KLL)
 * merges approximately and differently depending on the order. (The store keeps counts as doubles; they are
 * whole numbers far below 2^53, so every sum is exact.)
 *
 * <p><b>Error bound.</b> With {@code γ = (1 + α) / (1 − α)} and {@code α = }{@value #RELATIVE_ERROR}, the
 * mapping puts a value {@code v ≥ }{@value #MIN_TRACKED_MS} ms in bucket {@code i = ⌊log_γ v⌋}, i.e.
 * {@code γ^i ≤ v < γ^(i+1)}, represented by {@code (1 + α)·γ^i}, which is within relative error {@code α}
 * of every value of the bucket. Quantiles use the nearest-rank definition (the {@code ⌈q·n⌉}-th smallest
 * value); the bucket holding that rank is found exactly by walking the store's bins in ascending order, so
 * for every q:
 * <pre>  |quantile(q) − exact(q)| ≤ α · exact(q)      (α = 1 %)</pre>
 * Values below {@value #MIN_TRACKED_MS} ms (including 0) are counted in a zero bucket and reported as 0
 * (absolute error below 0.01 ms). Estimates are also clamped to the exact minimum and maximum, which only
 * moves them closer to the truth. Durations from 0.01 ms to an hour span about 1,100 buckets; a typical
 * minute of one endpoint touches a few dozen to a few hundred.
 *
 * <p><b>Bucket numbering.</b> The library's index of a value is {@code ⌊log_γ v⌋}. Values written before the
 * library was used (binary format version 1 of {@link MetricAggregateSerde}, and {@link Snapshot}s without an
 * {@code indexVersion}) numbered buckets {@code ⌈log_γ v⌉}, bucket {@code i} holding
 * {@code γ^(i−1) < v ≤ γ^i} and represented by {@code 2γ^i / (γ + 1)}. They are read by moving each old bucket's
 * count to the library bucket holding its representative: the same interval up to its end points (index
 * {@code i − 1}), with the same representative, so old values keep their quantiles and error bound.
 *
 * <p>Not thread-safe; one instance per aggregate, as Kafka Streams uses it.
 */
public final class DurationHistogram {
    /** Relative error bound α of every quantile estimate. */
    public static final double RELATIVE_ERROR = 0.01;
    /** Values below this (ms) go to the zero bucket. */
    public static final double MIN_TRACKED_MS = 0.01;

    static final double GAMMA = (1 + RELATIVE_ERROR) / (1 - RELATIVE_ERROR);
    /** The bucket numbering written before sketches-java: bucket {@code i} holds {@code γ^(i−1) < v ≤ γ^i}. */
    static final int LEGACY_INDEXES = 1;
    /** The numbering of sketches-java's {@link LogarithmicMapping}: bucket {@code i} holds {@code γ^i ≤ v < γ^(i+1)}. */
    static final int LIBRARY_INDEXES = 2;

    private static final LogarithmicMapping MAPPING = new LogarithmicMapping(RELATIVE_ERROR);
    /** Lowest and highest index a finite value ≥ {@link #MIN_TRACKED_MS} can have: bounds what a reader accepts. */
    static final int MIN_INDEX = MAPPING.index(MIN_TRACKED_MS);

    static final int MAX_INDEX = MAPPING.index(Double.MAX_VALUE);

    private final Store store;
    private long zeroCount;
    private long total;
    private double min = Double.POSITIVE_INFINITY;
    private double max = Double.NEGATIVE_INFINITY;

    public DurationHistogram() {
        this(new UnboundedSizeDenseStore());
    }

    private DurationHistogram(Store store) {
        this.store = store;
    }

    /** Bucket index of a value ≥ {@link #MIN_TRACKED_MS}. */
    static int indexOf(double v) {
        return MAPPING.index(v);
    }

    /** The value reported for bucket {@code i}: within α of every value of the bucket. */
    static double representative(int i) {
        return MAPPING.value(i);
    }

    /**
     * The smallest double the mapping puts in bucket {@code i} or above. Bucket {@code i} is exactly
     * {@code [lowerEdge(i), lowerEdge(i + 1))}. Found from the library's {@code lowerBound(i)} (an
     * {@code exp} that can be a few ulps off the true edge) by stepping to the first double whose index
     * is {@code ≥ i}, so the bounds built from it hold for every double, not only up to rounding: the
     * mapping's index is monotone in the value, so this edge separates bucket {@code i − 1} from {@code i}.
     */
    static double lowerEdge(int i) {
        double e = MAPPING.lowerBound(i);
        while (e > 0 && MAPPING.index(e) >= i) {
            e = Math.nextDown(e);
        }
        while (MAPPING.index(e) < i) {
            e = Math.nextUp(e);
        }
        return e;
    }

    /**
     * The library bucket holding the representative {@code 2γ^i / (γ + 1)} of the old bucket {@code i}
     * (computed as {@code γ^(i−1) · 2γ / (γ + 1)} so the top bucket does not overflow).
     */
    static int fromLegacyIndex(int legacy) {
        if (legacy < MIN_INDEX - 1 || legacy > MAX_INDEX + 2) {
            throw new IllegalArgumentException("histogram indexes must be ascending and bounded");
        }
        return MAPPING.index(Math.pow(GAMMA, legacy - 1) * (2 * GAMMA / (GAMMA + 1)));
    }

    /** Adds one duration; negative, NaN and infinite values are refused. */
    public void add(double ms) {
        add(ms, 1);
    }

    public void add(double ms, long n) {
        if (!(ms >= 0) || Double.isInfinite(ms)) {
            throw new IllegalArgumentException("duration must be a finite number >= 0");
        }
        if (n <= 0) {
            throw new IllegalArgumentException("count must be positive");
        }
        if (ms < MIN_TRACKED_MS) {
            zeroCount += n;
        } else {
            store.add(MAPPING.index(ms), n);
        }
        total += n;
        min = Math.min(min, ms);
        max = Math.max(max, ms);
    }

    /** Adds every value of {@code other} to this histogram (exact). */
    public DurationHistogram merge(DurationHistogram other) {
        if (other.total == 0) {
            return this;
        }
        store.mergeWith(other.store);
        zeroCount += other.zeroCount;
        total += other.total;
        min = Math.min(min, other.min);
        max = Math.max(max, other.max);
        return this;
    }

    public DurationHistogram copy() {
        DurationHistogram h = new DurationHistogram(store.copy());
        h.zeroCount = zeroCount;
        h.total = total;
        h.min = min;
        h.max = max;
        return h;
    }

    public long count() {
        return total;
    }

    public boolean isEmpty() {
        return total == 0;
    }

    /** Exact minimum, or NaN when empty. */
    public double min() {
        return total == 0 ? Double.NaN : min;
    }

    /** Exact maximum, or NaN when empty. */
    public double max() {
        return total == 0 ? Double.NaN : max;
    }

    /**
     * The nearest-rank {@code q}-quantile ({@code 0 < q ≤ 1}) within relative error {@link #RELATIVE_ERROR};
     * NaN when empty.
     */
    public double quantile(double q) {
        if (!(q > 0 && q <= 1)) {
            throw new IllegalArgumentException("quantile must be in (0, 1]");
        }
        if (total == 0) {
            return Double.NaN;
        }
        long rank = (long) Math.ceil(q * total);
        if (rank <= 1) {
            return min; // the smallest and the largest value are known exactly
        }
        if (rank >= total) {
            return max;
        }
        if (rank <= zeroCount) {
            return clamp(0);
        }
        int i = bucketOfRank(rank);
        return i == Integer.MIN_VALUE ? max : clamp(MAPPING.value(i));
    }

    /**
     * Bounds that certainly contain the exact nearest-rank {@code q}-quantile: {@code lower ≤ exact ≤ upper}.
     * They are the edges of the bucket holding the rank, clamped to [min, max] (or both the exact minimum or
     * maximum when the rank is the first or last); their ratio is at most γ ≈ 1 + 2α.
     *
     * <p>The library's buckets are closed below and open above ({@code lowerEdge(i) ≤ v < lowerEdge(i + 1)},
     * see {@link #lowerEdge}: exact in floating point, not only up to rounding), where the hand-written ones were
     * open below and closed above. Rules compare these bounds rather than the estimate — a breach upward
     * ({@code >}, {@code ≥}) on the lower bound, downward ({@code <}, {@code ≤}) on the upper — and that is
     * sound with either kind of edge, because it needs only {@code lower ≤ exact ≤ upper}: {@code lower > t}
     * implies {@code exact > t}, {@code lower ≥ t} implies {@code exact ≥ t}, {@code upper < t} implies
     * {@code exact < t} and {@code upper ≤ t} implies {@code exact ≤ t}. So a breach is never claimed that the
     * data does not prove, and a threshold exactly met ({@code exact = t}) never fires a strict comparison:
     * {@code lower ≤ t ≤ upper}. Conversely a quantile past the threshold by more than one bucket (about 2 %)
     * always fires, as the bucket's other edge is then past it too.
     *
     * @return {@code {lower, upper}}, or {@code {NaN, NaN}} when empty
     */
    public double[] quantileBounds(double q) {
        if (!(q > 0 && q <= 1)) {
            throw new IllegalArgumentException("quantile must be in (0, 1]");
        }
        if (total == 0) {
            return new double[] {Double.NaN, Double.NaN};
        }
        long rank = (long) Math.ceil(q * total);
        if (rank <= 1) {
            return new double[] {min, min};
        }
        if (rank >= total) {
            return new double[] {max, max};
        }
        if (rank <= zeroCount) {
            return new double[] {min, Math.min(max, MIN_TRACKED_MS)};
        }
        int i = bucketOfRank(rank);
        if (i == Integer.MIN_VALUE) {
            return new double[] {max, max};
        }
        return new double[] {clamp(lowerEdge(i)), clamp(lowerEdge(i + 1))};
    }

    public double p50() {
        return quantile(0.50);
    }

    public double p95() {
        return quantile(0.95);
    }

    public double p99() {
        return quantile(0.99);
    }

    /** The index of the bucket holding the {@code rank}-th smallest value (past the zero bucket). */
    private int bucketOfRank(long rank) {
        long seen = zeroCount;
        for (Iterator<Bin> it = store.getAscendingIterator(); it.hasNext(); ) {
            Bin b = it.next();
            seen += (long) b.getCount();
            if (seen >= rank) {
                return b.getIndex();
            }
        }
        return Integer.MIN_VALUE; // unreachable when counts are consistent
    }

    private double clamp(double v) {
        return Math.max(min, Math.min(max, v));
    }

    // ---- for the binary serde (same package; avoids the sparse snapshot's allocations) ------------------------

    long zeroCount() {
        return zeroCount;
    }

    /** The non-empty buckets, ascending by index; counts are whole numbers. */
    Iterator<Bin> buckets() {
        return store.getAscendingIterator();
    }

    /**
     * Each non-empty bucket, ascending by index, without a {@link Bin} per bucket: the window store's serde runs this
     * for every metric, twice.
     */
    void forEachBucket(com.datadoghq.sketch.ddsketch.store.BinAcceptor each) {
        store.forEach(each);
    }

    /**
     * Rebuilds a histogram from buckets in the given numbering ({@link #LEGACY_INDEXES} or
     * {@link #LIBRARY_INDEXES}), the first {@code n} of parallel arrays; refuses indexes that do not ascend or
     * lie outside the range of finite values and counts that are not positive.
     */
    static DurationHistogram ofBuckets(
            int indexVersion, int[] indexes, long[] counts, int n, long zeroCount, double min, double max) {
        if (indexVersion != LEGACY_INDEXES && indexVersion != LIBRARY_INDEXES) {
            throw new IllegalArgumentException("histogram index version must be 1 or 2");
        }
        if (zeroCount < 0) {
            throw new IllegalArgumentException("histogram counts must not be negative");
        }
        int[] targets = indexes;
        if (indexVersion == LEGACY_INDEXES) {
            targets = new int[n];
            for (int k = 0; k < n; k++) {
                targets[k] = fromLegacyIndex(indexes[k]);
            }
        }
        long total = zeroCount;
        for (int k = 0; k < n; k++) {
            if ((k > 0 && indexes[k] <= indexes[k - 1]) || counts[k] <= 0) {
                throw new IllegalArgumentException("histogram indexes must be ascending with positive counts");
            }
            if (targets[k] < MIN_INDEX || targets[k] > MAX_INDEX) {
                throw new IllegalArgumentException("histogram indexes must be ascending and bounded");
            }
            total += counts[k];
        }
        DurationHistogram h = new DurationHistogram();
        if (n > 0) {
            // the two ends first, so the store grows once
            h.store.add(targets[0], counts[0]);
            if (n > 1) {
                h.store.add(targets[n - 1], counts[n - 1]);
            }
            for (int k = 1; k < n - 1; k++) {
                h.store.add(targets[k], counts[k]);
            }
        }
        h.zeroCount = zeroCount;
        h.total = total;
        if (total > 0) {
            h.min = min;
            h.max = max;
        }
        return h;
    }

    // ---- compact form (serialisation) ------------------------------------------------------------------------

    /**
     * The sparse form: zero bucket count, exact min/max, and the non-empty buckets as parallel arrays of
     * ascending indexes (in the library's numbering, {@code indexVersion} 2) and counts. Used by the JSON form.
     */
    public Snapshot snapshot() {
        int n = 0;
        for (Iterator<Bin> it = store.getAscendingIterator(); it.hasNext(); it.next()) {
            n++;
        }
        int[] idx = new int[n];
        long[] cnt = new long[n];
        int j = 0;
        for (Iterator<Bin> it = store.getAscendingIterator(); it.hasNext(); j++) {
            Bin b = it.next();
            idx[j] = b.getIndex();
            cnt[j] = (long) b.getCount();
        }
        return new Snapshot(zeroCount, total == 0 ? 0 : min, total == 0 ? 0 : max, idx, cnt, LIBRARY_INDEXES);
    }

    /** Reads a snapshot in either numbering (one without {@code indexVersion} was written before the library). */
    public static DurationHistogram of(Snapshot s) {
        if (s.indexes().length != s.counts().length) {
            throw new IllegalArgumentException("histogram indexes and counts differ in length");
        }
        int version = s.indexVersion() == null ? LEGACY_INDEXES : s.indexVersion();
        return ofBuckets(version, s.indexes(), s.counts(), s.indexes().length, s.zeroCount(), s.min(), s.max());
    }

    /**
     * The serialisable sparse form of a histogram. {@code indexVersion}: 2 for the library's bucket numbering;
     * 1, or null when the field is absent (JSON written before the library), for the old one (see the class
     * comment).
     */
    public record Snapshot(long zeroCount, double min, double max, int[] indexes, long[] counts, Integer indexVersion) {
        public Snapshot {
            indexes = indexes == null ? new int[0] : indexes;
            counts = counts == null ? new long[0] : counts;
        }

        /** A snapshot in the library's numbering. */
        public Snapshot(long zeroCount, double min, double max, int[] indexes, long[] counts) {
            this(zeroCount, min, max, indexes, counts, LIBRARY_INDEXES);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Snapshot s
                    && zeroCount == s.zeroCount
                    && Double.compare(min, s.min) == 0
                    && Double.compare(max, s.max) == 0
                    && Arrays.equals(indexes, s.indexes)
                    && Arrays.equals(counts, s.counts)
                    && Objects.equals(indexVersion, s.indexVersion);
        }

        @Override
        public int hashCode() {
            return 31 * (31 * Long.hashCode(zeroCount) + Arrays.hashCode(indexes)) + Arrays.hashCode(counts);
        }

        @Override
        public String toString() {
            return "Snapshot[zero=" + zeroCount + ", min=" + min + ", max=" + max + ", buckets=" + indexes.length
                    + ", indexVersion=" + indexVersion + "]";
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DurationHistogram h && snapshot().equals(h.snapshot());
    }

    @Override
    public int hashCode() {
        return snapshot().hashCode();
    }

    @Override
    public String toString() {
        return "DurationHistogram[n=" + total + ", p50=" + p50OrNaN() + ", p99=" + (total == 0 ? Double.NaN : p99())
                + "]";
    }

    private double p50OrNaN() {
        return total == 0 ? Double.NaN : p50();
    }
}

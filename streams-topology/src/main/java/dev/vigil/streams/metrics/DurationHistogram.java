package dev.vigil.streams.metrics;

import java.util.Arrays;

/**
 * A mergeable distribution of durations (ms) with a guaranteed relative error on quantiles: fixed
 * logarithmic buckets, the scheme of DDSketch (Masson et al., VLDB 2019) with an unbounded sparse store.
 *
 * <p><b>Why fixed buckets.</b> Buckets are the same for every instance and every minute, so merging N
 * one-minute histograms is adding counts index by index: exact, associative, commutative, order-free, which
 * is what a replay-deterministic topology needs. A sketch whose shape depends on the data (t-digest, KLL)
 * merges approximately and differently depending on the order.
 *
 * <p><b>Error bound.</b> With {@code γ = (1 + α) / (1 − α)} and {@code α = }{@value #RELATIVE_ERROR}, a value
 * {@code v ≥ }{@value #MIN_TRACKED_MS} ms falls in bucket {@code i = ⌈log_γ v⌉}, i.e. {@code γ^(i−1) < v ≤ γ^i},
 * and the bucket is represented by {@code 2γ^i / (γ + 1)}, which is within relative error {@code α} of every
 * value of the bucket. Quantiles use the nearest-rank definition (the {@code ⌈q·n⌉}-th smallest value); the
 * bucket holding that rank is found exactly, so for every q:
 * <pre>  |quantile(q) − exact(q)| ≤ α · exact(q)      (α = 1 %)</pre>
 * Values below {@value #MIN_TRACKED_MS} ms (including 0) are counted in a zero bucket and reported as 0
 * (absolute error below 0.01 ms). Estimates are also clamped to the exact minimum and maximum, which only
 * moves them closer to the truth. Durations from 0.01 ms to an hour span about 1,100 buckets; a typical
 * minute of one endpoint touches a few dozen to a few hundred, stored sparsely (index, count).
 *
 * <p>Not thread-safe; one instance per aggregate, as Kafka Streams uses it.
 */
public final class DurationHistogram {
    /** Relative error bound α of every quantile estimate. */
    public static final double RELATIVE_ERROR = 0.01;
    /** Values below this (ms) go to the zero bucket. */
    public static final double MIN_TRACKED_MS = 0.01;

    static final double GAMMA = (1 + RELATIVE_ERROR) / (1 - RELATIVE_ERROR);
    private static final double LOG_GAMMA = Math.log(GAMMA);

    // Dense window [offset, offset + counts.length) of bucket indexes; grown on demand.
    private int offset;
    private long[] counts = new long[0];
    private long zeroCount;
    private long total;
    private double min = Double.POSITIVE_INFINITY;
    private double max = Double.NEGATIVE_INFINITY;

    public DurationHistogram() {
    }

    /** Bucket index of a value ≥ {@link #MIN_TRACKED_MS}. */
    static int indexOf(double v) {
        return (int) Math.ceil(Math.log(v) / LOG_GAMMA);
    }

    /** The value reported for bucket {@code i}: within α of every value of the bucket. */
    static double representative(int i) {
        return 2 * Math.pow(GAMMA, i) / (GAMMA + 1);
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
            int i = indexOf(ms);
            ensure(i, i);
            counts[i - offset] += n;
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
        int lo = -1;
        int hi = -1;
        for (int k = 0; k < other.counts.length; k++) {
            if (other.counts[k] != 0) {
                if (lo < 0) {
                    lo = k;
                }
                hi = k;
            }
        }
        if (lo >= 0) {
            ensure(other.offset + lo, other.offset + hi);
            for (int k = lo; k <= hi; k++) {
                counts[other.offset + k - offset] += other.counts[k];
            }
        }
        zeroCount += other.zeroCount;
        total += other.total;
        min = Math.min(min, other.min);
        max = Math.max(max, other.max);
        return this;
    }

    public DurationHistogram copy() {
        DurationHistogram h = new DurationHistogram();
        h.offset = offset;
        h.counts = counts.clone();
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
        long seen = zeroCount;
        for (int k = 0; k < counts.length; k++) {
            seen += counts[k];
            if (seen >= rank) {
                return clamp(representative(offset + k));
            }
        }
        return max; // unreachable when counts are consistent
    }

    /**
     * Bounds that certainly contain the exact nearest-rank {@code q}-quantile: {@code lower < exact ≤ upper}
     * (or both equal when the quantile is the exact minimum or maximum, or every value of its bucket is the
     * same extreme). The bounds are the edges of the bucket holding the rank, clamped to [min, max]; their
     * ratio is at most γ ≈ 1 + 2α. Rules compare these bounds rather than the estimate, so a threshold that is
     * exactly met never fires and a breach is never claimed that the data does not prove.
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
        long seen = zeroCount;
        for (int k = 0; k < counts.length; k++) {
            seen += counts[k];
            if (seen >= rank) {
                int i = offset + k;
                return new double[] {clamp(Math.pow(GAMMA, i - 1)), clamp(Math.pow(GAMMA, i))};
            }
        }
        return new double[] {max, max};
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

    private double clamp(double v) {
        return Math.max(min, Math.min(max, v));
    }

    private void ensure(int lo, int hi) {
        if (counts.length == 0) {
            offset = lo;
            counts = new long[Math.max(16, hi - lo + 1)];
            return;
        }
        int curHi = offset + counts.length - 1;
        if (lo >= offset && hi <= curHi) {
            return;
        }
        int newLo = Math.min(lo, offset);
        int newHi = Math.max(hi, curHi);
        int len = newHi - newLo + 1;
        // grow with slack in the direction of growth, so a drifting distribution does not copy on every value
        int slack = Math.max(8, len / 4);
        if (lo < offset) {
            newLo -= slack;
        }
        if (hi > curHi) {
            newHi += slack;
        }
        long[] grown = new long[newHi - newLo + 1];
        System.arraycopy(counts, 0, grown, offset - newLo, counts.length);
        counts = grown;
        offset = newLo;
    }

    // ---- direct access for the binary serde (same package; avoids the sparse snapshot's allocations) ----------

    int denseOffset() {
        return offset;
    }

    long[] denseCounts() {
        return counts;
    }

    long zeroCount() {
        return zeroCount;
    }

    /** Rebuilds a histogram from a dense window of counts the serde has validated; takes ownership of the array. */
    static DurationHistogram ofDense(int offset, long[] counts, long zeroCount, long total, double min, double max) {
        DurationHistogram h = new DurationHistogram();
        h.offset = offset;
        h.counts = counts;
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
     * ascending indexes and counts. Used by the JSON and binary serdes.
     */
    public Snapshot snapshot() {
        int n = 0;
        for (long c : counts) {
            if (c != 0) {
                n++;
            }
        }
        int[] idx = new int[n];
        long[] cnt = new long[n];
        int j = 0;
        for (int k = 0; k < counts.length; k++) {
            if (counts[k] != 0) {
                idx[j] = offset + k;
                cnt[j++] = counts[k];
            }
        }
        return new Snapshot(zeroCount, total == 0 ? 0 : min, total == 0 ? 0 : max, idx, cnt);
    }

    public static DurationHistogram of(Snapshot s) {
        DurationHistogram h = new DurationHistogram();
        if (s.indexes().length != s.counts().length) {
            throw new IllegalArgumentException("histogram indexes and counts differ in length");
        }
        long total = s.zeroCount();
        if (s.zeroCount() < 0) {
            throw new IllegalArgumentException("histogram counts must not be negative");
        }
        if (s.indexes().length > 0) {
            int lo = s.indexes()[0];
            int hi = s.indexes()[s.indexes().length - 1];
            if (hi < lo || (long) hi - lo > 1_000_000) {
                throw new IllegalArgumentException("histogram indexes must be ascending and bounded");
            }
            h.offset = lo;
            h.counts = new long[hi - lo + 1];
            int prev = Integer.MIN_VALUE;
            for (int k = 0; k < s.indexes().length; k++) {
                int i = s.indexes()[k];
                long c = s.counts()[k];
                if (i <= prev || c <= 0) {
                    throw new IllegalArgumentException("histogram indexes must be ascending with positive counts");
                }
                prev = i;
                h.counts[i - lo] = c;
                total += c;
            }
        }
        h.zeroCount = s.zeroCount();
        h.total = total;
        if (total > 0) {
            h.min = s.min();
            h.max = s.max();
        }
        return h;
    }

    /** The serialisable sparse form of a histogram. */
    public record Snapshot(long zeroCount, double min, double max, int[] indexes, long[] counts) {
        public Snapshot {
            indexes = indexes == null ? new int[0] : indexes;
            counts = counts == null ? new long[0] : counts;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Snapshot s && zeroCount == s.zeroCount && Double.compare(min, s.min) == 0
                    && Double.compare(max, s.max) == 0 && Arrays.equals(indexes, s.indexes)
                    && Arrays.equals(counts, s.counts);
        }

        @Override
        public int hashCode() {
            return 31 * (31 * Long.hashCode(zeroCount) + Arrays.hashCode(indexes)) + Arrays.hashCode(counts);
        }

        @Override
        public String toString() {
            return "Snapshot[zero=" + zeroCount + ", min=" + min + ", max=" + max + ", buckets=" + indexes.length + "]";
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
        return "DurationHistogram[n=" + total + ", p50=" + p50OrNaN() + ", p99=" + (total == 0 ? Double.NaN : p99()) + "]";
    }

    private double p50OrNaN() {
        return total == 0 ? Double.NaN : p50();
    }
}

package dev.vigil.streams.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.schemas.json.Json;
import java.util.Arrays;
import java.util.Random;
import java.util.function.DoubleSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class DurationHistogramTest {
    static final double[] QS = {0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 0.999, 1.0};

    /** Nearest rank: the ceil(q n)-th smallest value. */
    static double exact(double[] sorted, double q) {
        int rank = (int) Math.max(1, Math.ceil(q * sorted.length));
        return sorted[rank - 1];
    }

    static Stream<Arguments> distributions() {
        return Stream.of(
                Arguments.of("lognormal latencies", 11L, 20_000),
                Arguments.of("uniform 0..5000 ms", 12L, 5_000),
                Arguments.of("bimodal with zeros", 13L, 7_777),
                Arguments.of("few values", 14L, 7),
                Arguments.of("heavy tail", 15L, 50_000));
    }

    static DoubleSupplier source(String name, Random r) {
        return switch (name) {
            case "lognormal latencies" -> () -> Math.exp(4 + 1.2 * r.nextGaussian());
            case "uniform 0..5000 ms", "few values" -> () -> r.nextDouble() * 5000;
            case "bimodal with zeros" -> () -> switch (r.nextInt(3)) {
                case 0 -> 0.0;
                case 1 -> 3 + r.nextDouble() * 2;
                default -> 2000 + r.nextGaussian() * 100;
            };
            default -> () -> 1 / Math.pow(1 - r.nextDouble(), 1.5); // Pareto-like, up to huge values
        };
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("distributions")
    void quantilesAreWithinTheStatedRelativeErrorOfExactQuantiles(String name, long seed, int n) {
        Random r = new Random(seed);
        DoubleSupplier src = source(name, r);
        double[] values = new double[n];
        DurationHistogram h = new DurationHistogram();
        for (int i = 0; i < n; i++) {
            values[i] = Math.max(0, src.getAsDouble());
            h.add(values[i]);
        }
        Arrays.sort(values);
        for (double q : QS) {
            double truth = exact(values, q);
            double est = h.quantile(q);
            double bound = truth < DurationHistogram.MIN_TRACKED_MS
                    ? DurationHistogram.MIN_TRACKED_MS
                    : DurationHistogram.RELATIVE_ERROR * truth * (1 + 1e-9);
            assertThat(Math.abs(est - truth))
                    .as("%s q=%s truth=%s est=%s", name, q, truth, est)
                    .isLessThanOrEqualTo(bound);
        }
        assertThat(h.count()).isEqualTo(n);
        assertThat(h.min()).isEqualTo(values[0]);
        assertThat(h.max()).isEqualTo(values[n - 1]);
        assertThat(h.quantile(1.0)).isEqualTo(values[n - 1]);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("distributions")
    void quantileBoundsContainTheExactQuantileAndSpanAtMostOneBucket(String name, long seed, int n) {
        Random r = new Random(seed + 100);
        DoubleSupplier src = source(name, r);
        double[] values = new double[n];
        DurationHistogram h = new DurationHistogram();
        for (int i = 0; i < n; i++) {
            values[i] = Math.max(0, src.getAsDouble());
            h.add(values[i]);
        }
        Arrays.sort(values);
        for (double q : QS) {
            double truth = exact(values, q);
            double[] b = h.quantileBounds(q);
            assertThat(b[0]).as("%s q=%s lower", name, q).isLessThanOrEqualTo(truth);
            assertThat(b[1]).as("%s q=%s upper", name, q).isGreaterThanOrEqualTo(truth);
            if (b[0] >= DurationHistogram.MIN_TRACKED_MS) {
                assertThat(b[1] / b[0]).isLessThanOrEqualTo(DurationHistogram.GAMMA * (1 + 1e-9));
            }
        }
    }

    @Test
    void mergingMinuteHistogramsEqualsOneHistogramOfAllValuesInAnyOrder() {
        Random r = new Random(7);
        DurationHistogram all = new DurationHistogram();
        DurationHistogram[] minutes = new DurationHistogram[10];
        for (int m = 0; m < minutes.length; m++) {
            minutes[m] = new DurationHistogram();
            double scale = 10 * (m + 1) * (m % 3 == 0 ? 100 : 1); // drifting ranges force the store to grow both ways
            for (int i = 0; i < 1000; i++) {
                double v = scale * Math.exp(r.nextGaussian());
                minutes[m].add(v);
                all.add(v);
            }
        }
        DurationHistogram forward = new DurationHistogram();
        for (DurationHistogram m : minutes) {
            forward.merge(m);
        }
        DurationHistogram backward = new DurationHistogram();
        for (int m = minutes.length - 1; m >= 0; m--) {
            backward.merge(minutes[m]);
        }
        assertThat(forward).isEqualTo(all);
        assertThat(backward).isEqualTo(all);
        for (double q : QS) {
            assertThat(forward.quantile(q)).isEqualTo(all.quantile(q));
        }
    }

    @Test
    void emptyHistogramHasNoQuantilesAndMergesAsIdentity() {
        DurationHistogram h = new DurationHistogram();
        assertThat(h.isEmpty()).isTrue();
        assertThat(h.p95()).isNaN();
        assertThat(h.min()).isNaN();
        h.add(12.5);
        DurationHistogram before = h.copy();
        h.merge(new DurationHistogram());
        assertThat(h).isEqualTo(before);
        assertThat(new DurationHistogram().merge(h)).isEqualTo(before);
    }

    @Test
    void identicalValuesAreReportedExactly() {
        DurationHistogram h = new DurationHistogram();
        h.add(2500, 40);
        assertThat(h.p50()).isEqualTo(2500);
        assertThat(h.p95()).isEqualTo(2500);
        assertThat(h.p99()).isEqualTo(2500);
    }

    @Test
    void snapshotRoundTripsThroughJsonAndRestoresTheSameHistogram() {
        DurationHistogram h = new DurationHistogram();
        Random r = new Random(3);
        for (int i = 0; i < 500; i++) {
            h.add(r.nextInt(5) == 0 ? 0 : Math.exp(r.nextGaussian() * 2));
        }
        var snap = h.snapshot();
        var read = Json.read(Json.bytes(snap), DurationHistogram.Snapshot.class);
        assertThat(read).isEqualTo(snap);
        DurationHistogram back = DurationHistogram.of(read);
        assertThat(back).isEqualTo(h);
        assertThat(back.p99()).isEqualTo(h.p99());
        assertThat(back.count()).isEqualTo(500);
    }

    @Test
    void badInputIsRefused() {
        DurationHistogram h = new DurationHistogram();
        assertThatThrownBy(() -> h.add(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> h.add(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> h.add(Double.POSITIVE_INFINITY)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> h.add(1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> h.quantile(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> h.quantile(1.5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DurationHistogram.of(
                        new DurationHistogram.Snapshot(0, 1, 2, new int[] {3, 2}, new long[] {1, 1})))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() ->
                        DurationHistogram.of(new DurationHistogram.Snapshot(0, 1, 2, new int[] {3}, new long[] {0})))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DurationHistogram.of(
                        new DurationHistogram.Snapshot(0, 1, 2, new int[] {-5, 5_000_000}, new long[] {1, 1})))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void bucketRepresentativeIsWithinAlphaOfBothBucketEdges() {
        for (int i = -300; i <= 1200; i += 37) {
            double lower = DurationHistogram.lowerEdge(i);
            double upper = DurationHistogram.lowerEdge(i + 1);
            double rep = DurationHistogram.representative(i);
            assertThat((rep - lower) / lower).isLessThanOrEqualTo(DurationHistogram.RELATIVE_ERROR * (1 + 1e-9));
            assertThat((upper - rep) / upper).isLessThanOrEqualTo(DurationHistogram.RELATIVE_ERROR * (1 + 1e-9));
        }
    }

    @Test
    void bucketEdgesAreExactInFloatingPoint() {
        // bucket i is [lowerEdge(i), lowerEdge(i + 1)) for every double, so the bounds rules compare are never off
        // by a rounding of the mapping's log and exp
        for (int i = DurationHistogram.MIN_INDEX; i <= DurationHistogram.MAX_INDEX; i += 7) {
            double edge = DurationHistogram.lowerEdge(i);
            assertThat(DurationHistogram.indexOf(edge))
                    .as("index of edge %s", i)
                    .isEqualTo(i);
            assertThat(DurationHistogram.indexOf(Math.nextDown(edge)))
                    .as("below edge %s", i)
                    .isEqualTo(i - 1);
        }
        Random r = new Random(5);
        for (int k = 0; k < 100_000; k++) {
            double v = DurationHistogram.MIN_TRACKED_MS * Math.exp(r.nextDouble() * 30);
            int i = DurationHistogram.indexOf(v);
            assertThat(DurationHistogram.lowerEdge(i)).isLessThanOrEqualTo(v);
            assertThat(DurationHistogram.lowerEdge(i + 1)).isGreaterThan(v);
        }
    }

    @Test
    void decisionsOnTheBoundsAreSoundWhenTheQuantileSitsOnABucketEdge() {
        // the library's buckets are closed below: a p95 exactly on an edge is its bucket's lower bound; whatever the
        // comparison, a breach decided on the bounds (lower for > and >=, upper for < and <=) holds for the exact p95
        Random r = new Random(9);
        for (int i = DurationHistogram.indexOf(1); i <= DurationHistogram.indexOf(60_000); i += 13) {
            double edge = DurationHistogram.lowerEdge(i);
            for (double exact : new double[] {edge, Math.nextDown(edge), Math.nextUp(edge)}) {
                DurationHistogram h = new DurationHistogram();
                h.add(exact * (0.5 + r.nextDouble() * 0.4), 90);
                h.add(exact, 8); // ranks 91..98: the p95 (rank 95 of 100) is exact
                h.add(exact * (1.1 + r.nextDouble()), 2);
                double[] b = h.quantileBounds(0.95);
                assertThat(b[0]).isLessThanOrEqualTo(exact);
                assertThat(b[1]).isGreaterThanOrEqualTo(exact);
                for (double t : new double[] {exact, Math.nextDown(exact), Math.nextUp(exact), b[0], b[1]}) {
                    if (b[0] > t) {
                        assertThat(exact).isGreaterThan(t);
                    }
                    if (b[0] >= t) {
                        assertThat(exact).isGreaterThanOrEqualTo(t);
                    }
                    if (b[1] < t) {
                        assertThat(exact).isLessThan(t);
                    }
                    if (b[1] <= t) {
                        assertThat(exact).isLessThanOrEqualTo(t);
                    }
                }
                // exactly met: a strict comparison never fires
                assertThat(b[0] > exact).isFalse();
                assertThat(b[1] < exact).isFalse();
            }
        }
    }

    /** The bucket numbering written before sketches-java: bucket i holds (γ^(i−1), γ^i]. */
    static int legacyIndex(double v) {
        return (int) Math.ceil(Math.log(v) / Math.log(DurationHistogram.GAMMA));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("distributions")
    void aSnapshotInTheOldNumberingReadsWithTheSameCountsAndQuantilesWithinTheBound(String name, long seed, int n) {
        Random r = new Random(seed + 200);
        DoubleSupplier src = source(name, r);
        double[] values = new double[n];
        java.util.TreeMap<Integer, Long> buckets = new java.util.TreeMap<>();
        long zero = 0;
        for (int i = 0; i < n; i++) {
            values[i] = Math.max(0, src.getAsDouble());
            if (values[i] < DurationHistogram.MIN_TRACKED_MS) {
                zero++;
            } else {
                buckets.merge(legacyIndex(values[i]), 1L, Long::sum);
            }
        }
        Arrays.sort(values);
        // as the previous release wrote it to JSON: no indexVersion
        String json = "{\"zeroCount\":" + zero + ",\"min\":" + values[0] + ",\"max\":" + values[n - 1] + ",\"indexes\":"
                + Json.string(buckets.keySet()) + ",\"counts\":" + Json.string(buckets.values()) + "}";
        DurationHistogram h = DurationHistogram.of(Json.read(json, DurationHistogram.Snapshot.class));
        assertThat(h.count()).isEqualTo(n);
        assertThat(h.min()).isEqualTo(values[0]);
        assertThat(h.max()).isEqualTo(values[n - 1]);
        for (double q : QS) {
            double truth = exact(values, q);
            double bound = truth < DurationHistogram.MIN_TRACKED_MS
                    ? DurationHistogram.MIN_TRACKED_MS
                    : DurationHistogram.RELATIVE_ERROR * truth * (1 + 1e-9);
            assertThat(Math.abs(h.quantile(q) - truth)).as("%s q=%s", name, q).isLessThanOrEqualTo(bound);
            double[] b = h.quantileBounds(q);
            assertThat(b[0]).isLessThanOrEqualTo(truth);
            assertThat(b[1]).isGreaterThanOrEqualTo(truth);
        }
        // written back in the library's numbering, it reads the same
        assertThat(h.snapshot().indexVersion()).isEqualTo(DurationHistogram.LIBRARY_INDEXES);
        assertThat(DurationHistogram.of(Json.read(Json.bytes(h.snapshot()), DurationHistogram.Snapshot.class)))
                .isEqualTo(h);
    }

    @Test
    void eachOldBucketMovesToTheLibraryBucketOfItsRepresentative() {
        for (int i = DurationHistogram.MIN_INDEX; i <= DurationHistogram.MAX_INDEX; i += 11) {
            // old bucket i is (γ^(i−1), γ^i], the library's i − 1 is [γ^(i−1), γ^i): the same values but the edges
            assertThat(DurationHistogram.fromLegacyIndex(i)).isEqualTo(i - 1);
            double oldRepresentative = Math.pow(DurationHistogram.GAMMA, i) / (DurationHistogram.GAMMA + 1) * 2;
            assertThat(DurationHistogram.representative(i - 1))
                    .isCloseTo(oldRepresentative, org.assertj.core.data.Percentage.withPercentage(1e-9));
        }
        assertThatThrownBy(() -> DurationHistogram.of(new DurationHistogram.Snapshot(
                        0, 1, 2, new int[] {3, 5_000_000}, new long[] {1, 1}, DurationHistogram.LEGACY_INDEXES)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() ->
                        DurationHistogram.of(new DurationHistogram.Snapshot(0, 1, 2, new int[] {3}, new long[] {1}, 7)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}

package dev.vigil.streams.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.schemas.contract.DomainMetric;
import dev.vigil.schemas.json.Json;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class MetricAggregateTest {
    static final long T0 = 1_767_225_600_000L;
    static final long MIN = 60_000L;

    static DomainMetric req(String status, Double durationMs, long ts) {
        return new DomainMetric(1, "shop", "http_request", status, "/cart", null, durationMs, null, ts);
    }

    @Test
    void addsCountSumErrorsAndDurationsWithinTheMinute() {
        DomainMetric first = req("503", 120.0, T0 + 5_000);
        MetricAggregate w = MetricAggregate.windowFor(first);
        assertThat(w.windowStart()).isEqualTo(T0);
        assertThat(w.statusClass()).isEqualTo("5xx");
        w.add(first).add(req("500", 80.0, T0 + 59_999)).add(req("502", null, T0));
        assertThat(w.count()).isEqualTo(3);
        assertThat(w.sum()).isEqualTo(3.0);
        assertThat(w.errorCount()).isEqualTo(3);
        assertThat(w.histogram().count()).isEqualTo(2);
        assertThat(w.key().storeKey()).isEqualTo("shop/http_request/5xx");
    }

    @Test
    void aMetricOfAnotherKeyOrMinuteIsRefused() {
        MetricAggregate w = MetricAggregate.windowFor(req("200", 1.0, T0));
        assertThatThrownBy(() -> w.add(req("200", 1.0, T0 + MIN))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> w.add(req("500", 1.0, T0))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void errorsAre5xxAndFailureWordsNot4xx() {
        assertThat(StatusClasses.isError("5xx")).isTrue();
        assertThat(StatusClasses.isError("failed")).isTrue();
        assertThat(StatusClasses.isError("Timeout")).isTrue();
        assertThat(StatusClasses.isError("4xx")).isFalse();
        assertThat(StatusClasses.isError("2xx")).isFalse();
        assertThat(StatusClasses.isError("archived")).isFalse();
        assertThat(StatusClasses.isError("none")).isFalse();
    }

    @Test
    void filtersSelectClassesValuesAndSpecificStatusesByClass() {
        assertThat(StatusClasses.selects(List.of(), "2xx")).isTrue();
        assertThat(StatusClasses.selects(List.of("5xx"), "5xx")).isTrue();
        assertThat(StatusClasses.selects(List.of("5xx"), "4xx")).isFalse();
        assertThat(StatusClasses.selects(List.of("503"), "5xx")).isTrue();
        assertThat(StatusClasses.selects(List.of("archived"), "ARCHIVED")).isTrue();
        assertThat(StatusClasses.selects(List.of("archived"), "failed")).isFalse();
    }

    @Test
    void minuteOfFloorsToTheMinute() {
        assertThat(MetricAggregate.minuteOf(T0 + 59_999)).isEqualTo(T0);
        assertThat(MetricAggregate.minuteOf(T0 + 60_000)).isEqualTo(T0 + MIN);
    }

    static List<MetricAggregate> randomWindows(long seed) {
        Random r = new Random(seed);
        List<MetricAggregate> out = new ArrayList<>();
        for (int m = 0; m < 5; m++) {
            for (String s : List.of("200", "404", "503")) {
                DomainMetric first = req(s, 10.0, T0 + m * MIN);
                MetricAggregate w = MetricAggregate.windowFor(first);
                int n = 1 + r.nextInt(200);
                for (int i = 0; i < n; i++) {
                    w.add(req(
                            s,
                            r.nextInt(10) == 0 ? null : Math.exp(3 + r.nextGaussian()),
                            T0 + m * MIN + r.nextInt(60_000)));
                }
                out.add(w);
            }
        }
        return out;
    }

    @Test
    void combineAddsExactlyAndLeavesInputsAlone() {
        List<MetricAggregate> ws = randomWindows(1);
        List<MetricAggregate> before = ws.stream().map(MetricAggregate::copy).toList();
        MetricAggregate c = MetricAggregate.combine("shop", "http_request", MetricAggregate.ALL_CLASSES, T0, ws);
        assertThat(c.count())
                .isEqualTo(ws.stream().mapToLong(MetricAggregate::count).sum());
        assertThat(c.errorCount())
                .isEqualTo(ws.stream()
                        .filter(w -> w.statusClass().equals("5xx"))
                        .mapToLong(MetricAggregate::count)
                        .sum());
        assertThat(c.histogram().count())
                .isEqualTo(ws.stream().mapToLong(w -> w.histogram().count()).sum());
        assertThat(ws).isEqualTo(before);
    }

    @Test
    void jsonRoundTripThroughTheSharedMapper() {
        for (MetricAggregate w : randomWindows(2)) {
            MetricAggregate back = Json.read(Json.bytes(w), MetricAggregate.class);
            assertThat(back).isEqualTo(w);
            assertThat(back.histogram().p95()).isEqualTo(w.histogram().p95());
        }
    }

    @Test
    void binarySerdeRoundTripsAndIsMuchSmallerThanJson() {
        MetricAggregateSerde serde = new MetricAggregateSerde();
        for (MetricAggregate w : randomWindows(3)) {
            byte[] bytes = serde.serialize("t", w);
            assertThat(serde.deserialize("t", bytes)).isEqualTo(w);
            assertThat(bytes.length).isLessThan(Json.bytes(w).length);
        }
        MetricAggregate empty = new MetricAggregate("a", "m", "none", 0);
        assertThat(serde.deserialize("t", serde.serialize("t", empty))).isEqualTo(empty);
        assertThat(serde.serialize("t", null)).isNull();
        assertThat(serde.deserialize("t", null)).isNull();
    }

    @Test
    void malformedBinaryIsASerializationException() {
        MetricAggregateSerde serde = new MetricAggregateSerde();
        byte[] good = serde.serialize("t", randomWindows(4).get(0));
        assertThatThrownBy(() -> serde.deserialize("t", new byte[] {9})).isInstanceOf(SerializationException.class);
        assertThatThrownBy(() -> serde.deserialize("t", Arrays.copyOf(good, good.length - 3)))
                .isInstanceOf(SerializationException.class);
        assertThatThrownBy(() -> serde.deserialize("t", Arrays.copyOf(good, good.length + 1)))
                .isInstanceOf(SerializationException.class);
        assertThatThrownBy(() -> serde.deserialize("t", new byte[0])).isInstanceOf(SerializationException.class);
    }

    @Test
    void metricKeyParsesBack() {
        MetricKey k = new MetricKey("shop", "http_request", "5xx");
        assertThat(MetricKey.parse(k.storeKey())).isEqualTo(k);
        assertThat(k.storeKey()).startsWith(MetricKey.seriesPrefix("shop", "http_request"));
        assertThatThrownBy(() -> MetricKey.parse("nope")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void seriesCombinesClassesPerStepAndRefusesUnboundedRanges() {
        List<MetricAggregate> ws = randomWindows(5);
        var points = MetricSeries.points("shop", "http_request", ws, T0, T0 + 5 * MIN, 2 * MIN);
        assertThat(points).extracting(MetricSeries.Point::windowStart).containsExactly(T0, T0 + 2 * MIN, T0 + 4 * MIN);
        long total = points.stream().mapToLong(MetricSeries.Point::count).sum();
        assertThat(total)
                .isEqualTo(ws.stream().mapToLong(MetricAggregate::count).sum());
        assertThat(points.get(0).p95()).isNotNull();
        assertThat(MetricSeries.points("shop", "http_request", ws, T0 + MIN, T0 + 2 * MIN, MIN))
                .hasSize(1);
        assertThatThrownBy(() -> MetricSeries.points("shop", "http_request", ws, T0, T0 + 32L * 24 * 3600 * 1000, MIN))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("31 days");
        assertThatThrownBy(() -> MetricSeries.points("shop", "http_request", ws, T0, T0, MIN))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MetricSeries.points("shop", "http_request", ws, T0, T0 + MIN, 1000))
                .isInstanceOf(IllegalArgumentException.class);
    }

    // ---- values written by the previous release (hand-written mapping: bucket i holds (γ^(i−1), γ^i]) ----------

    /** Durations of the window below, sorted; plus one request without a duration. */
    static final double[] V1_DURATIONS = {
        0.0, 0.004, 0.01, 1.0, 2.5, 12.0, 120.0, 120.0, 250.0, 2500.0, 2500.0, 2500.0, 9000.0, 3_600_000.0
    };
    /** Quantiles the previous release computed for them. */
    static final double[] V1_QS = {0.05, 0.1, 0.25, 0.5, 0.6, 0.75, 0.9, 0.95, 0.99, 1.0};

    static final double[] V1_ESTIMATES = {
        0.0,
        0.0,
        0.99,
        120.31456328864435,
        252.17778678947937,
        2515.46011261016,
        9047.589814524677,
        3_600_000.0,
        3_600_000.0,
        3_600_000.0
    };

    /** That window (shop/http_request/5xx at T0) as the previous release's serde wrote it: format version 1. */
    static final byte[] V1_BYTES = {
        1, 4, 115, 104, 111, 112, 12, 104, 116, 116, 112, 95, 114, 101, 113, 117, 101, 115, 116, 3, 53, 120, 120, 0, 0,
        1, -101, 118, -38, -88, 0, 15, 15, 64, 46, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 65, 75, 119, 64, 0, 0,
        0, 0, 9, -53, 3, 1, -52, 3, 1, 92, 1, -98, 1, 1, -26, 1, 2, 74, 1, -26, 1, 3, -128, 1, 1, -42, 4, 1
    };

    /** The same window as the previous release wrote it to JSON (no indexVersion). */
    static final String V1_JSON = "{\"appId\":\"shop\",\"metricName\":\"http_request\",\"statusClass\":\"5xx\","
            + "\"windowStart\":1767225600000,\"count\":15,\"sum\":15.0,\"errorCount\":15,\"durations\":{\"zeroCount\":2,"
            + "\"min\":0.0,\"max\":3600000.0,\"indexes\":[-230,0,46,125,240,277,392,456,755],"
            + "\"counts\":[1,1,1,1,2,1,3,1,1]}}";

    static void assertIsTheV1Window(MetricAggregate w) {
        assertThat(w.key().storeKey()).isEqualTo("shop/http_request/5xx");
        assertThat(w.windowStart()).isEqualTo(T0);
        assertThat(w.count()).isEqualTo(15);
        assertThat(w.errorCount()).isEqualTo(15);
        assertThat(w.sum()).isEqualTo(15.0);
        DurationHistogram h = w.histogram();
        assertThat(h.count()).isEqualTo(V1_DURATIONS.length);
        assertThat(h.min()).isEqualTo(0.0);
        assertThat(h.max()).isEqualTo(3_600_000.0);
        for (int k = 0; k < V1_QS.length; k++) {
            double q = V1_QS[k];
            double truth = DurationHistogramTest.exact(V1_DURATIONS, q);
            double est = h.quantile(q);
            assertThat(Math.abs(est - truth))
                    .as("q=%s", q)
                    .isLessThanOrEqualTo(Math.max(
                            DurationHistogram.MIN_TRACKED_MS, DurationHistogram.RELATIVE_ERROR * truth * (1 + 1e-9)));
            // each old bucket lands in the library bucket with the same representative: the estimates do not move
            assertThat(est).as("q=%s", q).isCloseTo(V1_ESTIMATES[k], org.assertj.core.data.Offset.offset(1e-9 * truth));
            double[] b = h.quantileBounds(q);
            assertThat(b[0]).isLessThanOrEqualTo(truth);
            assertThat(b[1]).isGreaterThanOrEqualTo(truth);
        }
    }

    @Test
    void aVersion1ValueOfThePreviousReleaseReadsWithTheSameCountsMinMaxAndQuantiles() {
        MetricAggregateSerde serde = new MetricAggregateSerde();
        MetricAggregate old = serde.deserialize("t", V1_BYTES);
        assertIsTheV1Window(old);
        // written again as version 2, it reads back the same
        byte[] v2 = serde.serialize("t", old);
        assertThat(v2[0]).isEqualTo(MetricAggregateSerde.VERSION).isEqualTo((byte) 2);
        assertThat(serde.deserialize("t", v2)).isEqualTo(old);
    }

    @Test
    void theJsonOfThePreviousReleaseReadsWithTheSameCountsMinMaxAndQuantiles() {
        MetricAggregate old = Json.read(V1_JSON, MetricAggregate.class);
        assertIsTheV1Window(old);
        assertThat(old).isEqualTo(new MetricAggregateSerde().deserialize("t", V1_BYTES));
        MetricAggregate back = Json.read(Json.bytes(old), MetricAggregate.class);
        assertThat(back).isEqualTo(old);
        assertThat(Json.string(old)).contains("\"indexVersion\":2");
    }

    @Test
    void aVersion1ValueWithBucketsOutsideTheRangeOfDurationsIsASerializationException() {
        // the last bucket (index delta 299, count 1: three bytes) replaced by one 4,000,000 buckets further up
        byte[] tooHigh = Arrays.copyOf(V1_BYTES, V1_BYTES.length + 2);
        int pos = V1_BYTES.length - 3;
        for (long z = 8_000_000; ; z >>>= 7) {
            if (z < 0x80) {
                tooHigh[pos++] = (byte) z;
                break;
            }
            tooHigh[pos++] = (byte) ((z & 0x7F) | 0x80);
        }
        tooHigh[pos++] = 1;
        assertThat(pos).isEqualTo(tooHigh.length);
        assertThatThrownBy(() -> new MetricAggregateSerde().deserialize("t", tooHigh))
                .isInstanceOf(SerializationException.class);
        byte[] unknown = Arrays.copyOf(V1_BYTES, V1_BYTES.length);
        unknown[0] = 3;
        assertThatThrownBy(() -> new MetricAggregateSerde().deserialize("t", unknown))
                .isInstanceOf(SerializationException.class);
    }
}

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
                    w.add(req(s, r.nextInt(10) == 0 ? null : Math.exp(3 + r.nextGaussian()), T0 + m * MIN + r.nextInt(60_000)));
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
        assertThat(c.count()).isEqualTo(ws.stream().mapToLong(MetricAggregate::count).sum());
        assertThat(c.errorCount()).isEqualTo(ws.stream().filter(w -> w.statusClass().equals("5xx"))
                .mapToLong(MetricAggregate::count).sum());
        assertThat(c.histogram().count()).isEqualTo(ws.stream().mapToLong(w -> w.histogram().count()).sum());
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
        assertThat(total).isEqualTo(ws.stream().mapToLong(MetricAggregate::count).sum());
        assertThat(points.get(0).p95()).isNotNull();
        assertThat(MetricSeries.points("shop", "http_request", ws, T0 + MIN, T0 + 2 * MIN, MIN)).hasSize(1);
        assertThatThrownBy(() -> MetricSeries.points("shop", "http_request", ws, T0, T0 + 32L * 24 * 3600 * 1000, MIN))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("31 days");
        assertThatThrownBy(() -> MetricSeries.points("shop", "http_request", ws, T0, T0, MIN))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MetricSeries.points("shop", "http_request", ws, T0, T0 + MIN, 1000))
                .isInstanceOf(IllegalArgumentException.class);
    }
}

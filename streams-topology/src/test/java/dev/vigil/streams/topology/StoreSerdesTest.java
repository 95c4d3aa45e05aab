package dev.vigil.streams.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.schemas.contract.ErrorKind;
import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.schemas.contract.MonitorStatus.RegionResult;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.Status;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.json.VigilSerdes;
import dev.vigil.streams.rules.MonitorRuleState;
import dev.vigil.streams.rules.MonitorRuleStateSerde;
import dev.vigil.streams.uptime.DailyUptime;
import dev.vigil.streams.uptime.DailyUptimeSerde;
import dev.vigil.streams.verdict.PendingWindow;
import dev.vigil.streams.verdict.PendingWindowSerde;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class StoreSerdesTest {

    @Test
    void pendingWindowRoundTripsEveryFieldIncludingAbsentOnes() {
        var serde = new PendingWindowSerde();
        var w = new PendingWindow(
                "shop",
                1_800_000_000_000L,
                Map.of(
                        "eu-west", new RegionResult(Outcome.SUCCESS, null, 200, 42),
                        "us-east", new RegionResult(Outcome.NETWORK_FAILURE, ErrorKind.CONNECT_TIMEOUT, null, null),
                        "ap-south", new RegionResult(Outcome.ASSERTION_FAILURE, null, 200, 0)));
        assertThat(serde.deserialize("t", serde.serialize("t", w))).isEqualTo(w);
        var empty = PendingWindow.empty("shop", 0);
        assertThat(serde.deserialize("t", serde.serialize("t", empty))).isEqualTo(empty);
        assertThat(serde.serialize("t", null)).isNull();
        assertThatThrownBy(() -> serde.deserialize("t", new byte[] {9, 0})).isInstanceOf(SerializationException.class);
    }

    @Test
    void pendingWindowAsciiFormIsTheStreamFormByteForByte() throws Exception {
        var serde = new PendingWindowSerde();
        var w = new PendingWindow(
                "shop-eu",
                1_800_000_000_000L,
                Map.of(
                        "eu-west", new RegionResult(Outcome.SUCCESS, null, 200, 42),
                        "us-east", new RegionResult(Outcome.NETWORK_FAILURE, ErrorKind.CONNECT_TIMEOUT, null, null)));
        assertThat(serde.serialize("t", w)).isEqualTo(streamForm(w, 2));
        // names outside the ASCII fast path take the stream path and still round-trip
        var odd = new PendingWindow(
                "caf\u00e9", 60_000L, Map.of("r\u0000", new RegionResult(Outcome.SUCCESS, null, 200, 1)));
        assertThat(serde.serialize("t", odd)).isEqualTo(streamForm(odd, 2));
        assertThat(serde.deserialize("t", serde.serialize("t", odd))).isEqualTo(odd);
    }

    @Test
    void pendingWindowCarriesPhaseTimingsAndStillReadsVersionOne() throws Exception {
        var serde = new PendingWindowSerde();
        var timed = new PendingWindow(
                "shop",
                1_800_000_000_000L,
                Map.of(
                        "eu-west", new RegionResult(Outcome.SUCCESS, null, 200, 42, 3, 7, 12),
                        "us-east",
                                new RegionResult(
                                        Outcome.NETWORK_FAILURE, ErrorKind.DNS, null, null, 5000, null, null)));
        assertThat(serde.deserialize("t", serde.serialize("t", timed))).isEqualTo(timed);
        // a pending window written before the phase timings were carried (a changelog from the previous release)
        var old = new PendingWindow(
                "shop", 1_800_000_000_000L, Map.of("eu-west", new RegionResult(Outcome.SUCCESS, null, 200, 42)));
        assertThat(serde.deserialize("t", streamForm(old, 1))).isEqualTo(old);
    }

    @Test
    void pendingWindowCarriesItsSkipsAndAWindowWithoutOneKeepsTheVersionTwoBytes() throws Exception {
        var serde = new PendingWindowSerde();
        var results = Map.of("eu-west", new RegionResult(Outcome.SUCCESS, null, 200, 42));
        var skipping = new PendingWindow(
                "shop",
                1_800_000_000_000L,
                results,
                Map.of(
                        "us-east",
                        dev.vigil.schemas.contract.SkipReason.OVERLOADED,
                        "ap-south",
                        dev.vigil.schemas.contract.SkipReason.SHUTTING_DOWN));
        byte[] bytes = serde.serialize("t", skipping);
        assertThat(bytes[0]).as("the version with skips").isEqualTo((byte) 3);
        assertThat(serde.deserialize("t", bytes)).isEqualTo(skipping);
        // a real result replaces the skip; the window then has none and is written as before
        var replaced = skipping.with("us-east", new RegionResult(Outcome.SUCCESS, null, 200, 40))
                .with("ap-south", new RegionResult(Outcome.SUCCESS, null, 200, 41));
        assertThat(replaced.skipped()).isEmpty();
        assertThat(serde.serialize("t", replaced)).isEqualTo(streamForm(replaced, 2));
    }

    /** Version 1 or 2 as written with DataOutputStream (the format's definition). */
    private static byte[] streamForm(PendingWindow w, int version) throws java.io.IOException {
        var bytes = new java.io.ByteArrayOutputStream();
        try (var out = new java.io.DataOutputStream(bytes)) {
            out.writeByte(version);
            out.writeUTF(w.monitorId());
            out.writeLong(w.windowStart());
            out.writeShort(w.results().size());
            for (var e : w.results().entrySet()) {
                out.writeUTF(e.getKey());
                out.writeByte(e.getValue().outcome().ordinal());
                out.writeByte(
                        e.getValue().errorKind() == null
                                ? -1
                                : e.getValue().errorKind().ordinal());
                out.writeInt(
                        e.getValue().httpStatus() == null ? -1 : e.getValue().httpStatus());
                out.writeInt(
                        e.getValue().responseMs() == null ? -1 : e.getValue().responseMs());
                if (version >= 2) {
                    out.writeInt(
                            e.getValue().dnsMs() == null ? -1 : e.getValue().dnsMs());
                    out.writeInt(
                            e.getValue().connectMs() == null ? -1 : e.getValue().connectMs());
                    out.writeInt(
                            e.getValue().tlsMs() == null ? -1 : e.getValue().tlsMs());
                }
            }
        }
        return bytes.toByteArray();
    }

    @Test
    void dailyUptimeRoundTrips() {
        var serde = new DailyUptimeSerde();
        var d = new DailyUptime(20_833, 1000, 20, 3, 7);
        assertThat(serde.deserialize("t", serde.serialize("t", d))).isEqualTo(d);
        assertThatThrownBy(() -> serde.deserialize("t", new byte[3])).isInstanceOf(SerializationException.class);
    }

    @Test
    void dailyUptimeWithMaintenanceRoundTripsAndWithoutKeepsTheFortyByteForm() {
        var serde = new DailyUptimeSerde();
        var d = new DailyUptime(20_836, 1000, 20, 3, 7, 50, 2, 3, 1);
        assertThat(serde.deserialize("t", serde.serialize("t", d))).isEqualTo(d);
        assertThat(serde.serialize("t", d)).hasSize(72);
        assertThat(serde.serialize("t", new DailyUptime(20_836, 1000, 20, 3, 7)))
                .hasSize(40);
        assertThatThrownBy(() -> serde.deserialize("t", new byte[48])).isInstanceOf(SerializationException.class);
        // a maintenance count above its status's count is not a value this serde wrote
        byte[] corrupt = java.nio.ByteBuffer.allocate(72)
                .putLong(20_836)
                .putLong(1)
                .putLong(0)
                .putLong(0)
                .putLong(0)
                .putLong(2)
                .putLong(0)
                .putLong(0)
                .putLong(0)
                .array();
        assertThatThrownBy(() -> serde.deserialize("t", corrupt)).isInstanceOf(SerializationException.class);
    }

    @Test
    void dailyUptimeReadsValuesWrittenBeforeMaintenanceWasCountedAsDaysWithoutMaintenance() {
        // the store's values as the previous version wrote them: five big-endian longs, epochDay 20833, up 1000,
        // degraded 20, down 3, unknown 7
        byte[] previous = java.util.HexFormat.of()
                .parseHex("0000000000005161" + "00000000000003e8" + "0000000000000014" + "0000000000000003"
                        + "0000000000000007");
        DailyUptime d = new DailyUptimeSerde().deserialize("t", previous);
        assertThat(d).isEqualTo(new DailyUptime(20_833, 1000, 20, 3, 7, 0, 0, 0, 0));
        assertThat(d.maintenance()).isZero();
        assertThat(d.uptimeExcludingMaintenancePercent()).isEqualTo(d.uptimePercent());
        // and a day without maintenance is written exactly as before, so a rolled-back version still reads it
        assertThat(new DailyUptimeSerde().serialize("t", d)).isEqualTo(previous);
    }

    @Test
    void monitorRuleStateRoundTripsEveryFlagCombinationAndStillReadsTheJsonItReplaced() {
        var serde = new MonitorRuleStateSerde();
        for (boolean breach : new boolean[] {false, true}) {
            for (boolean healthy : new boolean[] {false, true}) {
                var s = new MonitorRuleState(1_800_000_060_000L, 3, Integer.MAX_VALUE, -1, breach, healthy);
                assertThat(serde.deserialize("t", serde.serialize("t", s))).isEqualTo(s);
                // a changelog written by an earlier version holds JSON
                assertThat(serde.deserialize("t", Json.bytes(s))).isEqualTo(s);
            }
        }
        assertThat(serde.deserialize("t", serde.serialize("t", MonitorRuleState.INITIAL)))
                .isEqualTo(MonitorRuleState.INITIAL);
        assertThat(serde.serialize("t", null)).isNull();
        assertThat(serde.deserialize("t", null)).isNull();
        byte[] good = serde.serialize("t", MonitorRuleState.INITIAL);
        byte[] otherVersion = good.clone();
        otherVersion[0] = 2;
        assertThatThrownBy(() -> serde.deserialize("t", otherVersion))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("version 2");
        assertThatThrownBy(() -> serde.deserialize("t", new byte[] {1, 0}))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("2 bytes");
        byte[] negative = serde.serialize("t", new MonitorRuleState(5, 1, 0, -1, false, false));
        negative[9] = (byte) 0xFF; // consecutiveDegraded's high byte: a negative count
        assertThatThrownBy(() -> serde.deserialize("t", negative))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("negative");
    }

    @Test
    void lastValueSerdeReusesBytesOnlyForTheSameObject() {
        var serde = new LastValueSerde<>(VigilSerdes.monitorStatus());
        var a = new MonitorStatus(
                1,
                "shop",
                60_000L,
                Status.UP,
                true,
                Map.of("eu-west", new RegionResult(Outcome.SUCCESS, null, 200, 1)),
                List.of(),
                1L);
        var b = new MonitorStatus(1, "shop", 120_000L, Status.UNKNOWN, false, Map.of(), List.of("eu-west"), 2L);
        byte[] first = serde.serialize("t", a);
        assertThat(serde.serialize("t", a)).isSameAs(first);
        byte[] other = serde.serialize("t", b);
        assertThat(serde.deserializer().deserialize("t", other)).isEqualTo(b);
        assertThat(serde.deserializer().deserialize("t", serde.serialize("t", a)))
                .isEqualTo(a);
    }
}

package dev.vigil.schemas.json;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.ErrorKind;
import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.schemas.contract.MonitorStatus.RegionResult;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.SkipReason;
import dev.vigil.schemas.contract.Status;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MonitorStatusWriterTest {
    private static final String[] REGIONS = {"eu-west", "us-east", "ap-south", "sa-east", "af-south", "a", "z9", "m-1"};

    @Test
    void writesTheMappersBytesForEveryShapeOfVerdict() {
        Random random = new Random(20261201);
        for (int i = 0; i < 20_000; i++) {
            MonitorStatus s = randomStatus(random);
            byte[] expected = Json.bytes(s);
            assertThat(MonitorStatusWriter.write(s))
                    .as("case %d: %s", i, new String(expected))
                    .isEqualTo(expected);
            assertThat(VigilSerdes.monitorStatus().serialize("t", s)).isEqualTo(expected);
            assertThat(VigilSerdes.monitorStatus().deserialize("t", expected)).isEqualTo(s);
        }
    }

    @Test
    void escapesTextAsTheMapperDoes() {
        // missing region names are only length-checked by the record: quotes, control characters, non-ASCII
        var s = new MonitorStatus(
                1,
                "shop",
                60_000L,
                Status.UNKNOWN,
                false,
                Map.of(),
                List.of("q\"uote", "back\\slash", "tab\tnew\nline", "\u0001", "é", "\u2028", "😀"),
                1L);
        assertThat(MonitorStatusWriter.write(s)).isEqualTo(Json.bytes(s));
    }

    private static MonitorStatus randomStatus(Random random) {
        Map<String, RegionResult> regions = new HashMap<>();
        List<String> missing = new ArrayList<>();
        for (String region : REGIONS) {
            switch (random.nextInt(4)) {
                case 0 -> regions.put(region, randomResult(random));
                case 1 -> missing.add(region);
                default -> {}
            }
        }
        Status status = regions.isEmpty()
                ? Status.UNKNOWN
                : Status.values()[random.nextInt(3)]; // up, degraded or down when a region reported
        boolean complete = missing.isEmpty() && random.nextBoolean();
        long windowStart = random.nextBoolean() ? random.nextLong(Long.MAX_VALUE) : 60_000L * random.nextInt(1 << 20);
        Map<String, SkipReason> skipped = new HashMap<>();
        for (String region : missing) {
            if (random.nextBoolean()) {
                skipped.put(region, SkipReason.values()[random.nextInt(SkipReason.values().length)]);
            }
        }
        return new MonitorStatus(
                1,
                "m" + random.nextInt(100_000),
                windowStart,
                status,
                complete,
                regions,
                missing,
                random.nextLong(Long.MAX_VALUE),
                skipped);
    }

    private static RegionResult randomResult(Random random) {
        Outcome outcome = Outcome.values()[random.nextInt(Outcome.SKIPPED.ordinal())]; // a skip is a missing region
        ErrorKind kind = outcome == Outcome.NETWORK_FAILURE || random.nextInt(5) == 0
                ? ErrorKind.values()[random.nextInt(ErrorKind.values().length)]
                : null;
        Integer http = random.nextBoolean() ? 100 + random.nextInt(500) : null;
        Integer ms = random.nextBoolean() ? random.nextInt(Integer.MAX_VALUE) : null;
        return new RegionResult(outcome, kind, http, ms, phase(random), phase(random), phase(random));
    }

    private static Integer phase(Random random) {
        return random.nextInt(3) == 0 ? random.nextInt(Integer.MAX_VALUE) : null;
    }
}

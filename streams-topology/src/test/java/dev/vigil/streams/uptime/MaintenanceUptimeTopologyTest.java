package dev.vigil.streams.uptime;

import static dev.vigil.streams.Fixtures.failure;
import static dev.vigil.streams.Fixtures.success;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.json.JsonSerde;
import dev.vigil.schemas.json.VigilSerdes;
import dev.vigil.schemas.silence.Schedule;
import dev.vigil.schemas.silence.Silence;
import dev.vigil.streams.config.AlertingConfig;
import dev.vigil.streams.config.TopologyConfig;
import dev.vigil.streams.deadletter.DeadLetterHandler;
import dev.vigil.streams.topology.StoreNames;
import dev.vigil.streams.topology.VigilTopology;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.function.LongPredicate;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Maintenance windows in the daily uptime rollup, over the whole topology (TopologyTestDriver, as
 * ScheduledSilenceTopologyTest builds it): one-minute windows of monitor {@code api} in one region, down where the
 * test says, up elsewhere; the weekly window is Mondays 02:00 for an hour in Paris, which is 01:00Z in winter and
 * 00:00Z in summer. Results are piped ahead of the wall clock, which never moves, so no window is decided by a
 * deadline and every verdict is the result's.
 */
class MaintenanceUptimeTopologyTest {
    static final long MIN = 60_000L;
    static final long HOUR = 60 * MIN;
    static final long DAY = 24 * HOUR;
    /** Monday 2027-01-18 00:00Z (01:00 in Paris). */
    static final long MONDAY = LocalDate.parse("2027-01-18").toEpochDay() * DAY;

    static final Schedule MONDAYS_2AM_PARIS = new Schedule(List.of("mon"), "02:00", 60, "Europe/Paris");

    private final TopologyConfig config = TopologyConfig.defaults();
    private final AlertingConfig alerting = AlertingConfig.defaults();
    private Path stateDir;
    private TopologyTestDriver driver;
    private TestInputTopic<String, MonitorDefinition> monitors;
    private TestInputTopic<String, ProbeResult> results;
    private TestInputTopic<String, Silence> silences;
    private TestOutputTopic<String, AlertEvent> alerts;

    private void start(long wallClockMs) throws Exception {
        stateDir = Files.createTempDirectory("vigil-maintenance-uptime-ttd");
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "vigil-maintenance-uptime-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterHandler.class);
        props.put(DeadLetterHandler.TOPIC_CONFIG, config.topics().deadLetter());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Topology topology = VigilTopology.build(config, alerting, registry);
        driver = new TopologyTestDriver(topology, props, Instant.ofEpochMilli(wallClockMs));
        monitors = driver.createInputTopic(
                config.topics().monitors(), new StringSerializer(), VigilSerdes.monitorDefinition());
        results = driver.createInputTopic(
                config.topics().probeResults(), new StringSerializer(), VigilSerdes.probeResult());
        silences = driver.createInputTopic(
                config.topics().silences(), new StringSerializer(), new JsonSerde<>(Silence.class));
        alerts = driver.createOutputTopic(config.topics().alerts(), new StringDeserializer(), VigilSerdes.alertEvent());
    }

    @AfterEach
    void stop() {
        if (driver != null) {
            driver.close();
            driver = null;
        }
        if (stateDir != null) {
            try (var files = Files.walk(stateDir)) {
                files.sorted(java.util.Comparator.reverseOrder())
                        .forEach(p -> p.toFile().delete());
            } catch (java.io.IOException ignored) {
                // temp dir
            }
        }
    }

    private static MonitorDefinition monitor(String id, String service, String component) {
        return new MonitorDefinition(
                1,
                id,
                null,
                "https://example.com/" + id,
                null,
                60,
                2500,
                List.of("eu-west"),
                null,
                null,
                null,
                service,
                component,
                null,
                null);
    }

    /** A weekly series bounded by the whole of 2027 (at most 366 days). */
    private static Silence weekly(
            String id, String fingerprint, String service, Map<String, String> attributes, Schedule schedule) {
        long from = LocalDate.parse("2027-01-01").toEpochDay() * DAY;
        return new Silence(
                1,
                id,
                fingerprint,
                service,
                attributes,
                from,
                from + 365 * DAY,
                "ops",
                "planned: " + id,
                from - DAY,
                null,
                schedule);
    }

    private void define(MonitorDefinition def) {
        monitors.pipeInput(def.id(), def);
    }

    private void silence(Silence s) {
        silences.pipeInput(s.id(), s);
    }

    /** One window a minute for {@code monitorId} over {@code [from, to)}: down where {@code down} says, up elsewhere. */
    private void windows(String monitorId, long from, long to, LongPredicate down) {
        for (long w = from; w < to; w += MIN) {
            ProbeResult r = down.test(w) ? failure(monitorId, "eu-west", w) : success(monitorId, "eu-west", w);
            results.pipeInput(r.monitorId(), r, r.startedAt());
        }
    }

    private static LongPredicate between(long from, long to) {
        return w -> w >= from && w < to;
    }

    private DailyUptime day(String monitorId, long dayStart) {
        KeyValueStore<String, DailyUptime> store = driver.getKeyValueStore(StoreNames.UPTIME_STORE);
        return store.get(UptimeProcessor.key(monitorId, Math.floorDiv(dayStart, DAY)));
    }

    private Map<String, DailyUptime> allDays() {
        KeyValueStore<String, DailyUptime> store = driver.getKeyValueStore(StoreNames.UPTIME_STORE);
        Map<String, DailyUptime> out = new TreeMap<>();
        try (var it = store.all()) {
            it.forEachRemaining(kv -> out.put(kv.key, kv.value));
        }
        return out;
    }

    private static DailyUptime counts(long dayStart, long up, long down, long maintenanceUp, long maintenanceDown) {
        return new DailyUptime(Math.floorDiv(dayStart, DAY), up, 0, down, 0, maintenanceUp, 0, maintenanceDown, 0);
    }

    @Test
    void windowsInsideTheWeeklyOccurrenceAreCountedAsMaintenanceAndExcludedFromTheSecondFigure() throws Exception {
        start(MONDAY - 30_000);
        define(monitor("api", null, null));
        silence(weekly("maint", "monitor/api", null, null, MONDAYS_2AM_PARIS));
        // 00:00Z to 03:00Z, down during the occurrence (02:00 to 03:00 in Paris, 01:00Z to 02:00Z in January)
        windows("api", MONDAY, MONDAY + 3 * HOUR, between(MONDAY + HOUR, MONDAY + 2 * HOUR));

        DailyUptime d = day("api", MONDAY);
        assertThat(d).isEqualTo(counts(MONDAY, 120, 60, 0, 60));
        assertThat(d.maintenance()).isEqualTo(60);
        assertThat(d.uptimePercent()).isCloseTo(100.0 * 120 / 180, within(1e-9));
        assertThat(d.uptimeExcludingMaintenancePercent()).isEqualTo(100.0);
        // the same occurrence muted the page: the outage opened silenced
        assertThat(alerts.readValuesToList().get(0).silenced()).isTrue();
    }

    @Test
    void aWindowThatStartsOrEndsWithTheOccurrenceCountsByItsStart() throws Exception {
        start(MONDAY - 30_000);
        define(monitor("api", null, null));
        silence(weekly("maint", "monitor/api", null, null, MONDAYS_2AM_PARIS));
        windows("api", MONDAY + HOUR - MIN, MONDAY + 2 * HOUR + MIN, w -> true);

        // 00:59Z starts before the occurrence, 01:00Z at its start, 01:59Z inside, 02:00Z at its (exclusive) end
        assertThat(day("api", MONDAY)).isEqualTo(counts(MONDAY, 0, 62, 0, 60));
    }

    @Test
    void aOneOffSilenceIsNotMaintenanceEvenThoughItMutesThePage() throws Exception {
        long tuesday = MONDAY + DAY;
        start(tuesday - 30_000);
        define(monitor("api", null, null));
        silence(weekly("maint", "monitor/api", null, null, MONDAYS_2AM_PARIS));
        silence(new Silence(
                1,
                "noise",
                "monitor/api",
                null,
                null,
                tuesday + HOUR,
                tuesday + 2 * HOUR,
                "oncall",
                "stop the noise while we look",
                tuesday));
        windows("api", tuesday, tuesday + 3 * HOUR, between(tuesday + HOUR, tuesday + 2 * HOUR));

        DailyUptime d = day("api", tuesday);
        assertThat(d).isEqualTo(counts(tuesday, 120, 60, 0, 0));
        assertThat(d.uptimeExcludingMaintenancePercent()).isEqualTo(d.uptimePercent());
        assertThat(alerts.readValuesToList()).extracting(AlertEvent::silenced).contains(true);
    }

    @Test
    void aWindowForAnotherMonitorDoesNotCount() throws Exception {
        start(MONDAY - 30_000);
        define(monitor("api", null, null));
        define(monitor("web", null, null));
        silence(weekly("web-maint", "monitor/web", null, null, MONDAYS_2AM_PARIS));
        LongPredicate outage = between(MONDAY + HOUR, MONDAY + 2 * HOUR);
        windows("api", MONDAY, MONDAY + 3 * HOUR, outage);
        windows("web", MONDAY, MONDAY + 3 * HOUR, outage);

        assertThat(day("api", MONDAY)).isEqualTo(counts(MONDAY, 120, 60, 0, 0));
        assertThat(day("web", MONDAY)).isEqualTo(counts(MONDAY, 120, 60, 0, 60));
    }

    @Test
    void serviceAndAttributeMatchersAreJudgedOnWhatTheAvailabilityAlertCarries() throws Exception {
        start(MONDAY - 30_000);
        define(monitor("api", "payments", "db"));
        define(monitor("cache", "payments", "cache"));
        define(monitor("blog", "content", "db"));
        // no fingerprint: the service and the component attribute decide
        silence(weekly("db-maint", null, "payments", Map.of("component", "db"), MONDAYS_2AM_PARIS));
        // only down windows of monitors matching monitor/blog*: "status" is an attribute of each window
        silence(weekly("blog-down", "monitor/blog*", null, Map.of("status", "down"), MONDAYS_2AM_PARIS));
        for (String id : List.of("api", "cache", "blog")) {
            // inside the occurrence: 30 minutes down, then 30 up
            windows(id, MONDAY, MONDAY + 3 * HOUR, between(MONDAY + HOUR, MONDAY + HOUR + 30 * MIN));
        }

        assertThat(day("api", MONDAY)).isEqualTo(counts(MONDAY, 150, 30, 30, 30));
        assertThat(day("cache", MONDAY)).isEqualTo(counts(MONDAY, 150, 30, 0, 0));
        assertThat(day("blog", MONDAY)).isEqualTo(counts(MONDAY, 150, 30, 0, 30));
    }

    @Test
    void theOccurrenceStaysAtTwoInTheMorningInParisAcrossBothDaylightSavingChanges() throws Exception {
        start(MONDAY - 30_000);
        define(monitor("api", null, null));
        // Mondays either side of each change, and the Sundays of the changes themselves
        silence(weekly(
                "maint", "monitor/api", null, null, new Schedule(List.of("mon", "sun"), "02:00", 60, "Europe/Paris")));
        record Case(String date, long downFromUtcHour, String why) {}
        List<Case> cases = List.of(
                new Case("2027-03-22", 1, "Monday before spring forward: 02:00 CET is 01:00Z"),
                new Case(
                        "2027-03-28",
                        1,
                        "spring-forward Sunday: 02:00 does not exist, the occurrence starts at the "
                                + "transition, 03:00 CEST, 01:00Z, for its full hour"),
                new Case("2027-03-29", 0, "Monday after spring forward: 02:00 CEST is 00:00Z"),
                new Case("2027-10-25", 0, "Monday before fall back: 02:00 CEST is 00:00Z"),
                new Case("2027-10-31", 0, "fall-back Sunday: 02:00 happens twice, the first (CEST), 00:00Z, counts"),
                new Case("2027-11-01", 1, "Monday after fall back: 02:00 CET is 01:00Z"));
        for (Case c : cases) {
            long day = LocalDate.parse(c.date()).toEpochDay() * DAY;
            long downFrom = day + c.downFromUtcHour() * HOUR;
            windows("api", day, day + 3 * HOUR, between(downFrom, downFrom + HOUR));
            // read at once: a day is dropped after the 90-day retention, counted from the newest day
            DailyUptime d = day("api", day);
            assertThat(d).as(c.why()).isEqualTo(counts(day, 120, 60, 0, 60));
            assertThat(d.uptimeExcludingMaintenancePercent()).as(c.why()).isEqualTo(100.0);
        }
    }

    @Test
    void aWindowAddedOrRemovedMidDayCountsFromThenOn() throws Exception {
        start(MONDAY - 30_000);
        define(monitor("api", null, null));
        windows("api", MONDAY, MONDAY + HOUR + 30 * MIN, w -> true); // counted before any maintenance window existed
        silence(weekly("maint", "monitor/api", null, null, MONDAYS_2AM_PARIS));
        windows("api", MONDAY + HOUR + 30 * MIN, MONDAY + 3 * HOUR, w -> true);
        assertThat(day("api", MONDAY)).isEqualTo(counts(MONDAY, 0, 180, 0, 30));

        silences.pipeInput("maint", null); // deleted
        long nextMonday = MONDAY + 7 * DAY;
        windows("api", nextMonday, nextMonday + 3 * HOUR, w -> true);
        assertThat(day("api", nextMonday)).isEqualTo(counts(nextMonday, 0, 180, 0, 0));
    }

    /** The inputs of the replay test: a maintenance window, one for another monitor, a one-off silence, two days. */
    private void mixedWeek() {
        define(monitor("api", null, null));
        define(monitor("web", null, null));
        silence(weekly("maint", "monitor/api", null, null, MONDAYS_2AM_PARIS));
        silence(weekly("web-maint", "monitor/web", null, null, new Schedule(List.of("tue"), "04:00", 90, "UTC")));
        silence(new Silence(
                1,
                "noise",
                "monitor/*",
                null,
                null,
                MONDAY + 2 * HOUR,
                MONDAY + DAY + 5 * HOUR,
                "oncall",
                "noise",
                MONDAY));
        for (long day : new long[] {MONDAY, MONDAY + DAY}) {
            windows("api", day, day + 6 * HOUR, w -> (w / MIN) % 7 < 3);
            windows("web", day, day + 6 * HOUR, w -> (w / MIN) % 5 < 2);
        }
    }

    @Test
    void aReplayOfTheSameInputsCountsTheSameWhateverTheWallClock() throws Exception {
        start(MONDAY - 30_000);
        mixedWeek();
        Map<String, DailyUptime> first = allDays();
        stop();

        start(MONDAY + 40 * DAY); // replayed weeks later: maintenance is judged at each window start, not now
        mixedWeek();
        Map<String, DailyUptime> replay = allDays();

        assertThat(replay).isEqualTo(first).hasSize(4);
        // api on Monday and web on Tuesday; the one-off silence marks nothing
        assertThat(first)
                .hasEntrySatisfying(UptimeProcessor.key("api", MONDAY / DAY), d -> assertThat(d.maintenance())
                        .isEqualTo(60))
                .hasEntrySatisfying(UptimeProcessor.key("web", MONDAY / DAY + 1), d -> assertThat(d.maintenance())
                        .isEqualTo(90));
        assertThat(first.values()).filteredOn(DailyUptime::hasMaintenance).hasSize(2);
    }
}

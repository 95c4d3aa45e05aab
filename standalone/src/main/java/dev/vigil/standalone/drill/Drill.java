package dev.vigil.standalone.drill;

import dev.vigil.embedded.postgres.PostgresUrl;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.ErrorKind;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.schemas.contract.Status;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.topic.Topics;
import dev.vigil.schemas.window.Windows;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A fire drill: a synthetic outage of a {@code drill-*} monitor travels the real path — probe result on
 * Kafka, verdict, alert, notifier delivery — and each hop is timed; then the monitor recovers and the
 * resolution travels the same way. Drill monitors probe a region no worker runs ({@value #REGION}), so
 * no real probe interferes, and their names keep a drill from ever touching a real monitor.
 * {@link #cleanup} removes every drill record: the monitor, its status, its alert (resolved by the
 * deletion) and the notifier's claims, incidents and delivery records.
 */
public final class Drill {
    public static final String PREFIX = "drill-";
    public static final String REGION = dev.vigil.schemas.contract.MonitorDefinition.DRILL_REGION;
    private static final long INTERVAL_SECONDS = 10;

    /** One timed hop of the drill. */
    public record Hop(String name, long atMs, String detail) {}

    /**
     * What the drill saw, in order.
     *
     * @param traceId the trace its outage began (W3C trace id, hex): every hop's record carries it
     */
    public record Report(
            String monitorId, List<Hop> hops, String openedEventId, String resolvedEventId, String traceId) {}

    private final String bootstrapServers;
    private final PostgresUrl database;
    private final Duration timeout;
    private final Clock clock;
    private final Consumer<String> progress;

    /** @param database the notifier's database, or null to skip the delivery hops */
    public Drill(
            String bootstrapServers, PostgresUrl database, Duration timeout, Clock clock, Consumer<String> progress) {
        this.bootstrapServers = bootstrapServers;
        this.database = database;
        this.timeout = timeout;
        this.clock = clock;
        this.progress = progress;
    }

    public static void requireDrillId(String monitorId) {
        if (monitorId == null || !monitorId.startsWith(PREFIX)) {
            throw new IllegalArgumentException("drill monitors are named " + PREFIX + "<name> (got '" + monitorId
                    + "'), so a drill can never touch a real monitor");
        }
    }

    public static MonitorDefinition definition(String monitorId, Severity severity) {
        return new MonitorDefinition(
                1,
                monitorId,
                "Drill " + monitorId,
                "https://drill.invalid/",
                "GET",
                (int) INTERVAL_SECONDS,
                1000,
                List.of(REGION),
                null,
                null,
                severity,
                "drill",
                "drill",
                Map.of(),
                true);
    }

    public Report run(String monitorId, Severity severity) {
        requireDrillId(monitorId);
        List<Hop> hops = new ArrayList<>();
        String fingerprint = "monitor/" + monitorId;
        try (var producer = producer();
                var statuses = tail(Topics.MONITOR_STATUS);
                var alerts = tail(Topics.ALERTS)) {
            send(producer, Topics.MONITORS, monitorId, Json.bytes(definition(monitorId, severity)));
            progress.accept("drill monitor " + monitorId + " published (region '" + REGION + "', no worker probes it)");
            // The topology must know the definition before a result counts: give it one window to read it.
            long first = nextWindowAfter(clock.millis() + 2_000);
            sleepUntil(first);

            long ws = first;
            DrillTrace trace = DrillTrace.begin();
            send(producer, Topics.PROBE_RESULTS, monitorId, Json.bytes(result(monitorId, ws, false)), trace);
            hops.add(new Hop(
                    "outage injected (probe result acknowledged)",
                    clock.millis(),
                    "window " + ws + ", trace " + trace.traceId() + ", span " + trace.spanId()));
            progress.accept("synthetic failure injected for window " + ws + " (trace " + trace.traceId() + ")");
            long windowStart = ws;
            var verdict = await(statuses, monitorId, v -> verdictIs(v, windowStart, Status.DOWN), "a down verdict");
            hops.add(new Hop("verdict down on " + Topics.MONITOR_STATUS, clock.millis(), trace.hop(verdict.headers())));
            var openedRecord = await(alerts, fingerprint, v -> alertIs(v, AlertState.OPENED), "an opened alert");
            AlertEvent opened = Json.read(openedRecord.value(), AlertEvent.class);
            hops.add(new Hop(
                    "alert opened on " + Topics.ALERTS,
                    clock.millis(),
                    opened.eventId() + ", " + trace.hop(openedRecord.headers())));
            deliveries(opened.eventId()).forEach(h -> hops.add(h));

            for (int i = 1; i <= 2; i++) {
                long next = ws + i * INTERVAL_SECONDS * 1000;
                sleepUntil(next);
                send(producer, Topics.PROBE_RESULTS, monitorId, Json.bytes(result(monitorId, next, true)));
            }
            hops.add(new Hop("recovery injected (2 healthy windows)", clock.millis(), ""));
            AlertEvent resolved = Json.read(
                    await(alerts, fingerprint, v -> alertIs(v, AlertState.RESOLVED), "a resolved alert")
                            .value(),
                    AlertEvent.class);
            hops.add(new Hop("alert resolved on " + Topics.ALERTS, clock.millis(), resolved.eventId()));
            deliveries(resolved.eventId()).forEach(h -> hops.add(h));
            return new Report(monitorId, hops, opened.eventId(), resolved.eventId(), trace.traceId());
        }
    }

    /** Removes the drill monitor, its status and the notifier's records of it; returns what was removed. */
    public List<String> cleanup(String monitorId) {
        requireDrillId(monitorId);
        List<String> removed = new ArrayList<>();
        try (var producer = producer()) {
            send(producer, Topics.MONITORS, monitorId, null);
            removed.add("monitor " + monitorId + " (tombstone on " + Topics.MONITORS + "; its open alert resolves)");
            send(producer, Topics.MONITOR_STATUS, monitorId, null);
            removed.add("status of " + monitorId + " (tombstone on " + Topics.MONITOR_STATUS + ")");
        }
        if (database != null) {
            String like = "monitor/" + monitorId + "@%";
            try (Connection c = connect()) {
                removed.add(delete(c, "DELETE FROM delivery_attempts WHERE incident_id LIKE ? OR event_id LIKE ?", like)
                        + " delivery records");
                removed.add(delete(c, "DELETE FROM claims WHERE event_id LIKE ?", like) + " claims");
                removed.add(delete(c, "DELETE FROM incidents WHERE incident_id LIKE ?", like) + " incidents");
            } catch (SQLException e) {
                throw new IllegalStateException(
                        "cannot clean the notifier's database at " + database + ": " + e.getMessage(), e);
            }
        }
        return removed;
    }

    private static int delete(Connection c, String sql, String like) throws SQLException {
        try (PreparedStatement st = c.prepareStatement(sql)) {
            int n = st.getParameterMetaData().getParameterCount();
            for (int i = 1; i <= n; i++) {
                st.setString(i, like);
            }
            return st.executeUpdate();
        }
    }

    private List<Hop> deliveries(String eventId) {
        if (database == null) {
            return List.of(new Hop("delivery", clock.millis(), "not checked: no notifier database given (--db-url)"));
        }
        long deadline = clock.millis() + timeout.toMillis();
        // Every routed channel claims the event before sending: done when each claimed channel has an outcome.
        try (Connection c = connect();
                PreparedStatement claims = c.prepareStatement("SELECT count(*) FROM claims WHERE event_id = ?");
                PreparedStatement attempts = c.prepareStatement("SELECT DISTINCT ON (channel) channel, outcome "
                        + "FROM delivery_attempts WHERE event_id = ? ORDER BY channel, id DESC")) {
            claims.setString(1, eventId);
            attempts.setString(1, eventId);
            while (clock.millis() < deadline) {
                long claimed;
                try (ResultSet rs = claims.executeQuery()) {
                    rs.next();
                    claimed = rs.getLong(1);
                }
                List<Hop> found = new ArrayList<>();
                try (ResultSet rs = attempts.executeQuery()) {
                    while (rs.next()) {
                        found.add(new Hop("delivered to " + rs.getString(1), clock.millis(), rs.getString(2)));
                    }
                }
                if (claimed > 0 && found.size() >= claimed) {
                    return found;
                }
                pause(200);
            }
            return List.of(new Hop("delivery", clock.millis(), "NOT delivered within " + timeout.toSeconds() + " s"));
        } catch (SQLException e) {
            return List.of(new Hop("delivery", clock.millis(), "not checked: " + e.getMessage()));
        }
    }

    private Connection connect() throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", database.user());
        if (database.password() != null) {
            p.setProperty("password", database.password());
        }
        p.setProperty("connectTimeout", "5");
        return DriverManager.getConnection(database.jdbcUrl(), p);
    }

    private ProbeResult result(String monitorId, long windowStart, boolean healthy) {
        long now = Math.max(clock.millis(), windowStart);
        return new ProbeResult(
                1,
                monitorId,
                REGION,
                "vigil-drill",
                windowStart,
                now,
                healthy ? Outcome.SUCCESS : Outcome.NETWORK_FAILURE,
                healthy ? null : ErrorKind.OTHER,
                healthy ? 200 : null,
                1,
                1,
                0L,
                0,
                null,
                null,
                null,
                null,
                null,
                healthy ? null : "synthetic drill outage",
                "drill-" + UUID.randomUUID());
    }

    private static boolean verdictIs(byte[] value, long windowStart, Status status) {
        MonitorStatus v = Json.read(value, MonitorStatus.class);
        return v.windowStart() == windowStart && v.status() == status;
    }

    private static boolean alertIs(byte[] value, AlertState state) {
        return Json.read(value, AlertEvent.class).state() == state;
    }

    private long nextWindowAfter(long t) {
        return Windows.windowStart(t, INTERVAL_SECONDS * 1000) + INTERVAL_SECONDS * 1000;
    }

    private void sleepUntil(long epochMs) {
        long wait = epochMs - clock.millis();
        if (wait > 0) {
            progress.accept(String.format("waiting %.1f s for the next window ...", wait / 1000.0));
            pause(wait);
        }
    }

    private static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("drill interrupted", e);
        }
    }

    private KafkaProducer<String, byte[]> producer() {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "vigil-drill");
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, timeout.toMillis());
        return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    }

    private void send(KafkaProducer<String, byte[]> producer, String topic, String key, byte[] value) {
        send(producer, topic, key, value, null);
    }

    private void send(
            KafkaProducer<String, byte[]> producer, String topic, String key, byte[] value, DrillTrace trace) {
        var record = new ProducerRecord<>(topic, key, value);
        if (trace != null) {
            trace.inject(record.headers());
        }
        try {
            producer.send(record).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(
                    "cannot write to " + topic + " at " + bootstrapServers + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("drill interrupted", e);
        }
    }

    /** A read_committed consumer positioned at the current end of every partition of {@code topic}. */
    private KafkaConsumer<String, byte[]> tail(String topic) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "vigil-drill-" + topic);
        var consumer = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> parts = consumer.partitionsFor(topic, timeout).stream()
                .map(i -> new TopicPartition(topic, i.partition()))
                .toList();
        consumer.assign(parts);
        consumer.seekToEnd(parts);
        parts.forEach(consumer::position);
        return consumer;
    }

    private ConsumerRecord<String, byte[]> await(
            KafkaConsumer<String, byte[]> consumer, String key, Predicate<byte[]> match, String what) {
        long deadline = clock.millis() + timeout.toMillis();
        while (clock.millis() < deadline) {
            for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                if (key.equals(r.key()) && r.value() != null && match.test(r.value())) {
                    return r;
                }
            }
        }
        throw new IllegalStateException("no " + what + " for " + key + " within " + timeout.toSeconds()
                + " s: is the streams service running against " + bootstrapServers + "?");
    }
}

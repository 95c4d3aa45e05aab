package dev.vigil.bench.notifier;

import static dev.vigil.bench.BenchSupport.report;

import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.embedded.postgres.EmbeddedPostgres;
import dev.vigil.embedded.postgres.PostgresDatabase;
import dev.vigil.notifier.config.NotifierConfig;
import dev.vigil.schemas.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The notifier's burst with a {@code kill -9} in the middle: a notifier process takes a burst of N distinct events,
 * is killed with SIGKILL once a share of them has reached the sink, and a new process on the same consumer group and
 * database finishes the burst. What a durable dispatcher owes across the kill:
 *
 * <ul>
 *   <li>{@code lost}: events that never reached the sink (must be 0);</li>
 *   <li>{@code delivered_twice_recorded}: events recorded as delivered twice in PostgreSQL, i.e. sent again although
 *   their first delivery was durable before the kill (must be 0);</li>
 *   <li>{@code resent_unrecorded}: events the sink saw twice whose first send the killed process made but could
 *   not record (the kill fell between the vendor's answer and the settlement): the at-least-once window every
 *   sender of non-idempotent HTTP has, bounded by the sends in flight, and why the webhook carries
 *   {@code X-Vigil-Event-Id} for the receiver to deduplicate on;</li>
 *   <li>{@code recovery_seconds}: from the kill until every event has reached the sink (the claims the dead process
 *   held are taken over when their lease runs out).</li>
 * </ul>
 *
 * <p>Run: {@code java -cp <bench classpath> dev.vigil.bench.notifier.NotifierKillBench [--events N] [--kill-at F]}
 * (defaults 20,000 and 0.3; {@code --send-timeout} shortens the claims' lease for a quick run). Prints {@code RESULT notifier-kill key=value ...}.
 */
public final class NotifierKillBench {
    private NotifierKillBench() {}

    /** @param sendTimeout the notifier's send timeout (its claims' lease is twice it plus 5 s); null: the default */
    public record Options(int events, double killAt, String sendTimeout) {
        static Options parse(String[] args) {
            int events = 20_000;
            double killAt = 0.3;
            String sendTimeout = null;
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--events" -> events = Integer.parseInt(args[++i]);
                    case "--kill-at" -> killAt = Double.parseDouble(args[++i]);
                    case "--send-timeout" -> sendTimeout = args[++i];
                    default -> throw new IllegalArgumentException("unknown option " + args[i]
                            + "; options: --events N --kill-at F (0..1) --send-timeout DURATION");
                }
            }
            if (killAt <= 0 || killAt >= 1) {
                throw new IllegalArgumentException("--kill-at must be between 0 and 1 (exclusive), was " + killAt);
            }
            return new Options(events, killAt, sendTimeout);
        }
    }

    public static void main(String[] args) throws Exception {
        if (System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", "dev/vigil/bench/notifier/logback-bench.xml");
        }
        Map<String, Object> r = run(Options.parse(args));
        System.exit(r.isEmpty() ? 1 : 0);
    }

    public static Map<String, Object> run(Options o) throws Exception {
        Map<String, Object> result = new LinkedHashMap<>();
        Path dir = Files.createTempDirectory("vigil-notifier-kill");
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().start();
                EmbeddedPostgres pg = NotifierThroughputBench.server().start();
                NotifierThroughputBench.Sink sink = new NotifierThroughputBench.Sink();
                Admin admin = Admin.create(kafka.adminProps());
                KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                        kafka.producerProps(), new ByteArraySerializer(), new ByteArraySerializer())) {
            PostgresDatabase db = pg.createDatabase("notifier_kill");
            String topic = "bench-alerts";
            NotifierThroughputBench.createTopics(kafka, topic);
            NotifierConfig base = NotifierThroughputBench.config(kafka, db, topic, sink.port());
            NotifierConfig.Kafka k = base.kafka();
            // static membership, as a deployment that restarts its notifier in place runs it: the new process
            // takes the dead one's partitions back at once instead of after its session timeout
            base = base.withKafka(new NotifierConfig.Kafka(
                    k.bootstrapServers(), k.groupId(), k.topics(), k.maxInFlight(), k.maxPollRecords(), "notifier-0"));
            NotifierConfig.Delivery d = base.delivery();
            NotifierConfig cfg = o.sendTimeout() == null
                    ? base
                    : base.withDelivery(new NotifierConfig.Delivery(
                            d.dedupeWindow(),
                            d.deadline(),
                            d.retryBase(),
                            d.retryMultiplier(),
                            d.retryCap(),
                            o.sendTimeout(),
                            d.claimBatchSize()));
            Path file = dir.resolve("notifier.json");
            Files.writeString(file, Json.string(cfg));
            Map<String, String> env = Map.of(
                    NotifierThroughputBench.SECRET_ENV,
                    "bench-secret-0123456789abcdef0123456789",
                    NotifierThroughputBench.DB_PASSWORD_ENV,
                    db.password());

            Process first = NotifierProcess.launch(file, env, dir.resolve("first.log"));
            long now = System.currentTimeMillis();
            for (int i = 0; i < o.events(); i++) {
                var e = NotifierThroughputBench.event("kill", i, now);
                producer.send(
                        new ProducerRecord<>(topic, e.fingerprint().getBytes(StandardCharsets.UTF_8), Json.bytes(e)));
            }
            producer.flush();
            int killAt = (int) (o.events() * o.killAt());
            awaitReceived(sink, killAt, first);
            first.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            long killed = System.nanoTime();
            int receivedAtKill = sink.received.size();

            Process second = NotifierProcess.launch(file, env, dir.resolve("second.log"));
            try {
                awaitReceived(sink, o.events(), second);
                double recovery = (System.nanoTime() - killed) / 1e9;
                long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
                while (!NotifierThroughputBench.allCommitted(admin, cfg.kafka().groupId(), topic)
                        && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                result.put("events", o.events());
                result.put("received_at_kill", receivedAtKill);
                result.put("received", sink.received.size());
                result.put("lost", o.events() - sink.received.size());
                long twiceRecorded = deliveredTwiceRecorded(db);
                result.put("delivered_twice_recorded", twiceRecorded);
                result.put("resent_unrecorded", Math.max(0, sink.duplicates.get() - twiceRecorded));
                result.put("sink_duplicates", sink.duplicates.get());
                result.put("recovery_seconds", Math.round(recovery * 100) / 100.0);
                result.put(
                        "all_committed",
                        NotifierThroughputBench.allCommitted(admin, cfg.kafka().groupId(), topic));
            } finally {
                second.destroy();
                second.waitFor(30, TimeUnit.SECONDS);
                second.destroyForcibly();
            }
        } finally {
            dev.vigil.bench.BenchSupport.deleteTree(dir);
        }
        report("notifier-kill", result);
        return result;
    }

    private static void awaitReceived(NotifierThroughputBench.Sink sink, int n, Process notifier)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (sink.received.size() < n) {
            if (!notifier.isAlive()) {
                throw new IllegalStateException("the notifier process exited with " + notifier.exitValue());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("only " + sink.received.size() + " of " + n + " events arrived");
            }
            Thread.sleep(2);
        }
    }

    /** Events with more than one delivered attempt on record: a second send of a delivery that was durable. */
    private static long deliveredTwiceRecorded(PostgresDatabase db) throws Exception {
        try (Connection c = db.openJdbcConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM (SELECT event_id FROM delivery_attempts"
                        + " WHERE outcome = 'delivered' GROUP BY event_id, channel HAVING count(*) > 1) t")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}

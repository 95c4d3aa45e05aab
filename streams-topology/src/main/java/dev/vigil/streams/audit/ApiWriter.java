package dev.vigil.streams.audit;

import dev.vigil.schemas.contract.AuditRecord;
import dev.vigil.schemas.json.Json;
import dev.vigil.streams.query.QueryBackend;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Every write the query API accepts, with its audit record, in one Kafka transaction: the change and the record
 * of who made it land together or not at all. Writes run one at a time on a dedicated thread (a transactional
 * producer is not concurrent; API writes are rare); the answer waits for the commit, bounded by {@code timeout}.
 */
public final class ApiWriter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ApiWriter.class);

    /** Creates the producer; called again after a failure that leaves the old one unusable. */
    @FunctionalInterface
    public interface ProducerFactory {
        Producer<String, byte[]> create();
    }

    private final ProducerFactory factory;
    private final String auditTopic;
    private final Duration timeout;
    private final Scheduler thread = Schedulers.newSingle("vigil-api-writes", true);
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();
    private Producer<String, byte[]> producer;

    public ApiWriter(ProducerFactory factory, String auditTopic, Duration timeout) {
        this.factory = factory;
        this.auditTopic = auditTopic;
        this.timeout = timeout;
    }

    /**
     * A transactional, idempotent, acks=all producer bounded so one write never waits longer than {@code timeout}.
     * {@code extra} (e.g. security settings) is applied last.
     */
    public static ProducerFactory kafka(String bootstrapServers, Duration timeout, Map<String, String> extra) {
        String transactionalId = "vigil-api-" + UUID.randomUUID();
        return () -> {
            Properties p = new Properties();
            p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
            p.put(ProducerConfig.ACKS_CONFIG, "all");
            p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
            p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
            p.put(ProducerConfig.CLIENT_ID_CONFIG, transactionalId);
            int bound = (int) Math.max(1000, timeout.toMillis());
            p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, bound);
            p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, bound);
            p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, bound);
            p.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, Math.max(bound * 2, 10_000));
            p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
            p.putAll(extra);
            return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
        };
    }

    /**
     * Writes {@code changes} and {@code audit} atomically. Fails with {@link QueryBackend.Unavailable} (a 503) when
     * Kafka does not commit within the bound; nothing is then visible to read_committed readers.
     */
    public Mono<Void> write(List<ProducerRecord<String, byte[]>> changes, AuditRecord audit) {
        return Mono.<Void>fromRunnable(() -> commit(changes, audit))
                .subscribeOn(thread)
                .timeout(timeout.plusSeconds(1))
                .onErrorMap(e -> !(e instanceof QueryBackend.Unavailable), e -> {
                    LOG.warn("API write {} on {} was not committed by Kafka", audit.action(), audit.target(), e);
                    return new QueryBackend.Unavailable(
                            "Kafka did not acknowledge the write within " + timeout.toSeconds() + " s ("
                                    + e.getClass().getSimpleName() + "); it was not committed: check, then retry");
                });
    }

    private void commit(List<ProducerRecord<String, byte[]>> changes, AuditRecord audit) {
        try {
            if (producer == null) {
                producer = factory.create();
                producer.initTransactions();
            }
            producer.beginTransaction();
            for (ProducerRecord<String, byte[]> r : changes) {
                producer.send(r);
            }
            producer.send(new ProducerRecord<>(auditTopic, audit.target(), Json.bytes(audit)));
            producer.commitTransaction();
        } catch (RuntimeException e) {
            discard();
            throw e;
        }
    }

    /** After any failure the producer is closed and a new one made for the next write (simplest correct recovery). */
    private void discard() {
        if (producer != null) {
            try {
                producer.close(Duration.ZERO);
            } catch (RuntimeException ignored) {
                // closing a broken producer may fail too
            }
            producer = null;
        }
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        Mono.fromRunnable(() -> {
                    if (producer != null) {
                        producer.close(Duration.ofSeconds(5));
                        producer = null;
                    }
                })
                .subscribeOn(thread)
                .block(Duration.ofSeconds(10));
        thread.dispose();
    }
}

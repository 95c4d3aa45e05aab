package dev.vigil.probe.publish;

import dev.vigil.kit.trace.Tracing;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.contract.WorkerHeartbeat;
import dev.vigil.schemas.json.VigilSerdes;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Produces results to {@code vigil.probe-results} keyed by monitor id and heartbeats to
 * {@code vigil.heartbeats} keyed by worker id, with an idempotent producer and acks=all. {@code send} can
 * block (metadata, full buffer), so it runs on one dedicated thread, never on the caller's.
 */
public final class KafkaResultPublisher implements ResultPublisher {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaResultPublisher.class);

    private final Producer<String, byte[]> producer;
    private final String resultsTopic;
    private final String heartbeatsTopic;
    private final Listener listener;
    private final ProbeSpans spans;
    private final ExecutorService sender;
    private final AtomicLong acked = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private volatile long lastErrorAt;
    private volatile long lastAckAt = System.currentTimeMillis();

    public KafkaResultPublisher(
            String bootstrapServers,
            String clientId,
            String resultsTopic,
            String heartbeatsTopic,
            Map<String, Object> overrides,
            Listener listener) {
        this(bootstrapServers, clientId, resultsTopic, heartbeatsTopic, overrides, listener, Tracing.off("probe"));
    }

    /** @param tracing records each result's probe span and starts its trace in the record's headers */
    public KafkaResultPublisher(
            String bootstrapServers,
            String clientId,
            String resultsTopic,
            String heartbeatsTopic,
            Map<String, Object> overrides,
            Listener listener,
            Tracing tracing) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 10);
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        // Ride out a broker restart: keep retrying for two minutes before a result is given up.
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 60_000);
        p.putAll(overrides);
        this.producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
        this.resultsTopic = resultsTopic;
        this.heartbeatsTopic = heartbeatsTopic;
        this.listener = listener;
        this.spans = new ProbeSpans(tracing);
        this.sender = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "vigil-probe-publisher");
            t.setDaemon(true);
            return t;
        });
    }

    /** The producer, for binding its client metrics. */
    public Producer<String, byte[]> producer() {
        return producer;
    }

    @Override
    public void publish(ProbeResult result) {
        byte[] value = VigilSerdes.probeResult().serialize(resultsTopic, result);
        sender.execute(() -> {
            try {
                var record = new ProducerRecord<>(resultsTopic, result.monitorId(), value);
                spans.record(result, record.headers());
                producer.send(record, (md, ex) -> {
                    if (ex == null) {
                        acked.incrementAndGet();
                        lastAckAt = System.currentTimeMillis();
                        listener.acknowledged(result);
                    } else {
                        failed.incrementAndGet();
                        lastErrorAt = System.currentTimeMillis();
                        LOG.error(
                                "probe result of {} for window {} was not delivered: {}",
                                result.monitorId(),
                                result.windowStart(),
                                ex.toString());
                        listener.failed(result, ex);
                    }
                });
            } catch (RuntimeException ex) {
                failed.incrementAndGet();
                lastErrorAt = System.currentTimeMillis();
                LOG.error("probe result of {} could not be sent: {}", result.monitorId(), ex.toString());
                listener.failed(result, ex);
            }
        });
    }

    @Override
    public void heartbeat(WorkerHeartbeat heartbeat) {
        byte[] value = VigilSerdes.workerHeartbeat().serialize(heartbeatsTopic, heartbeat);
        sender.execute(() -> {
            try {
                producer.send(new ProducerRecord<>(heartbeatsTopic, heartbeat.workerId(), value), (md, ex) -> {
                    if (ex != null) {
                        LOG.warn("heartbeat was not delivered: {}", ex.toString());
                        listener.heartbeatFailed(heartbeat, ex);
                    } else {
                        listener.heartbeatAcknowledged(heartbeat);
                    }
                });
            } catch (RuntimeException ex) {
                LOG.warn("heartbeat could not be sent: {}", ex.toString());
                listener.heartbeatFailed(heartbeat, ex);
            }
        });
    }

    @Override
    public long acknowledged() {
        return acked.get();
    }

    @Override
    public long failed() {
        return failed.get();
    }

    @Override
    public boolean healthy() {
        return lastErrorAt <= lastAckAt;
    }

    @Override
    public void close(Duration timeout) {
        sender.shutdown();
        try {
            if (!sender.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("publisher queue not empty after {}", timeout);
            }
            producer.flush();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            producer.close(timeout);
        }
    }
}

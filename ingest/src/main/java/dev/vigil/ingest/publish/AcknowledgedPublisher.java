package dev.vigil.ingest.publish;

import dev.vigil.ingest.config.IngestConfig;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Publishes one HTTP request's records all-or-nothing and answers only once Kafka has decided.
 *
 * <p>A plain idempotent producer cannot give "nothing half-accepted": when some records of a batch are
 * acknowledged and the rest time out, the acknowledged ones stay. So every request goes into a Kafka
 * transaction (idempotent, acks=all): it is {@link PublishResult#ACKNOWLEDGED} only after the commit
 * returned, and {@link PublishResult#UNAVAILABLE} only when its transaction was (or will be) aborted, so
 * read_committed consumers never see any of it. Several requests may share one transaction (group commit)
 * to amortise the commit cost; they then share its fate. A request that cannot be placed within
 * {@code kafka.sendTimeout} (queue full, broker down, sends not acknowledged) is answered UNAVAILABLE.
 *
 * <p>Consumers of the ingest topics must read with {@code isolation.level=read_committed}.
 */
public final class AcknowledgedPublisher implements AutoCloseable {
    private final List<TransactionalLane> lanes = new ArrayList<>();
    private final ScheduledThreadPoolExecutor timer;
    private final long sendTimeoutMs;
    private final AtomicInteger next = new AtomicInteger();
    private final MeterRegistry registry;

    public AcknowledgedPublisher(IngestConfig.Kafka kafka, MeterRegistry registry) {
        this.registry = registry;
        this.sendTimeoutMs = kafka.sendTimeout().toMillis();
        this.timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "ingest-publish-deadlines");
            t.setDaemon(true);
            return t;
        });
        this.timer.setRemoveOnCancelPolicy(true);
        Timer commit = Timer.builder("vigil.ingest.kafka.send")
                .description("Time from a transaction's first send to its commit or abort")
                .tag("outcome", "committed")
                .publishPercentileHistogram()
                .register(registry);
        Timer abort = Timer.builder("vigil.ingest.kafka.send")
                .description("Time from a transaction's first send to its commit or abort")
                .tag("outcome", "aborted")
                .publishPercentileHistogram()
                .register(registry);
        for (int i = 0; i < kafka.producers(); i++) {
            String txId = kafka.transactionalIdPrefix() + "-" + i;
            Map<String, Object> props = producerProps(kafka, txId);
            // Fail at start, naming the setting, rather than in a lane that would keep retrying a bad producer.
            try {
                new ProducerConfig(withSerializers(props));
            } catch (org.apache.kafka.common.config.ConfigException e) {
                throw new dev.vigil.kit.config.ConfigLoader.ConfigException(
                        List.of("kafka.properties: invalid producer setting: " + e.getMessage()));
            }
            TransactionalLane lane = new TransactionalLane(
                    "ingest-publish-" + i,
                    () -> new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer()),
                    kafka.maxQueuedRequests(),
                    kafka.maxRecordsPerTransaction(),
                    kafka.commitResolveTimeout().toMillis(),
                    commit,
                    abort,
                    this::bindMetrics);
            lanes.add(lane);
        }
        registry.gauge("vigil.ingest.publish.queued", lanes, ls -> ls.stream()
                .mapToInt(TransactionalLane::queued)
                .sum());
        lanes.forEach(TransactionalLane::start);
    }

    static Map<String, Object> producerProps(IngestConfig.Kafka kafka, String transactionalId) {
        long bound = kafka.sendTimeout().toMillis();
        long linger = 5;
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ProducerConfig.CLIENT_ID_CONFIG, transactionalId);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        p.put(ProducerConfig.LINGER_MS_CONFIG, linger);
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        // Every blocking call and every record is bounded by the send timeout, so a broker outage turns into
        // a prompt UNAVAILABLE rather than a request that hangs.
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, bound);
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.max(100, bound - linger - 1));
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) bound);
        p.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, (int)
                Math.max(kafka.commitResolveTimeout().toMillis(), 10_000));
        p.put(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1000);
        // Back-to-back transactions on one producer meet CONCURRENT_TRANSACTIONS while the previous commit's
        // markers are written; the default 100 ms backoff would then dominate every request's latency.
        p.put(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 5);
        p.put(ProducerConfig.RETRY_BACKOFF_MAX_MS_CONFIG, 500);
        p.putAll(kafka.properties());
        return p;
    }

    private static Map<String, Object> withSerializers(Map<String, Object> props) {
        Map<String, Object> p = new HashMap<>(props);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        return p;
    }

    /** Binds a new producer's client metrics; the lane closes the binder with the producer. */
    private AutoCloseable bindMetrics(Producer<String, byte[]> producer) {
        KafkaClientMetrics m = new KafkaClientMetrics(producer);
        m.bindTo(registry);
        return m;
    }

    /**
     * Publishes every record of one request in one transaction. Never blocks the caller; the future
     * completes within the send timeout unless a commit was already requested (then when it resolves).
     */
    public CompletableFuture<PublishResult> publish(List<ProducerRecord<String, byte[]>> records) {
        if (records.isEmpty()) {
            return CompletableFuture.completedFuture(PublishResult.ACKNOWLEDGED);
        }
        PendingRequest request = new PendingRequest(records);
        TransactionalLane lane = pickLane();
        if (lane == null || !lane.offer(request)) {
            return CompletableFuture.completedFuture(PublishResult.UNAVAILABLE);
        }
        request.deadline(timer.schedule(request::expire, sendTimeoutMs, TimeUnit.MILLISECONDS));
        return request.result;
    }

    /** Every lane has an initialised transactional producer. */
    public boolean ready() {
        return lanes.stream().allMatch(TransactionalLane::ready);
    }

    private TransactionalLane pickLane() {
        // Prefer a ready lane with the least load (an idle lane starts a transaction at once); start the scan
        // round-robin so ties spread.
        int n = lanes.size();
        int start = Math.floorMod(next.getAndIncrement(), n);
        TransactionalLane best = null;
        for (int i = 0; i < n; i++) {
            TransactionalLane l = lanes.get((start + i) % n);
            if (best == null || (l.ready() && !best.ready()) || (l.ready() == best.ready() && l.load() < best.load())) {
                best = l;
            }
        }
        return best;
    }

    @Override
    public void close() {
        long wait = sendTimeoutMs + 1000;
        lanes.forEach(TransactionalLane::stopAccepting);
        lanes.forEach(l -> l.close(wait));
        timer.shutdownNow();
    }
}

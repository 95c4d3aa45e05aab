package dev.vigil.probe.publish;

import dev.vigil.kit.http.TransientStatus;
import dev.vigil.kit.retry.Backoff;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.contract.WorkerHeartbeat;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.sign.RequestSigner;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.client.HttpClient;

/**
 * Remote mode: POSTs results in batches (JSON arrays) to ingest's {@code /v1/probe-results}, each request
 * signed by {@link RequestSigner} over timestamp, request id, region and body. A batch the server did not
 * accept for a transient reason (network, 408, 429, 5xx) is retried under the same request id; a batch
 * refused with another 4xx is dropped and logged (resending it cannot help). At most {@code maxBuffered}
 * results wait; beyond that the oldest are dropped and counted as failed.
 *
 * <p>Heartbeats go to ingest's {@code /v1/heartbeats} as a one-element batch, signed the same way. They
 * are fire-and-forget: one in flight at most, no retry (the next one follows within the heartbeat period);
 * a failure is logged at WARN and reported to {@link Listener#heartbeatFailed}.
 */
public final class RemoteResultPublisher implements ResultPublisher {
    private static final Logger LOG = LoggerFactory.getLogger(RemoteResultPublisher.class);
    private static final int MAX_BUFFERED = 100_000;
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(15);
    /** Waits before a batch is sent again: jittered, 500 ms growing to at most 30 s, never before a Retry-After. */
    private static final Backoff RETRY = Backoff.jittered(Duration.ofMillis(500), 2.0, Duration.ofSeconds(30));

    private final HttpClient client;
    private final String resultsUrl;
    private final String heartbeatsUrl;
    private final String keyId;
    private final String region;
    private final RequestSigner signer;
    private final int batchSize;
    private final LongSupplier clock;
    private final Listener listener;
    private final Scheduler worker = Schedulers.newSingle("vigil-remote-publisher");
    private final Deque<ProbeResult> pending = new ArrayDeque<>();
    private final AtomicBoolean sending = new AtomicBoolean();
    private final AtomicBoolean beating = new AtomicBoolean();
    private final AtomicLong acked = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final Disposable ticker;
    private final reactor.netty.resources.ConnectionProvider pool;
    private volatile boolean healthy = true;
    private long backoffUntil;

    public RemoteResultPublisher(
            String ingestUrl,
            String keyId,
            String region,
            byte[] secret,
            int batchSize,
            Duration flushInterval,
            LongSupplier clock,
            Listener listener) {
        // Idle connections are dropped before ingest's idle timeout closes them, so a batch is never written onto a
        // connection the server is closing at that moment.
        this.pool = reactor.netty.resources.ConnectionProvider.builder("vigil-remote-publisher")
                .maxConnections(4)
                .maxIdleTime(Duration.ofSeconds(30))
                .build();
        this.client = HttpClient.create(pool).responseTimeout(Duration.ofSeconds(10));
        String base = ingestUrl.endsWith("/") ? ingestUrl.substring(0, ingestUrl.length() - 1) : ingestUrl;
        this.resultsUrl = base + "/v1/probe-results";
        this.heartbeatsUrl = base + "/v1/heartbeats";
        this.keyId = keyId;
        this.region = region;
        this.signer = new RequestSigner(secret);
        this.batchSize = batchSize;
        this.clock = clock;
        this.listener = listener;
        this.ticker = worker.schedulePeriodically(
                this::sendNext, flushInterval.toMillis(), flushInterval.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void publish(ProbeResult result) {
        synchronized (pending) {
            if (pending.size() >= MAX_BUFFERED) {
                ProbeResult dropped = pending.pollFirst();
                failed.incrementAndGet();
                listener.failed(dropped, new IllegalStateException("remote buffer full"));
            }
            pending.addLast(result);
            if (pending.size() >= batchSize) {
                worker.schedule(this::sendNext);
            }
        }
    }

    @Override
    public void heartbeat(WorkerHeartbeat heartbeat) {
        if (!beating.compareAndSet(false, true)) {
            beatFailed(heartbeat, "the previous heartbeat is still in flight");
            return;
        }
        byte[] body;
        try {
            body = Json.bytes(List.of(heartbeat));
        } catch (RuntimeException e) {
            beating.set(false);
            beatFailed(heartbeat, "it could not be serialised: " + e.getClass().getSimpleName());
            return;
        }
        post(heartbeatsUrl, body, UUID.randomUUID().toString())
                .doFinally(s -> beating.set(false))
                .subscribe(reply -> {
                    if (reply.accepted()) {
                        listener.heartbeatAcknowledged(heartbeat);
                    } else {
                        beatFailed(heartbeat, reply.describe());
                    }
                });
    }

    private void beatFailed(WorkerHeartbeat heartbeat, String why) {
        LOG.warn("heartbeat of worker {} was not delivered to ingest: {}", heartbeat.workerId(), why);
        listener.heartbeatFailed(heartbeat, new IllegalStateException("heartbeat not delivered: " + why));
    }

    /** Ingest's answer to a signed POST: the status (-1 when none arrived in time) and a short reason. */
    private record Reply(int status, String problem, Duration retryAfter) {
        boolean accepted() {
            return status >= 200 && status < 300;
        }

        String describe() {
            String s = status == -1 ? "no response" : "status " + status;
            return problem == null || problem.isEmpty() ? s : s + " (" + problem + ")";
        }
    }

    /** Sends one batch if none is in flight; on success, continues while full batches wait. */
    private void sendNext() {
        if (clock.getAsLong() < backoffUntil || !sending.compareAndSet(false, true)) {
            return;
        }
        List<ProbeResult> batch = new ArrayList<>();
        synchronized (pending) {
            while (batch.size() < batchSize && !pending.isEmpty()) {
                batch.add(pending.pollFirst());
            }
        }
        if (batch.isEmpty()) {
            sending.set(false);
            return;
        }
        send(batch, UUID.randomUUID().toString(), 0);
    }

    private void send(List<ProbeResult> batch, String requestId, int attempt) {
        post(resultsUrl, Json.bytes(batch), requestId)
                .publishOn(worker)
                .subscribe(reply -> onResponse(batch, requestId, attempt, reply));
    }

    /**
     * One signed JSON POST to ingest, signed at send time. Never fails: no answer within the timeout (or a
     * connection error) is status -1. A refusal carries the problem's {@code detail} (ingest never echoes
     * secrets), cut short, for the log.
     */
    private Mono<Reply> post(String url, byte[] body, String requestId) {
        long ts = clock.getAsLong();
        String signature = signer.sign(ts, requestId, region, body);
        return client.headers(h -> h.set(HttpHeaderNames.CONTENT_TYPE, "application/json")
                        .set(RequestSigner.HEADER_KEY_ID, keyId)
                        .set(RequestSigner.HEADER_TIMESTAMP, Long.toString(ts))
                        .set(RequestSigner.HEADER_REQUEST_ID, requestId)
                        .set(RequestSigner.HEADER_REGION, region)
                        .set(RequestSigner.HEADER_SIGNATURE, signature))
                .post()
                .uri(url)
                .send(ByteBufFlux.fromInbound(Mono.just(body)))
                .responseSingle((res, content) -> {
                    int status = res.status().code();
                    if (status >= 200 && status < 300) {
                        return Mono.just(new Reply(status, null, null));
                    }
                    // ingest answers 503 (Kafka away, body budget full) and 429 with Retry-After: honour it
                    Duration retryAfter = TransientStatus.retryAfter(
                            res.responseHeaders().get(HttpHeaderNames.RETRY_AFTER), Clock.systemUTC());
                    return content.asByteArray()
                            .map(bytes -> new Reply(status, problemDetail(bytes), retryAfter))
                            .defaultIfEmpty(new Reply(status, null, retryAfter));
                })
                .timeout(REQUEST_TIMEOUT)
                .onErrorResume(e -> Mono.just(new Reply(-1, e.getClass().getSimpleName(), null)));
    }

    private static String problemDetail(byte[] body) {
        try {
            var detail = Json.tree(body).get("detail");
            if (detail == null || !detail.isTextual()) {
                return null;
            }
            String d = detail.textValue();
            return d.length() > 300 ? d.substring(0, 300) + "…" : d;
        } catch (RuntimeException e) {
            return null;
        }
    }

    private void onResponse(List<ProbeResult> batch, String requestId, int attempt, Reply reply) {
        int status = reply.status();
        if (status >= 200 && status < 300) {
            healthy = true;
            acked.addAndGet(batch.size());
            batch.forEach(listener::acknowledged);
            if (attempt > 0) {
                listener.retrySucceeded();
            }
            sending.set(false);
            boolean more;
            synchronized (pending) {
                more = pending.size() >= batchSize;
            }
            if (more) {
                worker.schedule(this::sendNext);
            }
            return;
        }
        // no answer at all is as transient as a 503
        if (status == -1 || TransientStatus.isTransient(status)) {
            healthy = false;
            long delay = RETRY.delay(attempt + 1, reply.retryAfter()).toMillis();
            LOG.warn(
                    "ingest did not take a batch of {} results (status {}); retrying in {} ms",
                    batch.size(),
                    status == -1 ? "no response" : status,
                    delay);
            worker.schedule(() -> send(batch, requestId, attempt + 1), delay, TimeUnit.MILLISECONDS);
            return;
        }
        LOG.error("ingest refused a batch of {} results with status {}; dropped", batch.size(), status);
        failed.addAndGet(batch.size());
        batch.forEach(r -> listener.failed(r, new IllegalStateException("ingest refused with status " + status)));
        sending.set(false);
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
        return healthy;
    }

    @Override
    public void close(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            boolean empty;
            synchronized (pending) {
                empty = pending.isEmpty();
            }
            if (empty && !sending.get() && !beating.get()) {
                break;
            }
            worker.schedule(this::sendNext);
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        ticker.dispose();
        worker.dispose();
        pool.disposeLater().subscribe();
    }
}

package dev.vigil.standalone.demo;

import dev.vigil.kit.auth.BearerTokens;
import dev.vigil.schemas.contract.CheckType;
import dev.vigil.schemas.contract.MonitorDefinition;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The demo's cron job: a heartbeat monitor ({@value #ID}, a window every {@link #INTERVAL}, {@link #GRACE} grace)
 * and a job that pings ingest every {@link #PING_EVERY} until {@link #STOPS_AT}, then goes silent — as a nightly
 * backup that stopped running would — so the missed heartbeat pages.
 */
public final class DemoHeartbeat implements AutoCloseable {
    public static final String ID = "demo-heartbeat";
    public static final Duration INTERVAL = Duration.ofSeconds(20);
    public static final Duration GRACE = Duration.ofSeconds(5);
    public static final Duration PING_EVERY = Duration.ofSeconds(10);
    public static final Duration STOPS_AT = Duration.ofSeconds(90);

    private final String token = BearerTokens.generate();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "vigil-demo-heartbeat");
        t.setDaemon(true);
        return t;
    });
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final AtomicInteger accepted = new AtomicInteger();

    /** The heartbeat monitor, with the hash of this job's token. */
    public MonitorDefinition monitor() {
        return new MonitorDefinition(
                1,
                ID,
                "Demo: nightly job heartbeat",
                null,
                null,
                (int) INTERVAL.toSeconds(),
                2500,
                List.of(),
                null,
                null,
                null,
                "demo",
                ID,
                Map.of(),
                true,
                CheckType.HEARTBEAT,
                null,
                null,
                null,
                null,
                null,
                new MonitorDefinition.Heartbeat(null, null, (int) GRACE.toSeconds(), BearerTokens.hash(token)));
    }

    /** Starts pinging {@code ingestBase} ({@code http://host:port}) now, every {@link #PING_EVERY}, until {@link #STOPS_AT}. */
    public DemoHeartbeat start(String ingestBase) {
        URI ping = URI.create(ingestBase + "/v1/heartbeat/" + ID);
        long pings = STOPS_AT.dividedBy(PING_EVERY);
        AtomicInteger sent = new AtomicInteger();
        timer.scheduleAtFixedRate(
                () -> {
                    if (sent.incrementAndGet() > pings) {
                        timer.shutdown();
                        return;
                    }
                    HttpRequest request = HttpRequest.newBuilder(ping)
                            .timeout(Duration.ofSeconds(5))
                            .header("Authorization", "Bearer " + token)
                            .POST(HttpRequest.BodyPublishers.noBody())
                            .build();
                    http.sendAsync(request, HttpResponse.BodyHandlers.discarding())
                            .thenAccept(r -> {
                                if (r.statusCode() / 100 == 2) {
                                    accepted.incrementAndGet();
                                }
                            });
                },
                0,
                PING_EVERY.toMillis(),
                TimeUnit.MILLISECONDS);
        return this;
    }

    /** Pings ingest accepted so far. */
    public int accepted() {
        return accepted.get();
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}

package dev.vigil.ingest.heartbeat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.ingest.publish.PublishResult;
import dev.vigil.kit.auth.BearerTokens;
import dev.vigil.schemas.contract.CheckType;
import dev.vigil.schemas.contract.HeartbeatSchedules;
import dev.vigil.schemas.contract.MonitorDefinition;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class HeartbeatCatalogTest {
    static final String TOKEN = BearerTokens.generate();

    static MonitorDefinition heartbeat(String id, String tokenSha256, Boolean enabled) {
        return new MonitorDefinition(
                1,
                id,
                null,
                null,
                null,
                600,
                null,
                List.of(),
                null,
                null,
                null,
                null,
                null,
                Map.of(),
                enabled,
                CheckType.HEARTBEAT,
                null,
                null,
                null,
                null,
                null,
                new MonitorDefinition.Heartbeat(null, null, 60, tokenSha256));
    }

    static MonitorDefinition http(String id) {
        return new MonitorDefinition(
                1,
                id,
                null,
                "https://" + id + ".example.com/",
                null,
                60,
                null,
                List.of("eu-west"),
                null,
                null,
                null,
                null,
                null,
                null,
                null);
    }

    private static String bearer(String token) {
        return "Bearer " + token;
    }

    @Test
    void onlyEnabledHeartbeatMonitorsWithATokenArePingableAndEveryRefusalLooksTheSame() {
        HeartbeatCatalog catalog = new HeartbeatCatalog();
        String hash = BearerTokens.hash(TOKEN);
        catalog.apply("nightly", heartbeat("nightly", hash, null));
        catalog.apply("off", heartbeat("off", hash, false));
        catalog.apply("tokenless", heartbeat("tokenless", null, null));
        catalog.apply("api", http("api"));
        catalog.apply("other-key", heartbeat("nightly-2", hash, null));
        assertThat(catalog.size()).isEqualTo(1);

        assertThat(catalog.authenticate("nightly", bearer(TOKEN))).isNotNull().satisfies(m -> assertThat(m.id())
                .isEqualTo("nightly"));
        for (String id : new String[] {"off", "tokenless", "api", "other-key", "nightly-2", "nobody", ""}) {
            assertThat(catalog.authenticate(id, bearer(TOKEN))).as(id).isNull();
        }
        assertThat(catalog.authenticate("nightly", bearer(BearerTokens.generate())))
                .isNull();
        assertThat(catalog.authenticate("nightly", bearer(TOKEN.toUpperCase()))).isNull();
        assertThat(catalog.authenticate("nightly", bearer(hash)))
                .as("the hash is no token")
                .isNull();
        assertThat(catalog.authenticate("nightly", "Basic " + TOKEN)).isNull();
        assertThat(catalog.authenticate("nightly", TOKEN)).isNull();
    }

    @Test
    void aMonitorThatStopsBeingPingableIsDroppedAndATombstoneDeletes() {
        HeartbeatCatalog catalog = new HeartbeatCatalog();
        String hash = BearerTokens.hash(TOKEN);
        catalog.apply("a", heartbeat("a", hash, null));
        catalog.apply("b", heartbeat("b", hash, null));
        catalog.apply("c", heartbeat("c", hash, null));
        catalog.apply("a", heartbeat("a", hash, false));
        catalog.apply("b", http("b"));
        catalog.apply("c", null);
        assertThat(catalog.size()).isZero();
        catalog.apply("a", heartbeat("a", BearerTokens.hash("vgl_rotated"), null));
        assertThat(catalog.authenticate("a", bearer(TOKEN)))
                .as("the old token is gone with its rotation")
                .isNull();
        assertThat(catalog.authenticate("a", bearer("vgl_rotated"))).isNotNull();
        assertThat(catalog.ready()).isFalse();
        catalog.markReady();
        assertThat(catalog.ready()).isTrue();
    }

    @Test
    void theSameDefinitionAgainKeepsWhatWasPublished() {
        HeartbeatCatalog catalog = new HeartbeatCatalog();
        MonitorDefinition def = heartbeat("a", BearerTokens.hash(TOKEN), null);
        catalog.apply("a", def);
        HeartbeatMonitor first = catalog.authenticate("a", bearer(TOKEN));
        catalog.apply("a", heartbeat("a", BearerTokens.hash(TOKEN), null));
        assertThat(catalog.authenticate("a", bearer(TOKEN))).isSameAs(first);
    }

    @Test
    void oneClaimPerWindowAndKindAnUnavailableOneIsForgottenALaterWindowReplacesIt() {
        HeartbeatMonitor m = new HeartbeatMonitor(heartbeat("a", BearerTokens.hash(TOKEN), null));
        long w = 1_800_000_000_000L;
        HeartbeatMonitor.Claim first = m.claim(true, w);
        assertThat(first.take()).isTrue();
        HeartbeatMonitor.Claim again = m.claim(true, w);
        assertThat(again).isSameAs(first);
        assertThat(again.take()).as("the window's success is being published").isFalse();
        HeartbeatMonitor.Claim failure = m.claim(false, w);
        assertThat(failure.take()).as("a failure is another kind").isTrue();

        m.settle(true, first, PublishResult.UNAVAILABLE);
        assertThat(again.result()).isCompletedWithValue(PublishResult.UNAVAILABLE);
        HeartbeatMonitor.Claim retry = m.claim(true, w);
        assertThat(retry).isNotSameAs(first);
        assertThat(retry.take())
                .as("Kafka did not take it: the next ping publishes")
                .isTrue();
        m.settle(true, retry, PublishResult.ACKNOWLEDGED);
        assertThat(m.claim(true, w).take()).isFalse();

        HeartbeatMonitor.Claim next = m.claim(true, w + 600_000);
        assertThat(next.take()).isTrue();
        HeartbeatMonitor.Claim overtaken = m.claim(true, w);
        assertThat(overtaken.take())
                .as("a ping of the previous window, overtaken: published, not remembered")
                .isTrue();
        assertThat(m.claim(true, w + 600_000)).isSameAs(next);
    }

    @Test
    void concurrentPingsOfOneWindowPublishOnce() throws Exception {
        HeartbeatMonitor m = new HeartbeatMonitor(heartbeat("a", BearerTokens.hash(TOKEN), null));
        AtomicInteger owners = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        CountDownLatch go = new CountDownLatch(1);
        for (int i = 0; i < 8; i++) {
            pool.execute(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                for (int n = 0; n < 10_000; n++) {
                    if (m.claim(true, 42L).take()) {
                        owners.incrementAndGet();
                    }
                }
            });
        }
        go.countDown();
        pool.shutdown();
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        assertThat(owners).hasValue(1);
    }

    @Test
    void theWindowIsRememberedUntilTimeLeavesIt() {
        MonitorDefinition cron = new MonitorDefinition(
                1,
                "n",
                null,
                null,
                null,
                86_400,
                null,
                List.of(),
                null,
                null,
                null,
                null,
                null,
                Map.of(),
                null,
                CheckType.HEARTBEAT,
                null,
                null,
                null,
                null,
                null,
                new MonitorDefinition.Heartbeat("0 2 * * *", "Europe/Paris", 60, BearerTokens.hash(TOKEN)));
        HeartbeatMonitor m = new HeartbeatMonitor(cron);
        long at = Instant.parse("2026-10-25T12:00:00Z").toEpochMilli();
        HeartbeatSchedules.Window w = m.windowAt(at);
        assertThat(w).isEqualTo(HeartbeatSchedules.windowAt(cron, at));
        assertThat(m.windowAt(at + 3_600_000)).isSameAs(w);
        assertThat(m.windowAt(w.end())).isEqualTo(HeartbeatSchedules.windowAt(cron, w.end()));
        assertThat(m.windowAt(w.start() - 1)).isEqualTo(HeartbeatSchedules.windowAt(cron, w.start() - 1));
    }
}

package dev.vigil.standalone.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.MonitorDefinition;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.netty.http.client.HttpClient;

class DemoTargetsTest {
    /** A clock the test moves by hand. */
    static final class ManualClock extends Clock {
        private volatile Instant now = Instant.parse("2026-11-30T12:00:00Z");

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    private final ManualClock clock = new ManualClock();
    private final DemoTargets targets = DemoTargets.start("127.0.0.1", 0, clock);

    @AfterEach
    void stop() {
        targets.close();
    }

    private int get(String url, String region) {
        return HttpClient.create()
                .headers(h -> h.add("X-Vigil-Region", region))
                .get()
                .uri(url)
                .response()
                .map(r -> r.status().code())
                .block(Duration.ofSeconds(5));
    }

    @Test
    void servesTheScenarioOverLoopback() {
        assertThat(get(targets.url("outage"), "us-east")).isEqualTo(200);
        clock.advance(DemoScenario.OUTAGE_START);
        assertThat(get(targets.url("outage"), "us-east")).isEqualTo(503);
        clock.advance(DemoScenario.DEGRADE_START.minus(DemoScenario.OUTAGE_START));
        assertThat(get(targets.url("escalating"), DemoScenario.FIRST_FAILING_REGION))
                .isEqualTo(503);
        assertThat(get(targets.url("escalating"), "us-east")).isEqualTo(200);
        assertThat(get("http://127.0.0.1:" + targets.port() + "/nope/health", "us-east"))
                .isEqualTo(404);
    }

    @Test
    void theTcpServiceGreetsWithTheBannerItsMonitorExpects() throws Exception {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", targets.tcpPort())) {
            socket.setSoTimeout(5000);
            byte[] buf = new byte[256];
            int n = socket.getInputStream().read(buf);
            assertThat(new String(buf, 0, n, java.nio.charset.StandardCharsets.US_ASCII))
                    .isEqualTo(DemoTargets.TCP_BANNER);
        }
        MonitorDefinition tcp = targets.tcpMonitor(List.of("us-east", "eu-west"));
        assertThat(tcp.type()).isEqualTo(dev.vigil.schemas.contract.CheckType.TCP);
        assertThat(tcp.tcp().port()).isEqualTo(targets.tcpPort());
        assertThat(DemoTargets.TCP_BANNER).contains(tcp.tcp().expect());
        assertThat(tcp.regions()).containsExactly("us-east", "eu-west");
    }

    @Test
    void withAFixedPortTheTcpServiceListensOnTheNextSoARestartFindsItWhereItWas() throws Exception {
        int port = 0;
        for (int attempt = 0; attempt < 20 && port == 0; attempt++) {
            try (java.net.ServerSocket a = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
                int p = a.getLocalPort();
                try (java.net.ServerSocket b =
                        new java.net.ServerSocket(p + 1, 1, java.net.InetAddress.getLoopbackAddress())) {
                    port = p;
                } catch (java.io.IOException busy) {
                    // the next port is taken: try another pair
                }
            }
        }
        assertThat(port).as("two adjacent free ports").isPositive();
        try (DemoTargets fixed = DemoTargets.start("127.0.0.1", port, clock)) {
            assertThat(fixed.tcpPort()).isEqualTo(port + 1);
            assertThat(fixed.tcpMonitor(List.of("us-east")).tcp().port()).isEqualTo(port + 1);
        }
    }

    @Test
    void theHeartbeatMonitorIsPushedToWithTheJobsTokenHash() {
        try (DemoHeartbeat job = new DemoHeartbeat()) {
            MonitorDefinition hb = job.monitor();
            assertThat(hb.type()).isEqualTo(dev.vigil.schemas.contract.CheckType.HEARTBEAT);
            assertThat(hb.regions()).containsExactly(MonitorDefinition.PUSH_REGION);
            assertThat(hb.intervalSeconds()).isEqualTo((int) DemoHeartbeat.INTERVAL.toSeconds());
            assertThat(hb.heartbeat().graceSeconds()).isEqualTo((int) DemoHeartbeat.GRACE.toSeconds());
            assertThat(hb.heartbeat().tokenSha256()).matches("[0-9a-f]{64}");
            // the job stops well before the demo's other stories end, and pings more often than its window
            assertThat(DemoHeartbeat.PING_EVERY).isLessThan(DemoHeartbeat.INTERVAL);
            assertThat(DemoHeartbeat.STOPS_AT).isLessThan(DemoScenario.OUTAGE_END);
        }
    }

    @Test
    void forcedStateOverridesTheScript() {
        targets.force("healthy", false);
        assertThat(get(targets.url("healthy"), "us-east")).isEqualTo(503);
        targets.force("healthy", true);
        assertThat(get(targets.url("healthy"), "us-east")).isEqualTo(200);
    }

    @Test
    void monitorsCoverEveryTargetAtTenSeconds() {
        List<MonitorDefinition> monitors = targets.monitors(List.of("us-east", "eu-west", "asia-east"));
        assertThat(monitors).hasSize(DemoTargets.TARGETS.size()).allSatisfy(m -> {
            assertThat(m.intervalSeconds()).isEqualTo(10);
            assertThat(m.expect().json()).isEqualTo(MonitorDefinition.JsonAssertion.HEALTH);
            assertThat(m.url()).startsWith("http://127.0.0.1:" + targets.port());
        });
        assertThat(monitors)
                .filteredOn(m -> m.id().equals("demo-slow"))
                .singleElement()
                .satisfies(m -> assertThat(m.expect().maxResponseMs()).isEqualTo(1000));
    }
}

package dev.vigil.streams.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.kit.net.Cidr;
import dev.vigil.kit.net.TargetGuard;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.RegionStatus;
import dev.vigil.schemas.json.Json;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

class MonitorChecksTest {
    private static MonitorDefinition read(String json) {
        return MonitorChecks.read(Json.tree(json.getBytes(java.nio.charset.StandardCharsets.UTF_8)), null, "");
    }

    @Test
    void credentialHeadersAreAcceptedOnlyByReference() {
        for (String name :
                List.of("Authorization", "cookie", "X-Api-Key", "X-Session-Id", "X-Upstream-Token", "apikey")) {
            assertThatThrownBy(() ->
                            read("{\"id\":\"a\",\"url\":\"https://93.184.216.34/\",\"regions\":[\"r\"],\"headers\":{\""
                                    + name + "\":\"hunter2\"}}"))
                    .isInstanceOfSatisfying(ContractViolation.class, v -> {
                        assertThat(v.field()).isEqualTo("headers." + name);
                        assertThat(v.getMessage()).doesNotContain("hunter2").contains("secretEnv");
                    });
        }
        MonitorDefinition ok = read("{\"id\":\"a\",\"url\":\"https://93.184.216.34/\",\"regions\":[\"r\"],\"headers\":{"
                + "\"Authorization\":{\"secretEnv\":\"API_TOKEN\"},\"Accept\":\"application/json\"}}");
        assertThat(ok.headers()).containsKeys("Authorization", "Accept");
    }

    @Test
    void aLinkMayNotTakeTheNameOfOneTheConsoleGivesEveryPage() {
        assertThatThrownBy(() -> MonitorChecks.read(
                        Json.tree(("{\"id\":\"a\",\"url\":\"https://93.184.216.34/\",\"regions\":[\"r\"],"
                                        + "\"links\":{\"runbook\":\"https://wiki.example.com/a\","
                                        + "\"incident\":\"https://elsewhere.example.com/\"}}")
                                .getBytes()),
                        null,
                        "monitors[4]"))
                .isInstanceOfSatisfying(ContractViolation.class, v -> {
                    assertThat(v.field()).isEqualTo("monitors[4].links.incident");
                    assertThat(v.getMessage()).contains("runbook or dashboard");
                });
        assertThat(read("{\"id\":\"a\",\"url\":\"https://93.184.216.34/\",\"regions\":[\"r\"],"
                                + "\"links\":{\"runbook\":\"https://wiki.example.com/a\"}}")
                        .links())
                .containsKey("runbook");
    }

    @Test
    void theBodyIsReadStrictlyAndTheUrlIdWins() {
        assertThatThrownBy(() -> read("{\"id\":\"a\",\"url\":\"https://93.184.216.34/\",\"regoins\":[\"us-east\"]}"))
                .isInstanceOfSatisfying(
                        ContractViolation.class, v -> assertThat(v.field()).isEqualTo("regoins"));
        assertThatThrownBy(() -> read(
                        "{\"id\":\"a\",\"type\":\"tcp\",\"regions\":[\"r\"],\"tcp\":{\"host\":\"h\",\"port\":70000}}"))
                .isInstanceOfSatisfying(
                        ContractViolation.class, v -> assertThat(v.field()).isEqualTo("tcp.port"));
        assertThatThrownBy(() -> MonitorChecks.read(
                        Json.tree("{\"id\":\"b\",\"url\":\"https://93.184.216.34/\",\"regions\":[\"r\"]}".getBytes()),
                        "a",
                        "monitors[2]"))
                .isInstanceOfSatisfying(
                        ContractViolation.class, v -> assertThat(v.field()).isEqualTo("monitors[2].id"));
        assertThat(MonitorChecks.read(
                                Json.tree("{\"url\":\"https://93.184.216.34/\",\"regions\":[\"r\"]}".getBytes()),
                                "a",
                                "")
                        .id())
                .isEqualTo("a");
    }

    @Test
    void regionsNoWorkerServedAreNamedByPositionUnlessRolledOut() {
        long now = 1_000;
        Map<String, RegionStatus> known = Map.of(
                "us-east", new RegionStatus(1, "us-east", 1, 1, 0, now, null, now),
                "eu-west", new RegionStatus(1, "eu-west", 0, 0, 0, null, null, now));
        MonitorDefinition m = read("{\"id\":\"a\",\"url\":\"https://93.184.216.34/\",\"regions\":[\"us-east\","
                + "\"eu-west\",\"ap-south\"]}");
        List<ContractViolation> refused = MonitorChecks.unknownRegions(m, known, Set.of("ap-south"), "monitors[4]");
        assertThat(refused).extracting(ContractViolation::field).containsExactly("monitors[4].regions[1]");
        assertThat(refused.get(0).problem()).contains("known: us-east");
        MonitorDefinition heartbeat = read("{\"id\":\"h\",\"type\":\"heartbeat\"}");
        assertThat(MonitorChecks.unknownRegions(heartbeat, Map.of(), Set.of(), ""))
                .isEmpty();
    }

    @Test
    void targetsAreJudgedAsTheProbeJudgesThem() throws Exception {
        InetAddress internal = InetAddress.getByName("10.0.0.7");
        MonitorChecks checks = new MonitorChecks(
                new TargetGuard(
                        List.of(Cidr.parse("127.0.0.0/8")),
                        host -> host.equals("intranet.example")
                                ? Mono.just(List.of(internal))
                                : Mono.error(new java.net.UnknownHostException(host))),
                Duration.ofSeconds(1));
        assertThat(checks.target(read("{\"id\":\"a\",\"url\":\"http://intranet.example/\",\"regions\":[\"r\"]}"), "")
                        .block())
                .satisfies(v -> {
                    assertThat(v.refused()).isTrue();
                    assertThat(v.field()).isEqualTo("url");
                    assertThat(v.detail()).contains("private");
                });
        assertThat(checks.target(read("{\"id\":\"a\",\"url\":\"http://127.0.0.1:8080/\",\"regions\":[\"r\"]}"), "")
                        .block()
                        .verdict())
                .as("in the workers' allow-list")
                .isEqualTo("allowed");
        assertThat(checks.target(read("{\"id\":\"a\",\"url\":\"https://not-yet.example/\",\"regions\":[\"r\"]}"), "")
                        .block()
                        .verdict())
                .isEqualTo("unresolved");
        assertThat(checks.target(
                                read(
                                        "{\"id\":\"a\",\"type\":\"dns\",\"regions\":[\"r\"],\"dns\":{\"query\":\"x.example\","
                                                + "\"resolver\":\"169.254.169.254:53\"}}"),
                                "monitors[1]")
                        .block())
                .satisfies(v -> {
                    assertThat(v.refused()).isTrue();
                    assertThat(v.field()).isEqualTo("monitors[1].dns.resolver");
                });
        assertThat(checks.target(read("{\"id\":\"h\",\"type\":\"heartbeat\"}"), "")
                        .block()
                        .verdict())
                .isEqualTo("not-judged");
    }

    @Test
    void resolversSplitIntoHostAndPort() {
        assertThat(MonitorChecks.resolverHostPort("9.9.9.9")).containsExactly("9.9.9.9", "53");
        assertThat(MonitorChecks.resolverHostPort("9.9.9.9:5353")).containsExactly("9.9.9.9", "5353");
        assertThat(MonitorChecks.resolverHostPort("[2620:fe::fe]:53")).containsExactly("2620:fe::fe", "53");
        assertThat(MonitorChecks.resolverHostPort("2620:fe::fe")).containsExactly("2620:fe::fe", "53");
    }
}

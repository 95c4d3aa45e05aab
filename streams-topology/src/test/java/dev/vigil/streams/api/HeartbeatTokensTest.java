package dev.vigil.streams.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.kit.auth.BearerTokens;
import dev.vigil.schemas.contract.CheckType;
import dev.vigil.schemas.contract.MonitorDefinition;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class HeartbeatTokensTest {
    static MonitorDefinition heartbeat(String id, String schedule, String tokenSha256) {
        return new MonitorDefinition(
                1,
                id,
                null,
                null,
                null,
                86_400,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                CheckType.HEARTBEAT,
                null,
                null,
                null,
                null,
                null,
                new MonitorDefinition.Heartbeat(schedule, "Europe/Paris", 120, tokenSha256));
    }

    static MonitorDefinition http(String id) {
        return MonitorDiffTest.monitor(id, 60, List.of("us-east"));
    }

    private static Supplier<String> tokens(String... values) {
        Deque<String> queue = new ArrayDeque<>(List.of(values));
        return queue::removeFirst;
    }

    @Test
    void aNewHeartbeatMonitorGetsATokenWhoseHashAloneIsPublished() {
        MonitorDefinition api = http("api");
        HeartbeatTokens.Prepared p = HeartbeatTokens.prepare(
                Map.of(), List.of(api, heartbeat("nightly", "0 2 * * *", null)), Set.of(), tokens("vgl_one"));
        assertThat(p.issued()).containsExactly(new HeartbeatTokens.Issued("nightly", "vgl_one"));
        assertThat(p.monitors()).extracting(MonitorDefinition::id).containsExactly("api", "nightly");
        MonitorDefinition nightly = p.monitors().get(1);
        assertThat(nightly.heartbeat().tokenSha256()).isEqualTo(BearerTokens.hash("vgl_one"));
        assertThat(nightly.heartbeat().schedule()).isEqualTo("0 2 * * *");
        assertThat(nightly.heartbeat().graceSeconds()).isEqualTo(120);
        assertThat(nightly).isEqualTo(heartbeat("nightly", "0 2 * * *", BearerTokens.hash("vgl_one")));
        assertThat(p.monitors().get(0)).as("other types pass unchanged").isSameAs(api);
        assertThat(HeartbeatTokens.pingPath(p.issued().get(0))).isEqualTo("/v1/heartbeat/nightly");
        String printed = HeartbeatTokens.pingInstructions(p.issued().get(0), "https://ingest.example");
        assertThat(printed).doesNotContain("token=").doesNotContain("GET");
        assertThat(printed.split("vgl_one", -1)).as("the token is printed once").hasSize(2);
        assertThat(printed)
                .contains(
                        "curl -fsS -m 10 --retry 3 -X POST -H \"Authorization: Bearer $VIGIL_PING_TOKEN\" "
                                + "https://ingest.example/v1/heartbeat/nightly\n",
                        "https://ingest.example/v1/heartbeat/nightly/fail");
        assertThat(HeartbeatTokens.pingInstructions(p.issued().get(0), null))
                .contains(" /v1/heartbeat/nightly\n")
                .contains("management.ingestUrl");
        assertThat(p.issued().get(0).toString()).doesNotContain("vgl_one");
    }

    @Test
    void reApplyingKeepsThePublishedHashSoTheDiffShowsNoChange() {
        String hash = BearerTokens.hash("vgl_kept");
        Map<String, MonitorDefinition> current = Map.of("nightly", heartbeat("nightly", "0 2 * * *", hash));
        HeartbeatTokens.Prepared p =
                HeartbeatTokens.prepare(current, List.of(heartbeat("nightly", "0 2 * * *", null)), Set.of(), tokens());
        assertThat(p.issued()).isEmpty();
        assertThat(p.monitors().get(0).heartbeat().tokenSha256()).isEqualTo(hash);
        MonitorDiff diff = MonitorDiff.between(current, p.monitors());
        assertThat(diff.unchanged()).containsExactly("nightly");
        assertThat(diff.isEmpty(true)).isTrue();

        // a change elsewhere keeps the token too: the diff names only that field
        HeartbeatTokens.Prepared edited =
                HeartbeatTokens.prepare(current, List.of(heartbeat("nightly", "30 3 * * *", null)), Set.of(), tokens());
        assertThat(edited.issued()).isEmpty();
        assertThat(MonitorDiff.between(current, edited.monitors()).changed())
                .singleElement()
                .satisfies(c -> assertThat(c.fields()).containsExactly("heartbeat"));
        assertThat(edited.monitors().get(0).heartbeat().tokenSha256()).isEqualTo(hash);
    }

    @Test
    void rotationIssuesANewTokenAndAMonitorThatHadNoneOrAnotherTypeGetsOne() {
        String hash = BearerTokens.hash("vgl_old");
        Map<String, MonitorDefinition> current = Map.of(
                "nightly",
                heartbeat("nightly", null, hash),
                "tokenless",
                heartbeat("tokenless", null, null),
                "was-http",
                http("was-http"));
        HeartbeatTokens.Prepared p = HeartbeatTokens.prepare(
                current,
                List.of(
                        heartbeat("nightly", null, null),
                        heartbeat("tokenless", null, null),
                        heartbeat("was-http", null, null)),
                Set.of("nightly"),
                tokens("vgl_a", "vgl_b", "vgl_c"));
        assertThat(p.issued())
                .extracting(HeartbeatTokens.Issued::monitorId)
                .containsExactly("nightly", "tokenless", "was-http");
        assertThat(p.monitors().get(0).heartbeat().tokenSha256())
                .isEqualTo(BearerTokens.hash("vgl_a"))
                .isNotEqualTo(hash);
        assertThat(MonitorDiff.between(current, p.monitors()).changed())
                .extracting(c -> c.next().id())
                .containsExactly("nightly", "tokenless", "was-http");
    }

    @Test
    void aHashWrittenInTheFileIsTheFilesToManage() {
        String mine = BearerTokens.hash("vgl_mine");
        Map<String, MonitorDefinition> current = Map.of("nightly", heartbeat("nightly", null, BearerTokens.hash("x")));
        HeartbeatTokens.Prepared p =
                HeartbeatTokens.prepare(current, List.of(heartbeat("nightly", null, mine)), Set.of(), tokens());
        assertThat(p.issued()).isEmpty();
        assertThat(p.monitors().get(0).heartbeat().tokenSha256()).isEqualTo(mine);
        assertThatThrownBy(() -> HeartbeatTokens.prepare(
                        current, List.of(heartbeat("nightly", null, mine)), Set.of("nightly"), tokens("vgl_new")))
                .hasMessageContaining("written in the file");
    }

    @Test
    void rotatingWhatIsNoHeartbeatMonitorOfTheFileIsAnError() {
        assertThatThrownBy(() -> HeartbeatTokens.prepare(
                        Map.of(),
                        List.of(http("api"), heartbeat("nightly", null, null)),
                        Set.of("api", "ghost"),
                        tokens("vgl_1")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--rotate-heartbeat-token api, ghost: not a heartbeat monitor of the file");
    }
}

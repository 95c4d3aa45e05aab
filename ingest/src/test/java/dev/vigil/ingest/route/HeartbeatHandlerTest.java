package dev.vigil.ingest.route;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.CheckType;
import dev.vigil.schemas.contract.ErrorKind;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HeartbeatHandlerTest {
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "/v1/heartbeat/nightly                | nightly | false",
                "/v1/heartbeat/nightly/fail           | nightly | true",
                "/v1/heartbeat/fail                   | fail    | false",
                "/v1/heartbeat/fail/fail              | fail    | true",
                "/v1/heartbeat/                       | -       | -",
                "/v1/heartbeat//fail                  | -       | -",
                "/v1/heartbeat/nightly/                | -       | -",
                "/v1/heartbeat/nightly/extra          | -       | -",
                "/v1/heartbeat/nightly/fail/          | -       | -",
                "/v1/heartbeats                       | -       | -",
                "/v1/heartbeat                        | -       | -",
                "/V1/heartbeat/nightly                | -       | -"
            })
    void pingPaths(String path, String id, String fail) {
        HeartbeatHandler.Target t = HeartbeatHandler.Target.of(path);
        if ("-".equals(id)) {
            assertThat(t).isNull();
        } else {
            assertThat(t).isEqualTo(new HeartbeatHandler.Target(id, Boolean.parseBoolean(fail)));
        }
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "/v1/heartbeat/a?token=vgl_abc              | vgl_abc",
                "/v1/heartbeat/a?x=1&token=vgl_abc&y=2      | vgl_abc",
                "/v1/heartbeat/a?token=vgl_abc&token=other  | vgl_abc",
                "/v1/heartbeat/a?token=&token=vgl_abc       | vgl_abc",
                "/v1/heartbeat/a?token=vgl%5Fabc            | vgl%5Fabc",
                "/v1/heartbeat/a?token=                     | -",
                "/v1/heartbeat/a?token                      | -",
                "/v1/heartbeat/a?Token=vgl_abc              | -",
                "/v1/heartbeat/a?tokens=vgl_abc             | -",
                "/v1/heartbeat/a?xtoken=vgl_abc             | -",
                "/v1/heartbeat/a                            | -",
                "/v1/heartbeat/a?                           | -"
            })
    void theTokenQueryParameterIsTakenAsSent(String uri, String token) {
        assertThat(HeartbeatHandler.queryToken(uri)).isEqualTo("-".equals(token) ? null : token);
    }

    @Test
    void aPingIsAValidPushResultOfItsWindow() {
        ProbeResult ok = HeartbeatHandler.result("nightly", 1_000L, 1_500L, true);
        assertThat(ok.region()).isEqualTo("push");
        assertThat(ok.workerId()).isEqualTo("ingest");
        assertThat(ok.windowStart()).isEqualTo(1_000L);
        assertThat(ok.startedAt()).isEqualTo(1_500L);
        assertThat(ok.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(ok.errorKind()).isNull();
        assertThat(ok.httpStatus()).isNull();
        assertThat(ok.checkType()).isEqualTo(CheckType.HEARTBEAT);
        ProbeResult failed = HeartbeatHandler.result("nightly", 1_000L, 1_500L, false);
        assertThat(failed.outcome()).isEqualTo(Outcome.ASSERTION_FAILURE);
        assertThat(failed.errorKind()).isEqualTo(ErrorKind.REPORTED_FAILURE);
        assertThat(failed.requestId()).isNotEqualTo(ok.requestId()).hasSize(36);
    }
}

package dev.vigil.ingest.route;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PathRedactionTest {
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "/v1/integrations/betterstack/vgl_secret_token        | /v1/integrations/betterstack/…",
                "v1/integrations/betterstack/vgl_secret_token         | v1/integrations/betterstack/…",
                "/v1/integrations/betterstack/vgl_secret_token/extra  | /v1/integrations/betterstack/…",
                "/v1/integrations/betterstack/vgl_secret_token?x=1    | /v1/integrations/betterstack/…",
                "/V1/INTEGRATIONS/BETTERSTACK/vgl_secret_token        | /V1/INTEGRATIONS/BETTERSTACK/…",
                "//v1//integrations//betterstack//vgl_secret_token    | //v1//integrations//betterstack/…",
                "/v1/integrations/betterstack%2Fvgl_secret_token      | /v1/integrations/betterstack/…",
                "/v1/integrations/betterstackvgl_secret_token         | /v1/integrations/betterstack/…",
                "/v1/integrations/betterstack                         | /v1/integrations/betterstack",
                "/v1/metrics                                          | /v1/metrics",
                "''                                                   | ''"
            })
    void whateverFollowsBetterstackIsNeverWritten(String path, String written) {
        assertThat(PathRedaction.redact(path)).isEqualTo(written).doesNotContain("secret");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "/v1/heartbeat/nightly?token=vgl_secret_token                 | /v1/heartbeat/nightly?token=…",
                "/v1/heartbeat/nightly/fail?token=vgl_secret_token            | /v1/heartbeat/nightly/fail?token=…",
                "/v1/heartbeat/nightly?x=1&token=vgl_secret_token&y=2         | /v1/heartbeat/nightly?x=…&token=…&y=…",
                "/v1/heartbeat/nightly?Token=vgl_secret_token                 | /v1/heartbeat/nightly?Token=…",
                "/v1/heartbeat/nightly?%74oken=vgl_secret_token               | /v1/heartbeat/nightly?%74oken=…",
                "/v1/heartbeat/nightly?vgl_secret_token                       | /v1/heartbeat/nightly?…",
                "/v1/heartbeat/nightly?token=vgl_secret_token&token=vgl_secret | /v1/heartbeat/nightly?token=…&token=…",
                "/v1/heartbeat/nightly?token=                                 | /v1/heartbeat/nightly?token=…",
                "/v1/heartbeat/nightly?&&token=vgl_secret_token               | /v1/heartbeat/nightly?&&token=…",
                "/v1/metrics?token=vgl_secret_token                           | /v1/metrics?token=…",
                "/v1/heartbeat/nightly?                                       | /v1/heartbeat/nightly?",
                "/v1/heartbeat/nightly                                        | /v1/heartbeat/nightly"
            })
    void queryParameterValuesAreNeverWritten(String uri, String written) {
        assertThat(PathRedaction.redact(uri)).isEqualTo(written).doesNotContain("secret");
    }
}

package dev.vigil.ingest.route;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PathRedactionTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
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
        "''                                                   | ''"})
    void whateverFollowsBetterstackIsNeverWritten(String path, String written) {
        assertThat(PathRedaction.redact(path)).isEqualTo(written).doesNotContain("secret");
    }
}

package dev.vigil.ingest.auth;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WebhookTokenTest {
    private static final String TOKEN = "vgl_Xq3-9aZ_bT7kLm2Pq8Rs4Uv6Wy0Az1Bc5De7Fg9Hj";
    private final WebhookToken token = WebhookToken.of(TOKEN);

    @Test
    void theTokenMatchesAsAPathSegmentAndAsABearerHeader() {
        assertThat(token.matchesPathSegment(TOKEN)).isTrue();
        assertThat(token.matchesAuthorization("Bearer " + TOKEN)).isTrue();
        assertThat(token.matchesAuthorization("bearer " + TOKEN))
                .as("the scheme is case-insensitive")
                .isTrue();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "VGL_XQ3-9AZ_BT7KLM2PQ8RS4UV6WY0AZ1BC5DE7FG9HJ",
                "vgl_xq3-9az_bt7klm2pq8rs4uv6wy0az1bc5de7fg9hj",
                "vgl_Xq3-9aZ_bT7kLm2Pq8Rs4Uv6Wy0Az1Bc5De7Fg9Hj/",
                "vgl_Xq3-9aZ_bT7kLm2Pq8Rs4Uv6Wy0Az1Bc5De7Fg9Hj/extra",
                "vgl_Xq3-9aZ_bT7kLm2Pq8Rs4Uv6Wy0Az1Bc5De7Fg9H",
                "vgl_Xq3-9aZ_bT7kLm2Pq8Rs4Uv6Wy0Az1Bc5De7Fg9Hjj",
                "vgl_Xq3-9aZ_bT7kLm2Pq8Rs4Uv6Wy0Az1Bc5De7Fg9H%6A",
                " vgl_Xq3-9aZ_bT7kLm2Pq8Rs4Uv6Wy0Az1Bc5De7Fg9Hj",
                "vgl_Xq3-9aZ_bT7kLm2Pq8Rs4Uv6Wy0Az1Bc5De7Fg9Hj%20",
                "Bearer vgl_Xq3-9aZ_bT7kLm2Pq8Rs4Uv6Wy0Az1Bc5De7Fg9Hj",
                "5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8",
                ""
            })
    void anythingElseInThePathIsNotTheToken(String segment) {
        assertThat(token.matchesPathSegment(segment)).isFalse();
    }

    @Test
    void theHashOfTheTokenIsNotTheToken() {
        assertThat(token.matchesPathSegment(dev.vigil.kit.auth.HashedCredentials.hash(TOKEN)))
                .isFalse();
        assertThat(token.matchesPathSegment(null)).isFalse();
        assertThat(token.matchesPathSegment("a".repeat(600))).isFalse();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "Basic vgl_Xq3-9aZ_bT7kLm2Pq8Rs4Uv6Wy0Az1Bc5De7Fg9Hj",
                "vgl_Xq3-9aZ_bT7kLm2Pq8Rs4Uv6Wy0Az1Bc5De7Fg9Hj",
                "Bearer VGL_XQ3-9AZ_BT7KLM2PQ8RS4UV6WY0AZ1BC5DE7FG9HJ",
                "Bearer ",
                ""
            })
    void anyOtherHeaderIsNotTheToken(String header) {
        assertThat(token.matchesAuthorization(header)).isFalse();
        assertThat(token.matchesAuthorization(null)).isFalse();
    }

    @Test
    void aConfiguredTokenMustBeLongAndUrlSafe() {
        assertThat(WebhookToken.problem(TOKEN)).isEmpty();
        assertThat(WebhookToken.problem("short")).contains("must be at least 32 characters");
        assertThat(WebhookToken.problem("a".repeat(31) + "/")).get().asString().contains("URL-safe");
        assertThat(WebhookToken.problem("a".repeat(40) + "%2F"))
                .get()
                .asString()
                .contains("URL-safe");
        assertThat(WebhookToken.problem("a".repeat(40) + " ")).get().asString().contains("URL-safe");
        assertThat(WebhookToken.problem("a".repeat(513))).contains("must be at most 512 characters");
        assertThat(WebhookToken.problem("a".repeat(40) + "/x"))
                .as("the message never echoes the token")
                .get()
                .asString()
                .doesNotContain("aaaa");
    }
}

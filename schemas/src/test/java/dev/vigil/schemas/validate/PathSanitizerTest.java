package dev.vigil.schemas.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.vigil.schemas.contract.DomainMetric;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PathSanitizerTest {

    private static final String UUID = "123e4567-e89b-12d3-a456-426614174000";
    private static final String JWT =
            "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";

    static Stream<Arguments> paths() {
        return Stream.of(
                arguments(null, "/"),
                arguments("", "/"),
                arguments("   ", "/"),
                arguments("/", "/"),
                arguments("/menu/2024", "/menu/2024"),
                arguments("/api/v2/items/42", "/api/v2/items/42"),
                arguments("/orders/" + UUID, "/orders/" + UUID),
                arguments("/v1/projects:list", "/v1/projects:list"),
                arguments("/%E2%82%AC/price", "/%E2%82%AC/price"),
                arguments("/search?q=shoes", "/search"),
                arguments("/docs#install", "/docs"),
                arguments("/a?b=1#c", "/a"),
                arguments("/reset?token=" + JWT, "/reset"),
                arguments("https://example.com/menu?x=1", "/menu"),
                arguments("HTTPS://example.com/Menu", "/Menu"),
                arguments("https://example.com", "/"),
                arguments("https://example.com?x=1", "/"),
                arguments("http://user:pw@example.com:8080/a/b#top", "/a/b"),
                arguments("mailto:alice@example.com", "/"),
                arguments("javascript:alert(1)", "/"),
                arguments("menu/2024", "/menu/2024"),
                arguments("//menu//2024///", "/menu/2024/"),
                arguments("/menu/", "/menu/"),
                arguments("/a/./b/../c", "/a/c"),
                arguments("/a/b/..", "/a/"),
                arguments("/../../etc/passwd", "/etc/passwd"),
                arguments(" /menu\n/2024\t", "/menu/2024"),
                arguments("/users/alice@example.com/orders", "/users/{redacted}/orders"),
                arguments("/users/alice%40example.com", "/users/{redacted}"),
                arguments("/call/+14155552671", "/call/{redacted}"),
                arguments("/pay/4111111111111111/confirm", "/pay/{redacted}/confirm"),
                arguments("/pay/4111111111111112/confirm", "/pay/4111111111111112/confirm"),
                arguments("/reset/" + JWT, "/reset/{redacted}"),
                arguments("/hooks/ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8", "/hooks/{redacted}"),
                arguments("/cart;jsessionid=A1B2C3D4E5F6G7H8I9J0", "/{redacted}"),
                arguments("/x=1/&y=2", "/{redacted}"),
                arguments("/" + "a".repeat(600), "/" + "a".repeat(511)),
                arguments("/" + "\uD83D\uDE00".repeat(300), "/" + "\uD83D\uDE00".repeat(255)));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("paths")
    void sanitizes(String input, String expected) {
        assertThat(PathSanitizer.sanitize(input)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} sanitized is a clean DomainMetric pathname")
    @MethodSource("paths")
    void resultIsAlwaysAValidCleanPathname(String input, String ignored) {
        String path = PathSanitizer.sanitize(input);
        assertThat(path)
                .startsWith("/")
                .doesNotContain("?", "#", "//")
                .hasSizeLessThanOrEqualTo(PathSanitizer.MAX_LENGTH);
        assertThat(PrivacyGuard.check("pathname", path)).isEmpty();
        assertThat(PathSanitizer.sanitize(path)).isEqualTo(path);
        var metric = new DomainMetric(1, "bakery", DomainMetric.HTTP_REQUEST, "200", path, null, null, Map.of(), 0L);
        assertThat(PrivacyGuard.inspect(metric)).isEmpty();
    }

    @Test
    void truncationNeverSplitsASurrogatePair() {
        String path = PathSanitizer.sanitize("/" + "\uD83D\uDE00".repeat(300));
        assertThat(Character.isHighSurrogate(path.charAt(path.length() - 1))).isFalse();
    }
}

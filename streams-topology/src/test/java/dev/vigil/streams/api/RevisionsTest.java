package dev.vigil.streams.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class RevisionsTest {
    @Test
    void theSameContentHasTheSameRevisionAndAnyChangeAnother() {
        String a = Revisions.of(Map.of("id", "checkout", "intervalSeconds", 60));
        assertThat(a).matches("\"[0-9a-f]{24}\"");
        assertThat(Revisions.of(Map.of("intervalSeconds", 60, "id", "checkout")))
                .isEqualTo(a);
        assertThat(Revisions.of(Map.of("id", "checkout", "intervalSeconds", 30)))
                .isNotEqualTo(a);
        assertThat(Revisions.of(null)).isNull();
    }

    @Test
    void ifMatchComparesStronglyAndNeedsAValue() {
        String current = "\"abc\"";
        assertThat(Revisions.ifMatch("\"abc\"", current)).isTrue();
        assertThat(Revisions.ifMatch("\"x\", \"abc\"", current)).isTrue();
        assertThat(Revisions.ifMatch("*", current)).isTrue();
        assertThat(Revisions.ifMatch("W/\"abc\"", current))
                .as("a weak tag never matches If-Match")
                .isFalse();
        assertThat(Revisions.ifMatch("\"old\"", current)).isFalse();
        assertThat(Revisions.ifMatch("*", null)).as("nothing to match").isFalse();
    }

    @Test
    void ifNoneMatchStarCreatesOnly() {
        assertThat(Revisions.ifNoneMatch("*", null)).isTrue();
        assertThat(Revisions.ifNoneMatch("*", "\"abc\"")).isFalse();
        assertThat(Revisions.ifNoneMatch("\"abc\"", "\"abc\"")).isFalse();
        assertThat(Revisions.ifNoneMatch("W/\"abc\"", "\"abc\"")).isFalse();
        assertThat(Revisions.ifNoneMatch("\"other\"", "\"abc\"")).isTrue();
    }
}

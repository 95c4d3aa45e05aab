package dev.vigil.streams.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StatusCursorTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "a",
                "0",
                "api",
                "ab-c",
                "m-00042",
                "z0-9-x",
                "a23456789012345678901234567890123456789012345678901234567890123"
            })
    void aMonitorIdComesBackFromItsCursor(String id) {
        String cursor = StatusCursor.encode(id);
        assertThat(cursor).matches("[A-Za-z0-9_-]+").doesNotContain("=");
        assertThat(cursor.length()).isLessThanOrEqualTo(StatusCursor.MAX_LENGTH);
        assertThat(StatusCursor.decode(cursor)).isEqualTo(id);
    }

    private static String b64(String s) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void onlyWhatEncodeGivesOutIsACursor() {
        String api = StatusCursor.encode("api"); // YXBp
        for (String forged : new String[] {
            "",
            "!!!!",
            "YXBp!",
            "YXBp\n",
            "YX Bp",
            "%59XBp",
            Base64.getUrlEncoder().encodeToString("ab".getBytes(StandardCharsets.US_ASCII)), // padded "YWI="
            "YWJ", // "ab" with a non-zero bit after its last character: a second spelling of YWI
            Base64.getEncoder().encodeToString("a?>".getBytes(StandardCharsets.US_ASCII)), // '+'/'/' alphabet
            b64("monitor/api"),
            b64("../v1/audit"),
            b64("API"),
            b64("-api"),
            b64("api\u0000"),
            b64("ápi"),
            b64("a".repeat(64)),
            "Y".repeat(StatusCursor.MAX_LENGTH + 1),
            api + api.substring(0, 1)
        }) {
            assertThatThrownBy(() -> StatusCursor.decode(forged))
                    .as(forged)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'cursor'");
        }
        assertThatThrownBy(() -> StatusCursor.decode(null)).isInstanceOf(IllegalArgumentException.class);
    }
}

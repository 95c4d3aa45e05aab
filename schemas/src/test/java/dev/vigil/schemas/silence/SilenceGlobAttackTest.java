package dev.vigil.schemas.silence;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A silence's fingerprint glob is user input too: it is matched without a regular expression, so the nested-star
 * pattern that stalls a backtracking engine costs no more than any other glob.
 */
class SilenceGlobAttackTest {

    @Test
    void aGlobOfManyStarsAgainstALongFingerprintFinishesAndDoesNotMatch() throws InterruptedException {
        String glob = "*a".repeat(149) + "b";
        String fingerprint = "monitor/" + "a".repeat(600);
        AtomicReference<Boolean> result = new AtomicReference<>();
        Thread t = new Thread(() -> result.set(Silence.globMatches(glob, fingerprint)), "glob");
        t.setDaemon(true);
        t.start();
        t.join(10_000);
        assertThat(t.isAlive()).as("the match is still running").isFalse();
        assertThat(result.get()).isFalse();
        assertThat(Silence.globMatches(glob, "monitor/" + "a".repeat(600) + "b"))
                .isTrue();
    }

    @Test
    void globCharactersAreLiteralNotRegex() {
        assertThat(Silence.globMatches("monitor/a.c", "monitor/abc"))
                .as("a dot is a dot")
                .isFalse();
        assertThat(Silence.globMatches("monitor/checkout-*", "monitor/checkout-api"))
                .isTrue();
        assertThat(Silence.globMatches("*", "worker/us-east/w-1")).isTrue();
    }
}

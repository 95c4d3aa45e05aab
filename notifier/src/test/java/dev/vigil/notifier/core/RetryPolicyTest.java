package dev.vigil.notifier.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {
    private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

    private static RetryPolicy policy(double random) {
        return new RetryPolicy(Duration.ofSeconds(1), 2.0, Duration.ofMinutes(5), Duration.ofHours(1), () -> random);
    }

    private static DeliveryOutcome.Transient transientOutcome(Duration retryAfter) {
        return new DeliveryOutcome.Transient("HTTP 503", retryAfter, 503);
    }

    @Test
    void ceilingDoublesFromTheBaseAndStopsAtTheCap() {
        RetryPolicy p = policy(0.5);
        assertThat(p.ceiling(1)).isEqualTo(Duration.ofSeconds(1));
        assertThat(p.ceiling(2)).isEqualTo(Duration.ofSeconds(2));
        assertThat(p.ceiling(5)).isEqualTo(Duration.ofSeconds(16));
        assertThat(p.ceiling(9)).isEqualTo(Duration.ofSeconds(256));
        assertThat(p.ceiling(10)).isEqualTo(Duration.ofMinutes(5));
        assertThat(p.ceiling(1000)).isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void fullJitterSpansZeroToTheCeiling() {
        assertThat(policy(0.0).backoff(4, null)).isEqualTo(Duration.ZERO);
        assertThat(policy(0.5).backoff(4, null)).isEqualTo(Duration.ofSeconds(4));
        assertThat(policy(0.999).backoff(4, null)).isLessThan(Duration.ofSeconds(8));
    }

    @Test
    void retryAfterIsAFloorNotACeiling() {
        assertThat(policy(0.1).backoff(1, Duration.ofSeconds(2))).isEqualTo(Duration.ofSeconds(2));
        assertThat(policy(0.9).backoff(6, Duration.ofSeconds(2))).isEqualTo(Duration.ofMillis(28_800));
    }

    @Test
    void decisions() {
        RetryPolicy p = policy(0.5);
        assertThat(p.decide(new DeliveryOutcome.Delivered(200, null), 1, T, T)).isInstanceOf(RetryPolicy.Done.class);
        assertThat(p.decide(new DeliveryOutcome.Permanent("HTTP 404", 404), 1, T, T))
                .isEqualTo(new RetryPolicy.GiveUp("permanent failure: HTTP 404"));
        assertThat(p.decide(transientOutcome(null), 3, T, T.plusSeconds(10)))
                .isEqualTo(new RetryPolicy.RetryIn(Duration.ofSeconds(2)));
        assertThat(p.decide(transientOutcome(Duration.ofSeconds(30)), 1, T, T))
                .isEqualTo(new RetryPolicy.RetryIn(Duration.ofSeconds(30)));
    }

    @Test
    void givesUpWhenTheNextWaitWouldPassTheDeadline() {
        RetryPolicy p = policy(0.5);
        RetryPolicy.Decision d = p.decide(transientOutcome(null), 12, T, T.plus(Duration.ofMinutes(58)));
        assertThat(d).isInstanceOf(RetryPolicy.GiveUp.class);
        assertThat(((RetryPolicy.GiveUp) d).reason())
                .startsWith("delivery deadline of PT1H passed after 12 attempts; last error: HTTP 503");
        assertThat(p.decide(transientOutcome(Duration.ofHours(2)), 1, T, T)).isInstanceOf(RetryPolicy.GiveUp.class);
    }
}

package dev.vigil.ingest.quota;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.kit.http.HttpProblem;
import dev.vigil.schemas.contract.DomainMetric;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class QuotasTest {
    private static HttpProblem problem(Runnable r) {
        try {
            r.run();
        } catch (HttpProblem p) {
            return p;
        }
        throw new AssertionError("no problem thrown");
    }

    @Test
    void aPrincipalHoldsAtMostItsShareAndGetsItBackOnRelease() {
        BodyShares shares = new BodyShares(1000, 200, 300);
        BodyShares.Lease a = shares.lease("metrics:checkout", BodyShares.Lane.GENERAL);
        a.take(300);
        BodyShares.Lease b = shares.lease("metrics:checkout", BodyShares.Lane.GENERAL);
        HttpProblem p = problem(() -> b.take(1));
        assertThat(p.status()).isEqualTo(429);
        assertThat(p.type()).isEqualTo("body-budget");
        assertThat(p.extensions()).containsEntry("retryAfterSeconds", 1);
        assertThat(shares.used("metrics:checkout")).isEqualTo(300);
        a.release();
        a.release();
        assertThat(shares.used()).isZero();
        b.take(300);
        assertThat(shares.used("metrics:checkout")).isEqualTo(300);
    }

    @Test
    void theGeneralLaneNeverTakesTheAlertsReserve() {
        BodyShares shares = new BodyShares(1000, 200, 300);
        shares.lease("metrics:a", BodyShares.Lane.GENERAL).take(300);
        shares.lease("metrics:b", BodyShares.Lane.GENERAL).take(300);
        shares.lease("key:w1", BodyShares.Lane.GENERAL).take(200);
        BodyShares.Lease more = shares.lease("metrics:c", BodyShares.Lane.GENERAL);
        HttpProblem busy = problem(() -> more.take(1));
        assertThat(busy.status()).isEqualTo(503);
        assertThat(shares.used("metrics:c")).as("a refused take holds nothing").isZero();
        BodyShares.Lease page = shares.lease("alerts:a", BodyShares.Lane.ALERTS);
        page.take(200);
        assertThat(shares.used()).isEqualTo(1000);
        assertThatThrownBy(
                        () -> shares.lease("alerts:b", BodyShares.Lane.ALERTS).take(1))
                .isInstanceOf(HttpProblem.class);
    }

    @Test
    void aTokenBucketAllowsItsBurstThenItsRateAndSaysWhenToComeBack() {
        AtomicLong nanos = new AtomicLong();
        RequestRates rates = new RequestRates("metric", 2, 3, nanos::get);
        for (int i = 0; i < 3; i++) {
            rates.admit("checkout");
        }
        HttpProblem p = problem(() -> rates.admit("checkout"));
        assertThat(p.status()).isEqualTo(429);
        assertThat(p.type()).isEqualTo("rate-limited");
        assertThat(p.extensions()).containsEntry("retryAfterSeconds", 1);
        rates.admit("billing");
        nanos.addAndGet(500_000_000L);
        rates.admit("checkout");
        assertThat(problem(() -> rates.admit("checkout")).status()).isEqualTo(429);
        nanos.addAndGet(10_000_000_000L);
        for (int i = 0; i < 3; i++) {
            rates.admit("checkout");
        }
        assertThat(problem(() -> rates.admit("checkout")).status())
                .as("never more than the burst")
                .isEqualTo(429);
    }

    private static DomainMetric metric(String path) {
        return new DomainMetric(1, "checkout", "http_request", "200", path, null, 12.0, Map.of("method", "GET"), 1L);
    }

    @Test
    void aBatchBringingAnAppOverItsSeriesCapIsRefusedWholeUntilOldSeriesExpire() {
        SeriesLimiter limiter = new SeriesLimiter(3, 60_000);
        limiter.admit("checkout", List.of(metric("/a"), metric("/b"), metric("/a")), 0);
        assertThat(limiter.size("checkout")).isEqualTo(2);
        limiter.admit("checkout", List.of(metric("/c")), 1_000);
        HttpProblem p = problem(() -> limiter.admit("checkout", List.of(metric("/a"), metric("/d")), 2_000));
        assertThat(p.status()).isEqualTo(429);
        assertThat(p.type()).isEqualTo("series-limit");
        assertThat(p.extensions()).containsEntry("retryAfterSeconds", 58);
        assertThat(limiter.size("checkout"))
                .as("nothing of a refused batch is recorded")
                .isEqualTo(3);
        limiter.admit("checkout", List.of(metric("/a"), metric("/b"), metric("/c")), 2_000);
        limiter.admit("billing", List.of(metric("/d")), 2_000);
        // /a, /b, /c last written at 2 s; at 62 s all three are idle and make room
        limiter.admit("checkout", List.of(metric("/d"), metric("/e"), metric("/f")), 62_000);
        assertThat(limiter.size("checkout")).isEqualTo(3);
    }

    @Test
    void anAppsSeriesMemoryNeverExceedsTheCap() {
        SeriesLimiter limiter = new SeriesLimiter(100, 3_600_000);
        int refused = 0;
        for (int i = 0; i < 1000; i++) {
            List<DomainMetric> batch = new ArrayList<>();
            batch.add(metric("/p/" + i));
            try {
                limiter.admit("checkout", batch, i);
            } catch (HttpProblem e) {
                refused++;
            }
        }
        assertThat(limiter.size("checkout")).isEqualTo(100);
        assertThat(refused).isEqualTo(900);
    }
}

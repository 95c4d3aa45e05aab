package dev.vigil.docker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.docker.JavaText.Source;
import dev.vigil.docker.MeterCatalog.Kind;
import dev.vigil.docker.MeterCatalog.Meter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The source reader behind the dashboard check: meter names, kinds, tags and Prometheus series. */
class MeterCatalogTest {
    private static MeterCatalog catalog(String code) {
        return new MeterCatalog(List.of(new Source(Path.of("Sample.java"), JavaText.stripComments(code))));
    }

    @Test
    void readsBuildersRegistryShortcutsConstantsAndTags() {
        MeterCatalog c = catalog(
                """
                class Sample {
                    static final String LAG = "vigil.sample.lag";
                    void bind(MeterRegistry registry) {
                        Counter.builder("vigil.sample.events").tag("route", r).tag("outcome", o).register(registry);
                        Timer.builder(LAG).publishPercentileHistogram().register(registry);
                        registry.counter("vigil.sample.deliveries", "channel", ch, "outcome", x);
                        registry.gauge("vigil.sample.queued", lanes, l -> l.size());
                        Gauge.builder("vigil.sample.bytes", this, s -> 1).baseUnit("bytes").register(registry);
                        // Counter.builder("vigil.sample.commented").register(registry);
                        Counter.builder("other.not.vigil").register(registry);
                    }
                }
                """);
        assertThat(c.meters())
                .extracting(Meter::name)
                .containsExactly(
                        "vigil.sample.events",
                        "vigil.sample.lag",
                        "vigil.sample.bytes",
                        "vigil.sample.deliveries",
                        "vigil.sample.queued");
        Meter events = c.meters().get(0);
        assertThat(events.kind()).isEqualTo(Kind.COUNTER);
        assertThat(events.tags()).containsExactly("route", "outcome");
        assertThat(events.tagsOpen()).isFalse();
        assertThat(c.meters().get(3).tags()).containsExactly("channel", "outcome");
        assertThat(c.meters().get(4).tags()).isEmpty();
        assertThat(c.seriesNames().keySet())
                .containsExactlyInAnyOrder(
                        "vigil_sample_events_total",
                        "vigil_sample_lag_seconds_count",
                        "vigil_sample_lag_seconds_sum",
                        "vigil_sample_lag_seconds_max",
                        "vigil_sample_lag_seconds_bucket",
                        "vigil_sample_bytes",
                        "vigil_sample_deliveries_total",
                        "vigil_sample_queued");
    }

    @Test
    void aTimerWithoutHistogramHasNoBuckets() {
        MeterCatalog c =
                catalog("class S { void f() { Timer.builder(\"vigil.s.send\").tag(\"channel\", c).register(r); } }");
        assertThat(c.seriesNames())
                .containsOnlyKeys("vigil_s_send_seconds_count", "vigil_s_send_seconds_sum", "vigil_s_send_seconds_max");
    }

    @Test
    void tagsPassedAsAVariableMakeTheTagSetOpen() {
        MeterCatalog c = catalog("class S { void f() { Counter.builder(\"vigil.s.x\").tags(extra).register(r); } }");
        assertThat(c.meters().get(0).tagsOpen()).isTrue();
    }

    @Test
    void theRealSourcesRegisterTheMetersTheDashboardRelatesTo() {
        MeterCatalog c = new MeterCatalog(JavaText.read(Repo.allMainSources()));
        assertThat(c.seriesNames())
                .containsKeys(
                        "vigil_verdict_emitted_total",
                        "vigil_notifier_deliveries_total",
                        "vigil_probe_duration_seconds_bucket");
        assertThat(c.unresolved()).isEmpty();
    }
}

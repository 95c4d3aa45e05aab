package dev.vigil.standalone.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DemoScenarioTest {
    private static int status(String target, int seconds, String region) {
        return DemoScenario.answer(target, Duration.ofSeconds(seconds), region).status();
    }

    @Test
    void outageGoesDownOnceAndRecovers() {
        assertThat(status("outage", 0, "us-east")).isEqualTo(200);
        assertThat(status("outage", 40, "us-east")).isEqualTo(503);
        assertThat(status("outage", 199, "eu-west")).isEqualTo(503);
        assertThat(status("outage", 200, "us-east")).isEqualTo(200);
        assertThat(status("outage", 3600, "us-east")).isEqualTo(200);
    }

    @Test
    void escalatingFailsInOneRegionThenEverywhereThenRecovers() {
        assertThat(status("escalating", 30, "eu-west")).isEqualTo(200);
        assertThat(status("escalating", 60, "eu-west")).isEqualTo(503);
        assertThat(status("escalating", 60, "us-east")).isEqualTo(200);
        assertThat(status("escalating", 100, "us-east")).isEqualTo(503);
        assertThat(status("escalating", 100, "asia-east")).isEqualTo(503);
        assertThat(status("escalating", 160, "eu-west")).isEqualTo(200);
    }

    @Test
    void flappingAlternatesByWindowThenSettles() {
        assertThat(status("flapping", 5, "us-east")).isEqualTo(200);
        assertThat(status("flapping", 15, "us-east")).isEqualTo(503);
        assertThat(status("flapping", 25, "us-east")).isEqualTo(200);
        assertThat(status("flapping", 35, "us-east")).isEqualTo(503);
        assertThat(status("flapping", 125, "us-east")).isEqualTo(200);
        assertThat(status("flapping", 135, "us-east")).isEqualTo(200);
    }

    @Test
    void slowAndStatusDownAndUnknown() {
        assertThat(DemoScenario.answer("slow", Duration.ZERO, null).delay()).isEqualTo(DemoScenario.SLOW_DELAY);
        assertThat(DemoScenario.answer("status-down", Duration.ZERO, null).body())
                .contains("\"down\"");
        assertThat(DemoScenario.answer("nope", Duration.ZERO, null)).isNull();
        assertThat(DemoScenario.answer("healthy", Duration.ofHours(5), null).status())
                .isEqualTo(200);
    }
}

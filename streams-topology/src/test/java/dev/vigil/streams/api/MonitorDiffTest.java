package dev.vigil.streams.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.MonitorDefinition;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MonitorDiffTest {
    static MonitorDefinition monitor(String id, int interval, List<String> regions) {
        return new MonitorDefinition(
                1,
                id,
                null,
                "https://" + id + ".example.com/",
                null,
                interval,
                null,
                regions,
                null,
                null,
                null,
                null,
                null,
                null,
                null);
    }

    @Test
    void classifiesAddedChangedUnchangedAndRemoved() {
        Map<String, MonitorDefinition> current = Map.of(
                "same", monitor("same", 60, List.of("us-east")),
                "edit", monitor("edit", 60, List.of("us-east")),
                "gone", monitor("gone", 60, List.of("us-east")));
        MonitorDiff diff = MonitorDiff.between(
                current,
                List.of(
                        monitor("same", 60, List.of("us-east")),
                        monitor("edit", 30, List.of("us-east", "eu-west")),
                        monitor("new", 60, List.of("us-east"))));
        assertThat(diff.added()).extracting(MonitorDefinition::id).containsExactly("new");
        assertThat(diff.changed()).singleElement().satisfies(c -> {
            assertThat(c.next().id()).isEqualTo("edit");
            assertThat(c.fields()).containsExactly("intervalSeconds", "regions");
        });
        assertThat(diff.unchanged()).containsExactly("same");
        assertThat(diff.removed()).containsExactly("gone");
        assertThat(diff.isEmpty(false)).isFalse();
    }

    @Test
    void reapplyingTheSameFileChangesNothing() {
        var m = monitor("api", 60, List.of("us-east"));
        MonitorDiff diff = MonitorDiff.between(Map.of("api", m), List.of(monitor("api", 60, List.of("us-east"))));
        assertThat(diff.isEmpty(true)).isTrue();
        assertThat(diff.unchanged()).containsExactly("api");
    }

    @Test
    void removalsOnlyCountWhenPruning() {
        MonitorDiff diff = MonitorDiff.between(Map.of("old", monitor("old", 60, List.of("us-east"))), List.of());
        assertThat(diff.isEmpty(false)).isTrue();
        assertThat(diff.isEmpty(true)).isFalse();
    }

    @Test
    void keepingAMonitorTakesItOutOfTheRemovals() {
        MonitorDiff diff = MonitorDiff.between(
                java.util.Map.of(
                        "a",
                        monitor("a", 60, List.of("us-east")),
                        "vigil-canary",
                        monitor("vigil-canary", 10, List.of("us-east"))),
                List.of());
        assertThat(diff.removed()).containsExactly("a", "vigil-canary");
        MonitorDiff kept = diff.keeping("vigil-canary");
        assertThat(kept.removed()).containsExactly("a");
        assertThat(MonitorDiff.between(
                                java.util.Map.of("vigil-canary", monitor("vigil-canary", 10, List.of("us-east"))),
                                List.of())
                        .keeping("vigil-canary")
                        .isEmpty(true))
                .isTrue();
    }
}

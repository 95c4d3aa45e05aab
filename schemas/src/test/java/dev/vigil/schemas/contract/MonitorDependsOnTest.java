package dev.vigil.schemas.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.schemas.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * docs/monitors.md#dependencies: what the contract itself checks of {@code dependsOn} (ids, no repeats, not the monitor
 * itself, at most 16); whether the parents exist and form no cycle is the API's check at apply.
 */
class MonitorDependsOnTest {
    private static final String HTTP =
            "{\"schemaVersion\":1,\"id\":\"api\",\"url\":\"https://api.example.com/\",\"regions\":[\"eu-west\"]";

    @Test
    void parentsAreReadWrittenAndAcceptedByTheSchema() {
        String json = HTTP + ",\"dependsOn\":[\"db\",\"gateway\"]}";
        MonitorDefinition m = Json.read(json, MonitorDefinition.class);
        assertThat(m.dependsOn()).containsExactly("db", "gateway");
        assertThat(Json.read(Json.bytes(m), MonitorDefinition.class)).isEqualTo(m);
        assertThat(ContractSchemaValidator.validate(MonitorDefinition.class, tree(json)))
                .isEmpty();
    }

    @Test
    void noParentsIsAnEmptyListAndIsNotWritten() {
        MonitorDefinition m = Json.read(HTTP + "}", MonitorDefinition.class);
        assertThat(m.dependsOn()).isEmpty();
        assertThat(Json.string(m)).doesNotContain("dependsOn");
        assertThat(Json.read(HTTP + ",\"dependsOn\":null}", MonitorDefinition.class))
                .isEqualTo(m);
    }

    @Test
    void theOldConstructorsAndTheCopyKeepOrSetTheParents() {
        MonitorDefinition m = Json.read(HTTP + "}", MonitorDefinition.class);
        MonitorDefinition child = m.withDependsOn(List.of("db"));
        assertThat(child.dependsOn()).containsExactly("db");
        assertThat(child.withDependsOn(null)).isEqualTo(m);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "[\"api\"]|dependsOn[0]|a monitor cannot depend on itself",
                "[\"db\",\"db\"]|dependsOn[1]|names db twice",
                "[\"Not A Slug\"]|dependsOn[0]|a slug",
                "[null]|dependsOn[0]|",
            })
    void theRecordNamesTheWrongParent(String parents, String field, String message) {
        assertThatThrownBy(() -> Json.read(HTTP + ",\"dependsOn\":" + parents + "}", MonitorDefinition.class))
                .isInstanceOfSatisfying(ContractViolation.class, v -> {
                    assertThat(v.field()).isEqualTo(field);
                    if (message != null) {
                        assertThat(v.getMessage()).contains(message);
                    }
                });
    }

    @Test
    void atMostSixteenParents() {
        String sixteen = parents(16);
        assertThat(Json.read(HTTP + ",\"dependsOn\":" + sixteen + "}", MonitorDefinition.class)
                        .dependsOn())
                .hasSize(16);
        String json = HTTP + ",\"dependsOn\":" + parents(17) + "}";
        assertThatThrownBy(() -> Json.read(json, MonitorDefinition.class))
                .isInstanceOfSatisfying(
                        ContractViolation.class, v -> assertThat(v.field()).isEqualTo("dependsOn"));
        assertThat(ContractSchemaValidator.validate(MonitorDefinition.class, tree(json)))
                .isNotEmpty();
    }

    @Test
    void theSchemaRefusesWhatItCanTell() {
        assertThat(ContractSchemaValidator.validate(
                        MonitorDefinition.class, tree(HTTP + ",\"dependsOn\":[\"db\",\"db\"]}")))
                .isNotEmpty();
        assertThat(ContractSchemaValidator.validate(
                        MonitorDefinition.class, tree(HTTP + ",\"dependsOn\":[\"Not A Slug\"]}")))
                .isNotEmpty();
    }

    private static String parents(int n) {
        return IntStream.range(0, n).mapToObj(i -> "\"p" + i + "\"").collect(Collectors.joining(",", "[", "]"));
    }

    private static JsonNode tree(String json) {
        return Json.tree(json.getBytes(StandardCharsets.UTF_8));
    }
}

package dev.vigil.streams.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.schemas.contract.ContractViolation;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Request bodies bound strictly: exactly the record's members, each of its own type, refusals naming the member. */
class RequestBodiesTest {
    record Inner(List<String> days, Integer minutes) {}

    record Body(String name, Long count, Boolean on, Map<String, String> labels, Inner inner) {}

    private static Body read(String json) {
        return RequestBodies.read(json.getBytes(StandardCharsets.UTF_8), Body.class, false);
    }

    private static void refused(String json, String field, String problemStart) {
        assertThatThrownBy(() -> read(json)).as(json).isInstanceOfSatisfying(ContractViolation.class, e -> {
            assertThat(e.field()).isEqualTo(field);
            assertThat(e.problem()).startsWith(problemStart);
        });
    }

    @Test
    void aWellFormedBodyBinds() {
        Body b = read("{\"name\":\"n\",\"count\":3,\"on\":true,\"labels\":{\"env\":\"prod\"},"
                + "\"inner\":{\"days\":[\"mon\"],\"minutes\":5}}");
        assertThat(b).isEqualTo(new Body("n", 3L, true, Map.of("env", "prod"), new Inner(List.of("mon"), 5)));
        assertThat(RequestBodies.read(new byte[0], Body.class, true)).isEqualTo(new Body(null, null, null, null, null));
    }

    @Test
    void noCoercionBetweenShapes() {
        refused("{\"name\":1}", "name", "must be a string");
        refused("{\"count\":\"3\"}", "count", "must be a whole number");
        refused("{\"count\":1.5}", "count", "must be a whole number");
        refused("{\"on\":\"true\"}", "on", "must be true or false");
        refused("{\"on\":1}", "on", "must be true or false");
        refused("{\"labels\":{\"env\":1}}", "labels.env", "must be a string");
        refused("{\"inner\":{\"days\":[\"mon\",2]}}", "inner.days[1]", "must be a string");
        refused("{\"inner\":{\"days\":\"mon\"}}", "inner.days", "must be an array");
        refused("{\"inner\":[]}", "inner", "must be an object");
    }

    @Test
    void unknownMembersAreRefusedWithTheKnownOnes() {
        refused("{\"name\":\"n\",\"nmae\":\"x\"}", "nmae", "unknown field; expected count, inner, labels, name, on");
        refused("{\"inner\":{\"every\":1}}", "inner.every", "unknown field; expected days, minutes");
    }

    @Test
    void anythingButOneJsonObjectIsRefusedAsTheBody() {
        for (String json :
                List.of("", "null", "[1,2]", "\"text\"", "{not json", "{\"name\":\"n\"} {}", "{\"name\":\"n\"")) {
            refused(json, "body", "must be a JSON object");
        }
    }

    @Test
    void theMembersAreTheRecordsComponents() {
        assertThat(RequestBodies.members(Body.class))
                .containsExactlyInAnyOrder("name", "count", "on", "labels", "inner");
    }
}

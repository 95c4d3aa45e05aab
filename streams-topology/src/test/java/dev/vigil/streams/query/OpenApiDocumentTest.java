package dev.vigil.streams.query;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.vigil.schemas.contract.ContractSchemas;
import dev.vigil.schemas.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The OpenAPI document holds together on its own: every reference resolves, every path parameter is declared, and the
 * monitor schema is the contract's (which routes it describes is checked against a running router by
 * {@code OpenApiCoverageIT}).
 */
class OpenApiDocumentTest {
    private static final String FIELDS = "#/components/schemas/MonitorFields";

    private final JsonNode doc = Json.tree(ApiDocs.openApiDocument());

    @Test
    void everyReferenceResolves() {
        List<String> refs = new ArrayList<>();
        collectRefs(doc, refs);
        assertThat(refs).isNotEmpty();
        List<String> broken = refs.stream()
                .filter(r -> !r.startsWith("#/")
                        || doc.at(JsonPointer.compile(r.substring(1))).isMissingNode())
                .distinct()
                .toList();
        assertThat(broken).as("references that name nothing in the document").isEmpty();
    }

    @Test
    void everyPathParameterIsDeclared() {
        Pattern param = Pattern.compile("\\{([^}]+)}");
        List<String> undeclared = new ArrayList<>();
        doc.path("paths").fields().forEachRemaining(path -> {
            Set<String> inTemplate = new TreeSet<>();
            Matcher m = param.matcher(path.getKey());
            while (m.find()) {
                inTemplate.add(m.group(1));
            }
            path.getValue().fields().forEachRemaining(op -> {
                if (!op.getValue().isObject() || !op.getValue().has("responses")) {
                    return;
                }
                Set<String> declared = new TreeSet<>();
                for (JsonNode list : List.of(
                        path.getValue().path("parameters"), op.getValue().path("parameters"))) {
                    for (JsonNode p : list) {
                        JsonNode resolved = p.has("$ref")
                                ? doc.at(JsonPointer.compile(
                                        p.path("$ref").asText().substring(1)))
                                : p;
                        if (resolved.path("in").asText().equals("path")) {
                            declared.add(resolved.path("name").asText());
                        }
                    }
                }
                if (!declared.equals(inTemplate)) {
                    undeclared.add(op.getKey() + " " + path.getKey() + " declares " + declared);
                }
            });
        });
        assertThat(undeclared)
                .as("operations whose path parameters differ from their template's")
                .isEmpty();
    }

    /**
     * The monitor's fields are the contract's JSON Schema, mirrored: without {@code $schema}, {@code $id} and the
     * top-level {@code required} (the API fills {@code schemaVersion} in and takes {@code id} from the URL), with
     * its own description, and its {@code $defs} referenced where they now live.
     */
    @Test
    void theMonitorFieldsAreTheContractSchema() throws IOException {
        ContractSchemas.Contract contract = ContractSchemas.all().stream()
                .filter(c -> c.name().equals("monitor-definition"))
                .findFirst()
                .orElseThrow();
        JsonNode schema;
        try (InputStream in = contract.open()) {
            schema = Json.tree(in.readAllBytes());
        }
        ObjectNode expected = ((ObjectNode) schema).deepCopy();
        expected.remove(List.of("$schema", "$id", "$comment", "required", "description"));
        rebase(expected);
        ObjectNode mirrored = ((ObjectNode) doc.at(JsonPointer.compile(FIELDS.substring(1)))).deepCopy();
        assertThat(mirrored.path("description").asText()).contains("monitor-definition.schema.json");
        mirrored.remove("description");
        assertThat(mirrored)
                .as("components.schemas.MonitorFields: copy the contract's schema again (see the test's javadoc)")
                .isEqualTo(expected);
    }

    private static void rebase(JsonNode node) {
        if (node instanceof ObjectNode o) {
            JsonNode ref = o.get("$ref");
            if (ref != null && ref.isTextual() && ref.asText().startsWith("#/$defs/")) {
                o.set("$ref", TextNode.valueOf(FIELDS + ref.asText().substring(1)));
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
                rebase(it.next().getValue());
            }
        } else if (node instanceof ArrayNode a) {
            a.forEach(OpenApiDocumentTest::rebase);
        }
    }

    private static void collectRefs(JsonNode node, List<String> out) {
        if (node.isObject()) {
            node.fields().forEachRemaining(e -> {
                if (e.getKey().equals("$ref") && e.getValue().isTextual()) {
                    out.add(e.getValue().asText());
                } else {
                    collectRefs(e.getValue(), out);
                }
            });
        } else if (node.isArray()) {
            node.forEach(n -> collectRefs(n, out));
        }
    }
}

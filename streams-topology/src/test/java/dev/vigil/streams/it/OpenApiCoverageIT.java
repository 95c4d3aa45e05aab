package dev.vigil.streams.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.embedded.junit.WithKafka;
import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.streams.app.StreamsApp;
import dev.vigil.streams.query.ApiRoutes;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OpenAPI document a running instance serves describes exactly the routes its router answers: every (method,
 * template) registered in {@link ApiRoutes} is an operation of the document, and every operation is answered by a
 * route. The instance is started as production starts it, so a route added by any concern (or an extension) without
 * its description fails here. {@code HEAD} is answered by each {@code GET} route and need not be listed; the ops
 * endpoints ({@code /health}, {@code /ready}, {@code /metrics}) are the service kit's own mount, not API routes, and
 * are not compared.
 */
@WithKafka(createVigilTopics = true)
class OpenApiCoverageIT {
    private static final Set<String> OPERATIONS =
            Set.of("get", "put", "post", "delete", "options", "head", "patch", "trace");

    EmbeddedKafka kafka;

    @TempDir
    Path dir;

    @Test
    void theDocumentDescribesEveryRouteAndOnlyThem() {
        try (var app = StreamsApp.start(ItSupport.config(kafka, "vigil-openapi-it", dir), ItSupport.env())) {
            Set<String> answered = new TreeSet<>();
            Set<String> gets = new TreeSet<>();
            for (ApiRoutes.Route route : app.routes()) {
                answered.add(route.method() + " " + route.template());
                if (route.method() == ApiRoutes.Method.GET) {
                    gets.add(route.template());
                }
            }
            assertThat(answered).as("the router's routes").contains("GET /v1/openapi.json");

            HttpResponse<String> served = ItSupport.get(app.httpPort(), "/v1/openapi.json");
            assertThat(served.statusCode()).isEqualTo(200);
            JsonNode paths = ItSupport.json(served).path("paths");
            Set<String> described = new TreeSet<>();
            paths.fieldNames()
                    .forEachRemaining(path -> paths.path(path).fieldNames().forEachRemaining(member -> {
                        if (!OPERATIONS.contains(member)) {
                            return; // parameters, summary ... of the path item
                        }
                        if (member.equals("head") && gets.contains(path)) {
                            return; // answered by the GET route
                        }
                        described.add(member.toUpperCase(Locale.ROOT) + " " + path);
                    }));

            Set<String> undocumented = new TreeSet<>(answered);
            undocumented.removeAll(described);
            Set<String> unanswered = new TreeSet<>(described);
            unanswered.removeAll(answered);
            List<String> problems = new ArrayList<>();
            if (!undocumented.isEmpty()) {
                problems.add("answered by the router but missing from the document: " + undocumented);
            }
            if (!unanswered.isEmpty()) {
                problems.add("in the document but answered by no route: " + unanswered);
            }
            assertThat(problems)
                    .as("streams-query.json against the live router (%d routes)", answered.size())
                    .isEmpty();
        }
    }
}

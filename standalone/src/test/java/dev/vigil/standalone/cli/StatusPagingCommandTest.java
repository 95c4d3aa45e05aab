package dev.vigil.standalone.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.schemas.json.Json;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * {@code vigil status} against a stand-in query API that pages: the command follows {@code next} to the last page and
 * prints the one list it printed before paging.
 */
class StatusPagingCommandTest {
    private static final String[] ROWS = {
        "{\"monitorId\":\"api\",\"status\":\"down\",\"windowStart\":1796073010000,\"complete\":true,\"missingRegions\":[],"
                + "\"alert\":{\"state\":\"firing\",\"severity\":\"critical\",\"acknowledgedBy\":\"alice\"}}",
        "{\"monitorId\":\"backup\",\"type\":\"heartbeat\",\"status\":\"down\",\"windowStart\":1796073010000,"
                + "\"complete\":true,\"missingRegions\":[],\"alert\":{\"state\":\"firing\",\"severity\":\"warning\"}}",
        "{\"monitorId\":\"db\",\"status\":\"degraded\",\"windowStart\":1796073010000,\"complete\":true,\"missingRegions\":[]}",
        "{\"monitorId\":\"queue\",\"name\":\"queue\"}",
        "{\"monitorId\":\"web\",\"status\":\"up\",\"windowStart\":1796073010000,\"complete\":false,\"missingRegions\":[\"eu-west\"]}"
    };
    private static final String[] STATUS = {"down", "down", "degraded", "pending", "up"};

    private final List<Map<String, List<String>>> asked = new CopyOnWriteArrayList<>();
    private Function<Integer, String> pageBody = StatusPagingCommandTest::page;
    private final DisposableServer api = HttpServer.create()
            .host("127.0.0.1")
            .port(0)
            .route(r -> r.get("/v1/status", (req, res) -> {
                Map<String, List<String>> query = new QueryStringDecoder(req.uri()).parameters();
                asked.add(query);
                int from = query.containsKey("cursor")
                        ? position(query.get("cursor").get(0))
                        : 0;
                String body = pageBody.apply(from);
                return body == null
                        ? res.status(400)
                                .header("Content-Type", "application/problem+json")
                                .sendString(
                                        Mono.just(
                                                "{\"title\":\"Bad request\",\"status\":400,\"detail\":\"'cursor' is not a cursor this API gave out\"}"))
                        : res.header("Content-Type", "application/json").sendString(Mono.just(body));
            }))
            .bindNow();

    /** After the monitor the cursor names (base64url of its id, as the query API makes them). */
    private static int position(String cursor) {
        String id = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.US_ASCII);
        for (int i = 0; i < ROWS.length; i++) {
            if (ROWS[i].contains("\"monitorId\":\"" + id + "\"")) {
                return i + 1;
            }
        }
        throw new IllegalArgumentException(id);
    }

    /** Two monitors from {@code from} on, with counts of those two and next while more follow. */
    private static String page(int from) {
        int to = Math.min(from + 2, ROWS.length);
        Map<String, Integer> counts = new java.util.LinkedHashMap<>(Map.of());
        for (String s : new String[] {"up", "degraded", "down", "unknown", "pending"}) {
            counts.put(s, 0);
        }
        StringBuilder rows = new StringBuilder();
        for (int i = from; i < to; i++) {
            counts.merge(STATUS[i], 1, Integer::sum);
            rows.append(i > from ? "," : "").append(ROWS[i]);
        }
        String next = to < ROWS.length
                ? ",\"next\":\""
                        + Base64.getUrlEncoder()
                                .withoutPadding()
                                .encodeToString(Json.tree(ROWS[to - 1].getBytes(StandardCharsets.UTF_8))
                                        .path("monitorId")
                                        .asText()
                                        .getBytes(StandardCharsets.US_ASCII))
                        + "\""
                : "";
        return "{\"generatedAt\":" + (1796073070000L + from) + ",\"instances\":2,\"counts\":"
                + new String(Json.bytes(counts), StandardCharsets.UTF_8) + next + ",\"monitors\":[" + rows + "]}";
    }

    @AfterEach
    void stop() {
        api.disposeNow(Duration.ofSeconds(5));
    }

    private String url() {
        return "http://127.0.0.1:" + api.port();
    }

    @Test
    void statusFollowsTheCursorToTheLastPageAndPrintsOneList() {
        CliRun run = CliRun.vigil("status", "--url", url());
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(asked).hasSize(3);
        assertThat(asked)
                .allSatisfy(q -> assertThat(q.get("limit")).containsExactly(String.valueOf(StatusCommand.PAGE_SIZE)));
        assertThat(asked.get(0)).doesNotContainKey("cursor");
        assertThat(asked.get(1).get("cursor")).containsExactly("YmFja3Vw"); // "backup", the first page's last
        assertThat(asked.get(2).get("cursor")).containsExactly("cXVldWU"); // "queue"
        String out = run.out();
        assertThat(out.lines().filter(l -> l.startsWith("MONITOR")))
                .as("one header")
                .hasSize(1);
        assertThat(out)
                .containsPattern("api\\s+http\\s+down\\s+2026-11-30T\\S+\\s+all\\s+firing critical "
                        + "\\(acknowledged by alice\\)")
                .containsPattern("backup\\s+heartbeat\\s+down\\s+\\S+\\s+all\\s+firing warning")
                .containsPattern("db\\s+http\\s+degraded\\s+\\S+\\s+all\\s+-")
                .containsPattern("queue\\s+http\\s+pending\\s+-\\s+-\\s+-")
                .containsPattern("web\\s+http\\s+up\\s+\\S+\\s+missing 1\\s+-")
                .contains("5 monitors: 1 up, 1 degraded, 2 down, 0 unknown, 1 pending");
        assertThat(out.indexOf("api "))
                .isLessThan(out.indexOf("backup "))
                .isLessThan(out.indexOf("db "))
                .isLessThan(out.indexOf("queue "))
                .isLessThan(out.indexOf("web "));
    }

    @Test
    void jsonIsTheOneListThePagesMakeUp() {
        CliRun run = CliRun.vigil("status", "--url", url(), "--json");
        assertThat(run.exit()).as(run.err()).isZero();
        JsonNode body = Json.tree(run.out().getBytes(StandardCharsets.UTF_8));
        assertThat(body.has("next")).isFalse();
        assertThat(body.path("generatedAt").asLong()).as("the first page's").isEqualTo(1796073070000L);
        assertThat(body.path("instances").asInt()).isEqualTo(2);
        assertThat(body.path("monitors")).hasSize(5);
        for (int i = 0; i < ROWS.length; i++) {
            assertThat(body.path("monitors").get(i)).isEqualTo(Json.tree(ROWS[i].getBytes(StandardCharsets.UTF_8)));
        }
        Map<String, Long> counts = new java.util.LinkedHashMap<>();
        body.path("counts")
                .properties()
                .forEach(c -> counts.put(c.getKey(), c.getValue().asLong()));
        assertThat(counts)
                .as("the pages' counts added up")
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of("up", 1L, "degraded", 1L, "down", 2L, "unknown", 0L, "pending", 1L));
        List<String> fields = new java.util.ArrayList<>();
        body.fieldNames().forEachRemaining(fields::add);
        assertThat(fields).containsExactly("generatedAt", "instances", "counts", "monitors");
    }

    @Test
    void aPageThatFailsFailsTheWholeListNothingHalfPrinted() {
        pageBody = from -> from == 0 ? page(0) : null;
        CliRun run = CliRun.vigil("status", "--url", url());
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).contains("400 Bad request: 'cursor' is not a cursor this API gave out");
    }

    @Test
    void aServerThatRepeatsItsCursorIsNotAskedForEver() {
        pageBody = from -> page(0).replace("\"next\":\"YmFja3Vw\"", "\"next\":\"ZGI\""); // always "db" next
        CliRun run = CliRun.vigil("status", "--url", url());
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).contains("the same page cursor twice");
        assertThat(asked).hasSize(2);
    }
}

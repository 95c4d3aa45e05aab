package dev.vigil.streams.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.embedded.junit.WithKafka;
import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.schemas.contract.AuditRecord;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.RegionStatus;
import dev.vigil.schemas.json.Json;
import dev.vigil.streams.app.StreamsApp;
import dev.vigil.streams.query.TestApi;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The monitors API of a running instance against the embedded broker: every write lands on vigil.monitors with its
 * audit record, conditional writes refuse stale and blind overwrites, a bulk apply publishes all or nothing, and every
 * hostile request is a precise 4xx that publishes nothing.
 */
@WithKafka(createVigilTopics = true)
class MonitorsApiIT {
    EmbeddedKafka kafka;

    @TempDir
    Path dir;

    private int port;

    @Test
    void monitorsAreManagedThroughTheApi() throws Exception {
        try (var producer = ItSupport.producer(kafka)) {
            // the regions the workers serve, as the self-watch publishes them
            long now = System.currentTimeMillis();
            for (String region : List.of("us-east", "eu-west")) {
                ItSupport.send(producer, "vigil.regions", region, new RegionStatus(1, region, 1, 1, 0, now, null, now));
            }
        }
        try (var app = StreamsApp.start(ItSupport.config(kafka, "vigil-monitors-api-it", dir), ItSupport.env())) {
            port = app.httpPort();
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> ItSupport.get(port, "/ready").statusCode() == 200
                            && ItSupport.get(port, "/v1/regions").body().contains("eu-west"));

            createReadReplaceDelete();
            bulkApplyIsAllOrNothing();
            credentialsAndHeartbeatTokens();
            hostileRequestsPublishNothing();
            regionsAreListed();
            rulesAreManagedThroughTheApi();
        }
    }

    private void rulesAreManagedThroughTheApi() throws Exception {
        JsonNode rules = ItSupport.json(send("GET", "/v1/rules", null, TestApi.READER, Map.of()));
        Map<String, JsonNode> byId = new java.util.TreeMap<>();
        rules.path("rules").forEach(r -> byId.put(r.path("id").asText(), r));
        assertThat(byId).containsKeys("dlq-routed", "http-5xx-ratio", "http-p95-latency", "http-error-spike");
        assertThat(byId.get("http-5xx-ratio").path("source").asText()).isEqualTo("default");

        HttpResponse<String> shipped = send("GET", "/v1/rules/http-5xx-ratio", null, TestApi.READER, Map.of());
        String shippedTag = shipped.headers().firstValue("ETag").orElseThrow();
        String stricter = shipped.body().replace("\"threshold\":0.05", "\"threshold\":0.02");
        assertThat(stricter).isNotEqualTo(shipped.body());
        // the rules scope is needed, not the monitors one; and an existing rule is replaced only with If-Match
        assertThat(send("PUT", "/v1/rules/http-5xx-ratio", stricter, TestApi.MONITOR_EDITOR, Map.of())
                        .statusCode())
                .isEqualTo(403);
        assertThat(send("PUT", "/v1/rules/http-5xx-ratio", stricter, TestApi.ADMIN, Map.of())
                        .statusCode())
                .isEqualTo(428);
        HttpResponse<String> overridden =
                send("PUT", "/v1/rules/http-5xx-ratio", stricter, TestApi.ADMIN, Map.of("If-Match", shippedTag));
        assertThat(overridden.statusCode()).as(overridden.body()).isEqualTo(200);
        assertThat(ItSupport.json(send("GET", "/v1/rules/http-5xx-ratio", null, TestApi.READER, Map.of()))
                        .path("source")
                        .asText())
                .isEqualTo("override");

        // hostile callers at the rules' doors: no token, a forged id, not JSON, not an object
        assertThat(send("PUT", "/v1/rules/http-5xx-ratio", stricter, null, Map.of())
                        .statusCode())
                .isEqualTo(401);
        HttpResponse<String> forged =
                send("PUT", "/v1/rules/other-id", stricter, TestApi.ADMIN, Map.of("If-None-Match", "*"));
        assertThat(forged.statusCode()).as(forged.body()).isEqualTo(400);
        assertThat(ItSupport.json(forged).path("field").asText()).isEqualTo("id");
        assertThat(send("PUT", "/v1/rules/x", "{\"appId\":", TestApi.ADMIN, Map.of())
                        .statusCode())
                .isEqualTo(400);
        assertThat(send("POST", "/v1/rules:apply", "{\"rules\":[1]}", TestApi.ADMIN, Map.of())
                        .statusCode())
                .isEqualTo(400);

        String custom = "{\"appId\":\"shop\",\"metricName\":\"checkout_failed\",\"aggregation\":\"count\","
                + "\"windowMinutes\":5,\"comparator\":\"gt\",\"threshold\":3,\"severity\":\"warning\","
                + "\"summary\":\"{app}: {events} failed checkouts in {window} min\"}";
        HttpResponse<String> created = send("PUT", "/v1/rules/checkout-failures", custom, TestApi.ADMIN, Map.of());
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        Map<String, String> bad = Map.of(
                custom.replace("\"windowMinutes\":5", "\"windowMinutes\":0"), "windowMinutes",
                custom.replaceFirst("\\{", "{\"treshold\":1,"), "treshold",
                custom.replace("\"count\"", "\"median\""), "aggregation");
        for (var c : bad.entrySet()) {
            HttpResponse<String> res = send(
                    "POST",
                    "/v1/rules:validate",
                    c.getKey().replaceFirst("\\{", "{\"id\":\"x\","),
                    TestApi.ADMIN,
                    Map.of());
            assertThat(res.statusCode()).as(res.body()).isEqualTo(400);
            assertThat(ItSupport.json(res).path("field").asText()).isEqualTo(c.getValue());
        }

        // deleting the override brings the shipped rule back; a shipped rule itself is switched off, not deleted
        HttpResponse<String> removed = send("DELETE", "/v1/rules/http-5xx-ratio", null, TestApi.ADMIN, Map.of());
        assertThat(removed.statusCode()).as(removed.body()).isEqualTo(200);
        assertThat(ItSupport.json(removed).path("rule").path("source").asText()).isEqualTo("default");
        assertThat(send("DELETE", "/v1/rules/http-5xx-ratio", null, TestApi.ADMIN, Map.of())
                        .statusCode())
                .isEqualTo(409);
        assertThat(send("DELETE", "/v1/rules/checkout-failures", null, TestApi.ADMIN, Map.of())
                        .statusCode())
                .isEqualTo(200);
        assertThat(audits())
                .extracting(AuditRecord::action)
                .contains("rule.replaced", "rule.created", "rule.override-removed", "rule.deleted");

        // a whole file of rules: all or nothing
        String second = custom.replace("checkout_failed", "payment_failed");
        String broken = custom.replace("\"windowMinutes\":5", "\"windowMinutes\":61");
        HttpResponse<String> refused = send(
                "POST",
                "/v1/rules:apply",
                "{\"rules\":[" + withId(custom, "checkout-failures") + "," + withId(broken, "payment-failures") + "]}",
                TestApi.ADMIN,
                Map.of());
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
        assertThat(ItSupport.json(refused).path("field").asText()).isEqualTo("rules[1].windowMinutes");
        String file = "[" + withId(custom, "checkout-failures") + "," + withId(second, "payment-failures") + "]";
        HttpResponse<String> applied =
                send("POST", "/v1/rules:apply", "{\"rules\":" + file + "}", TestApi.ADMIN, Map.of());
        assertThat(applied.statusCode()).as(applied.body()).isEqualTo(200);
        assertThat(ItSupport.json(applied).path("created").size()).isEqualTo(2);
        assertThat(ItSupport.json(applied).path("published").asInt()).isEqualTo(2);
        HttpResponse<String> again =
                send("POST", "/v1/rules:apply", "{\"dryRun\":true,\"rules\":" + file + "}", TestApi.ADMIN, Map.of());
        assertThat(ItSupport.json(again).path("unchanged").asInt()).isEqualTo(2);
        assertThat(ItSupport.json(again).path("published").asInt()).isZero();
        HttpResponse<String> pruned = send(
                "POST",
                "/v1/rules:apply",
                "{\"prune\":true,\"rules\":[" + withId(custom, "checkout-failures") + "]}",
                TestApi.ADMIN,
                Map.of());
        assertThat(ItSupport.json(pruned).path("deleted").toString()).isEqualTo("[\"payment-failures\"]");
        assertThat(send("GET", "/v1/rules/payment-failures", null, TestApi.READER, Map.of())
                        .statusCode())
                .isEqualTo(404);
    }

    private static String withId(String rule, String id) {
        return rule.replaceFirst("\\{", "{\"id\":\"" + id + "\",");
    }

    private void createReadReplaceDelete() throws Exception {
        String body =
                """
                {"name":"Checkout","url":"https://93.184.216.34/health","intervalSeconds":30,
                 "regions":["us-east","eu-west"],"service":"shop"}""";
        HttpResponse<String> created =
                send("PUT", "/v1/monitors/checkout", body, TestApi.MONITOR_EDITOR, Map.of("If-None-Match", "*"));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        String etag = created.headers().firstValue("ETag").orElseThrow();
        assertThat(created.headers().firstValue("Location")).hasValue("/v1/monitors/checkout");
        JsonNode answer = ItSupport.json(created);
        assertThat(answer.path("change").asText()).isEqualTo("created");
        assertThat(answer.path("checksPerDay").asLong()).isEqualTo(2 * 86_400 / 30);
        assertThat(answer.path("target").path("verdict").asText()).isEqualTo("allowed");

        // on the topic, with its audit record from the same transaction
        awaitOnTopic(m -> assertThat(m).containsKey("checkout"));
        AuditRecord audit = audits().stream()
                .filter(a -> a.action().equals("monitor.created"))
                .findFirst()
                .orElseThrow();
        assertThat(audit.actor()).isEqualTo("test-monitors");
        assertThat(audit.target()).isEqualTo("monitor/checkout");
        assertThat(audit.details()).containsEntry("after", etag).containsEntry("before", "none");

        // the same instance reads what it wrote at once, with the same revision
        HttpResponse<String> read =
                send("GET", "/v1/monitors/checkout/definition", null, TestApi.MONITOR_EDITOR, Map.of());
        assertThat(read.statusCode()).isEqualTo(200);
        // whole definitions (URLs, plain headers, bodies) are for those who manage monitors; every other read redacts
        assertThat(send("GET", "/v1/monitors/checkout/definition", null, TestApi.READER, Map.of())
                        .statusCode())
                .isEqualTo(403);
        assertThat(send("GET", "/v1/monitors", null, TestApi.READER, Map.of()).statusCode())
                .isEqualTo(403);
        assertThat(read.headers().firstValue("ETag")).hasValue(etag);
        assertThat(ItSupport.json(read).path("intervalSeconds").asInt()).isEqualTo(30);
        await().atMost(Duration.ofSeconds(20))
                .until(() ->
                        ItSupport.json(send("GET", "/v1/monitors?service=shop", null, TestApi.MONITOR_EDITOR, Map.of()))
                                        .path("total")
                                        .asInt()
                                == 1);

        // create-only is refused now that it exists
        assertThat(send("PUT", "/v1/monitors/checkout", body, TestApi.MONITOR_EDITOR, Map.of("If-None-Match", "*"))
                        .statusCode())
                .isEqualTo(412);
        String edited = body.replace("\"intervalSeconds\":30", "\"intervalSeconds\":60");
        // a change without If-Match is refused: it could overwrite someone else's edit
        HttpResponse<String> blind = send("PUT", "/v1/monitors/checkout", edited, TestApi.MONITOR_EDITOR, Map.of());
        assertThat(blind.statusCode()).as(blind.body()).isEqualTo(428);
        assertThat(ItSupport.json(blind).path("currentRevision").asText()).isEqualTo(etag);
        // the same body again is no change and needs no condition
        HttpResponse<String> same = send("PUT", "/v1/monitors/checkout", body, TestApi.MONITOR_EDITOR, Map.of());
        assertThat(same.statusCode()).as(same.body()).isEqualTo(200);
        assertThat(ItSupport.json(same).path("change").asText()).isEqualTo("unchanged");
        // the editor who read the current revision wins; the one holding a stale revision is refused
        HttpResponse<String> replaced =
                send("PUT", "/v1/monitors/checkout", edited, TestApi.MONITOR_EDITOR, Map.of("If-Match", etag));
        assertThat(replaced.statusCode()).as(replaced.body()).isEqualTo(200);
        assertThat(ItSupport.json(replaced).path("changedFields").toString()).contains("intervalSeconds");
        String newTag = replaced.headers().firstValue("ETag").orElseThrow();
        assertThat(newTag).isNotEqualTo(etag);
        HttpResponse<String> stale = send(
                "PUT",
                "/v1/monitors/checkout",
                body.replace("Checkout", "Checkout (old tab)"),
                TestApi.MONITOR_EDITOR,
                Map.of("If-Match", etag));
        assertThat(stale.statusCode()).as(stale.body()).isEqualTo(412);
        assertThat(stale.headers().firstValue("ETag")).hasValue(newTag);

        // validate: the change it would make, nothing published
        int before = monitorsOnTopic().size();
        HttpResponse<String> validated = send(
                "POST",
                "/v1/monitors:validate",
                edited.replace("{", "{\"id\":\"checkout\",")
                        .replace("\"intervalSeconds\":60", "\"intervalSeconds\":10"),
                TestApi.MONITOR_EDITOR,
                Map.of());
        assertThat(validated.statusCode()).as(validated.body()).isEqualTo(200);
        assertThat(ItSupport.json(validated).path("change").asText()).isEqualTo("replaced");
        assertThat(ItSupport.json(validated).path("checksPerDay").asLong()).isEqualTo(2 * 8_640);
        assertThat(monitorsOnTopic()).hasSize(before);

        // delete: a stale revision is refused, the current one tombstones it
        assertThat(send("DELETE", "/v1/monitors/checkout", null, TestApi.MONITOR_EDITOR, Map.of("If-Match", etag))
                        .statusCode())
                .isEqualTo(412);
        HttpResponse<String> deleted =
                send("DELETE", "/v1/monitors/checkout", null, TestApi.MONITOR_EDITOR, Map.of("If-Match", newTag));
        assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(200);
        awaitOnTopic(m -> assertThat(m).doesNotContainKey("checkout"));
        assertThat(send("GET", "/v1/monitors/checkout/definition", null, TestApi.MONITOR_EDITOR, Map.of())
                        .statusCode())
                .isEqualTo(404);
        assertThat(send("DELETE", "/v1/monitors/checkout", null, TestApi.MONITOR_EDITOR, Map.of())
                        .statusCode())
                .isEqualTo(404);
        assertThat(audits()).extracting(AuditRecord::action).contains("monitor.replaced", "monitor.deleted");
    }

    private void bulkApplyIsAllOrNothing() throws Exception {
        List<String> monitors = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            monitors.add("{\"id\":\"fleet-" + i + "\",\"url\":\"https://93.184.216." + (i + 1)
                    + "/health\",\"regions\":[\"us-east\"]}");
        }
        List<String> oneBad = new ArrayList<>(monitors);
        oneBad.set(
                37,
                "{\"id\":\"fleet-37\",\"url\":\"http://169.254.169.254/latest/meta-data\",\"regions\":[\"us-east\"]}");
        int before = monitorsOnTopic().size();
        HttpResponse<String> refused = send(
                "POST",
                "/v1/monitors:apply",
                "{\"monitors\":[" + String.join(",", oneBad) + "]}",
                TestApi.MONITOR_EDITOR,
                Map.of());
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
        JsonNode problem = ItSupport.json(refused);
        assertThat(problem.path("errors").get(0).path("field").asText()).isEqualTo("monitors[37].url");
        assertThat(problem.path("errors").get(0).path("problem").asText()).contains("link-local");
        assertThat(monitorsOnTopic()).as("nothing of the fifty was published").hasSize(before);

        HttpResponse<String> dry = send(
                "POST",
                "/v1/monitors:apply",
                "{\"dryRun\":true,\"monitors\":[" + String.join(",", monitors) + "]}",
                TestApi.MONITOR_EDITOR,
                Map.of());
        assertThat(dry.statusCode()).as(dry.body()).isEqualTo(200);
        assertThat(ItSupport.json(dry).path("added").size()).isEqualTo(50);
        assertThat(ItSupport.json(dry).path("checksPerDay").asLong()).isEqualTo(50 * 1_440);
        assertThat(monitorsOnTopic()).hasSize(before);

        HttpResponse<String> applied = send(
                "POST",
                "/v1/monitors:apply",
                "{\"monitors\":[" + String.join(",", monitors) + "]}",
                TestApi.MONITOR_EDITOR,
                Map.of());
        assertThat(applied.statusCode()).as(applied.body()).isEqualTo(200);
        assertThat(ItSupport.json(applied).path("published").asInt()).isEqualTo(50);
        awaitOnTopic(m -> assertThat(m).hasSize(before + 50));
        assertThat(audits()).extracting(AuditRecord::action).contains("monitors.applied");

        // applying the same set again changes nothing; pruning to ten deletes forty
        HttpResponse<String> again = send(
                "POST",
                "/v1/monitors:apply",
                "{\"monitors\":[" + String.join(",", monitors) + "]}",
                TestApi.MONITOR_EDITOR,
                Map.of());
        assertThat(ItSupport.json(again).path("published").asInt()).isZero();
        assertThat(ItSupport.json(again).path("unchanged").asInt()).isEqualTo(50);
        HttpResponse<String> pruned = send(
                "POST",
                "/v1/monitors:apply",
                "{\"prune\":true,\"monitors\":[" + String.join(",", monitors.subList(0, 10)) + "]}",
                TestApi.MONITOR_EDITOR,
                Map.of());
        assertThat(pruned.statusCode()).as(pruned.body()).isEqualTo(200);
        assertThat(ItSupport.json(pruned).path("deleted").size()).isEqualTo(40);
        awaitOnTopic(m -> assertThat(m).hasSize(before + 10));
    }

    private void credentialsAndHeartbeatTokens() throws Exception {
        HttpResponse<String> inline = send(
                "PUT",
                "/v1/monitors/private-api",
                "{\"url\":\"https://93.184.216.34/\",\"regions\":[\"us-east\"],"
                        + "\"headers\":{\"Authorization\":\"Bearer s3cr3t-value\"}}",
                TestApi.MONITOR_EDITOR,
                Map.of());
        assertThat(inline.statusCode()).as(inline.body()).isEqualTo(400);
        assertThat(ItSupport.json(inline).path("field").asText()).isEqualTo("headers.Authorization");
        assertThat(inline.body()).doesNotContain("s3cr3t-value");

        HttpResponse<String> byReference = send(
                "PUT",
                "/v1/monitors/private-api",
                "{\"url\":\"https://93.184.216.34/\",\"regions\":[\"us-east\"],"
                        + "\"headers\":{\"Authorization\":{\"secretEnv\":\"PRIVATE_API_TOKEN\"}}}",
                TestApi.MONITOR_EDITOR,
                Map.of());
        assertThat(byReference.statusCode()).as(byReference.body()).isEqualTo(201);
        assertThat(send("GET", "/v1/monitors/private-api/definition", null, TestApi.MONITOR_EDITOR, Map.of())
                        .body())
                .contains("\"secretEnv\":\"PRIVATE_API_TOKEN\"");

        HttpResponse<String> heartbeat = send(
                "PUT",
                "/v1/monitors/nightly-backup",
                "{\"type\":\"heartbeat\",\"heartbeat\":{\"schedule\":\"0 2 * * *\",\"graceSeconds\":600}}",
                TestApi.MONITOR_EDITOR,
                Map.of());
        assertThat(heartbeat.statusCode()).as(heartbeat.body()).isEqualTo(201);
        String token =
                ItSupport.json(heartbeat).path("heartbeat").path("pingToken").asText();
        assertThat(token).isNotBlank();
        assertThat(ItSupport.json(heartbeat).path("heartbeat").path("pingPath").asText())
                .isEqualTo("/v1/heartbeat/nightly-backup");
        HttpResponse<String> shown =
                send("GET", "/v1/monitors/nightly-backup/definition", null, TestApi.MONITOR_EDITOR, Map.of());
        assertThat(shown.body()).doesNotContain(token).doesNotContain("tokenSha256");
        assertThat(ItSupport.json(shown).path("heartbeat").path("hasToken").asBoolean())
                .isTrue();
        // what GET shows goes back unchanged: the published token is kept
        HttpResponse<String> putBack =
                send("PUT", "/v1/monitors/nightly-backup", shown.body(), TestApi.MONITOR_EDITOR, Map.of());
        assertThat(putBack.statusCode()).as(putBack.body()).isEqualTo(200);
        assertThat(ItSupport.json(putBack).path("change").asText()).isEqualTo("unchanged");
        assertThat(putBack.body()).doesNotContain("pingToken");
    }

    private void hostileRequestsPublishNothing() throws Exception {
        int before = monitorsOnTopic().size();
        String ok = "{\"url\":\"https://93.184.216.34/\",\"regions\":[\"us-east\"]}";
        // scopes: none, read only, another scope
        assertThat(send("PUT", "/v1/monitors/x1", ok, null, Map.of()).statusCode())
                .isEqualTo(401);
        assertThat(send("PUT", "/v1/monitors/x1", ok, TestApi.READER, Map.of()).statusCode())
                .isEqualTo(403);
        assertThat(send("POST", "/v1/monitors:apply", "{\"monitors\":[]}", TestApi.SILENCER, Map.of())
                        .statusCode())
                .isEqualTo(403);
        assertThat(send("DELETE", "/v1/monitors/fleet-1", null, TestApi.ACKER, Map.of())
                        .statusCode())
                .isEqualTo(403);
        Map<String, String> cases = new java.util.LinkedHashMap<>();
        cases.put("{\"url\":\"https://93.184.216.34/\",\"regions\":[\"mars-1\"]}", "regions[0]");
        cases.put("{\"url\":\"http://169.254.169.254/latest/meta-data/\",\"regions\":[\"us-east\"]}", "url");
        cases.put("{\"url\":\"http://127.0.0.1:9092/\",\"regions\":[\"us-east\"]}", "url");
        cases.put("{\"url\":\"http://[::ffff:10.0.0.1]/\",\"regions\":[\"us-east\"]}", "url");
        cases.put(
                "{\"type\":\"tcp\",\"tcp\":{\"host\":\"10.1.2.3\",\"port\":5432},\"regions\":[\"us-east\"]}",
                "tcp.host");
        cases.put("{\"url\":\"https://93.184.216.34/\",\"regions\":[\"us-east\"],\"intervall\":60}", "intervall");
        cases.put(
                "{\"url\":\"https://93.184.216.34/\",\"regions\":[\"us-east\"],\"intervalSeconds\":\"60\"}",
                "intervalSeconds");
        cases.put("{\"url\":\"https://93.184.216.34/\",\"regions\":[\"us-east\"],\"id\":\"other\"}", "id");
        cases.put("{\"url\":\"https://93.184.216.34/\",\"regions\":[\"us-east\"],\"timeoutMs\":120000}", "timeoutMs");
        cases.put("{\"url\":\"ftp://93.184.216.34/\",\"regions\":[\"us-east\"]}", "url");
        cases.put("[1,2,3]", "body");
        for (var c : cases.entrySet()) {
            HttpResponse<String> res = send("PUT", "/v1/monitors/x1", c.getKey(), TestApi.MONITOR_EDITOR, Map.of());
            assertThat(res.statusCode()).as(c.getKey() + " -> " + res.body()).isEqualTo(400);
            assertThat(res.headers().firstValue("Content-Type")).hasValue("application/problem+json");
            assertThat(ItSupport.json(res).path("field").asText())
                    .as(c.getKey())
                    .isEqualTo(c.getValue());
        }
        // every problem in one answer: an unserved region and a metadata target together
        HttpResponse<String> both = send(
                "PUT",
                "/v1/monitors/x1",
                "{\"url\":\"http://169.254.169.254/\",\"regions\":[\"us-east\",\"mars-1\"]}",
                TestApi.MONITOR_EDITOR,
                Map.of());
        assertThat(both.statusCode()).as(both.body()).isEqualTo(400);
        assertThat(ItSupport.json(both).path("errors").findValuesAsText("field"))
                .containsExactly("regions[1]", "url");
        // deep JSON, an oversized body, not JSON at all, duplicate ids in one apply, an invalid id
        String deep = "{\"url\":".repeat(200) + "1" + "}".repeat(200);
        assertThat(send("PUT", "/v1/monitors/x1", deep, TestApi.MONITOR_EDITOR, Map.of())
                        .statusCode())
                .isEqualTo(400);
        String huge = "{\"url\":\"https://93.184.216.34/\",\"name\":\"" + "x".repeat(70_000) + "\"}";
        assertThat(send("PUT", "/v1/monitors/x1", huge, TestApi.MONITOR_EDITOR, Map.of())
                        .statusCode())
                .isEqualTo(413);
        HttpResponse<String> dup = send(
                "POST",
                "/v1/monitors:apply",
                "{\"monitors\":[" + ok.replace("{", "{\"id\":\"d1\",") + "," + ok.replace("{", "{\"id\":\"d1\",")
                        + "]}",
                TestApi.MONITOR_EDITOR,
                Map.of());
        assertThat(dup.statusCode()).isEqualTo(400);
        assertThat(ItSupport.json(dup).path("field").asText()).isEqualTo("monitors[1].id");
        assertThat(send("PUT", "/v1/monitors/Bad..Id", ok, TestApi.MONITOR_EDITOR, Map.of())
                        .statusCode())
                .isEqualTo(400);
        HttpResponse<String> reserved = send("PUT", "/v1/monitors/vigil-canary", ok, TestApi.MONITOR_EDITOR, Map.of());
        assertThat(reserved.statusCode()).as(reserved.body()).isEqualTo(403);
        assertThat(monitorsOnTopic())
                .as("no hostile request published anything")
                .hasSize(before);
        // the region override accepts a region being rolled out
        HttpResponse<String> rollout = send(
                "PUT",
                "/v1/monitors/rollout?allowRegions=ap-south",
                "{\"url\":\"https://93.184.216.34/\",\"regions\":[\"ap-south\"]}",
                TestApi.MONITOR_EDITOR,
                Map.of());
        assertThat(rollout.statusCode()).as(rollout.body()).isEqualTo(201);
    }

    private void regionsAreListed() throws Exception {
        JsonNode regions = ItSupport.json(send("GET", "/v1/regions", null, TestApi.READER, Map.of()));
        Map<String, JsonNode> byName = new java.util.TreeMap<>();
        regions.path("regions").forEach(r -> byName.put(r.path("region").asText(), r));
        assertThat(byName)
                .as(send("GET", "/v1/monitors/rollout/definition", null, TestApi.MONITOR_EDITOR, Map.of())
                        .body())
                .containsKeys("us-east", "eu-west", "ap-south");
        assertThat(byName.get("us-east").path("state").asText()).isEqualTo("serving");
        assertThat(byName.get("us-east").path("monitors").asInt()).isEqualTo(11);
        assertThat(byName.get("ap-south").path("state").asText()).isEqualTo("unserved");
    }

    private HttpResponse<String> send(
            String method, String path, String body, String token, Map<String, String> headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        headers.forEach(b::header);
        return ItSupport.HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * A check of what a write put on the topic: the reader is read_committed, and a transaction's commit markers reach
     * each partition shortly after the commit returns, so what was written becomes visible within moments, not at once.
     */
    private void awaitOnTopic(java.util.function.Consumer<Map<String, MonitorDefinition>> check) {
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> check.accept(monitorsOnTopic()));
    }

    private Map<String, MonitorDefinition> monitorsOnTopic() {
        Map<String, MonitorDefinition> out = new java.util.TreeMap<>();
        Map<String, Object> props = kafka.consumerProps("monitors-reader-" + System.nanoTime());
        try (var consumer = new org.apache.kafka.clients.consumer.KafkaConsumer<>(
                props, new org.apache.kafka.common.serialization.StringDeserializer(), new ByteArrayDeserializer())) {
            var partitions = consumer.partitionsFor("vigil.monitors").stream()
                    .map(p -> new org.apache.kafka.common.TopicPartition(p.topic(), p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            var end = consumer.endOffsets(partitions);
            long deadline = System.currentTimeMillis() + 20_000;
            while (System.currentTimeMillis() < deadline
                    && !partitions.stream().allMatch(tp -> consumer.position(tp) >= end.get(tp))) {
                for (var r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.value() == null) {
                        out.remove(r.key());
                    } else {
                        out.put(r.key(), Json.read(r.value(), MonitorDefinition.class));
                    }
                }
            }
        }
        return out;
    }

    private List<AuditRecord> audits() {
        return ItSupport.readAll(kafka, "vigil.audit", new ByteArrayDeserializer()).stream()
                .map(b -> Json.read(b, AuditRecord.class))
                .toList();
    }
}

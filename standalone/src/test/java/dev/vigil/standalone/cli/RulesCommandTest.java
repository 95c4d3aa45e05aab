package dev.vigil.standalone.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/** {@code vigil rules ...} against a stand-in query API on loopback: what is sent, and what is printed. */
class RulesCommandTest {
    private static final String RULES =
            """
            {"rules":[
             {"id":"http-5xx-ratio","appId":"*","metricName":"http_request","filter":["5xx"],"aggregation":"ratio",
              "windowMinutes":5,"comparator":"gt","threshold":0.02,"minEvents":20,"severity":"critical",
              "summary":"{app}: 5xx","enabled":true,"source":"override","revision":"\\"r1\\""},
             {"id":"dlq-routed","appId":"*","metricName":"dlq_routed","filter":[],"aggregation":"count",
              "windowMinutes":10,"comparator":"gt","threshold":0.0,"minEvents":1,"severity":"critical",
              "summary":"{app}: dlq","enabled":true,"source":"default","revision":"\\"r2\\""}]}""";

    private final List<String> calls = new CopyOnWriteArrayList<>();

    @TempDir
    Path dir;

    private final DisposableServer api = HttpServer.create()
            .host("127.0.0.1")
            .port(0)
            .handle((req, res) -> req.receive()
                    .aggregate()
                    .asString()
                    .defaultIfEmpty("")
                    .flatMap(body -> {
                        calls.add(req.method() + " " + req.uri() + " " + body);
                        String answer;
                        int status = 200;
                        if (req.uri().equals("/v1/rules")) {
                            answer = RULES;
                        } else if (body.contains("\"windowMinutes\":61")) {
                            status = 400;
                            answer = "{\"title\":\"Invalid rule\",\"status\":400,\"detail\":\"1 problem\","
                                    + "\"field\":\"rules[0].windowMinutes\",\"errors\":[{\"field\":"
                                    + "\"rules[0].windowMinutes\",\"problem\":\"must be between 1 and 60\"}]}";
                        } else if (req.uri().startsWith("/v1/rules:apply")) {
                            answer = "{\"dryRun\":false,\"created\":[\"checkout-failures\"],\"replaced\":[],"
                                    + "\"unchanged\":1,\"notInRequest\":[\"old-rule\"],\"published\":1}";
                        } else {
                            answer = "{\"id\":\"http-5xx-ratio\",\"deleted\":true,\"rule\":{\"source\":\"default\"}}";
                        }
                        return res.status(status)
                                .header("Content-Type", status == 200 ? "application/json" : "application/problem+json")
                                .sendString(Mono.just(answer))
                                .then();
                    }))
            .bindNow();

    @AfterEach
    void stop() {
        api.disposeNow(Duration.ofSeconds(5));
    }

    private CliRun vigil(String... args) {
        String[] all = new String[args.length + 4];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--url";
        all[args.length + 1] = "http://127.0.0.1:" + api.port();
        all[args.length + 2] = "--token";
        all[args.length + 3] = "vgl_t";
        return CliRun.vigil(all);
    }

    @Test
    void listShowsEachRuleItsConditionAndSource() {
        CliRun run = vigil("rules", "list");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out())
                .contains("http-5xx-ratio")
                .contains("[5xx] ratio gt 0.02 over 5m (min 20)")
                .contains("override")
                .contains("count gt 0.0 over 10m")
                .contains("default");
    }

    @Test
    void exportWritesThePublishedRulesOnlyAndApplySendsThemBackWithoutWhatTheApiAdds() throws Exception {
        Path file = dir.resolve("rules.yaml");
        CliRun export = vigil("rules", "export", "-o", file.toString());
        assertThat(export.exit()).as(export.err()).isZero();
        String yaml = Files.readString(file);
        assertThat(yaml).startsWith("rules:").contains("http-5xx-ratio").doesNotContain("dlq-routed");
        assertThat(yaml).doesNotContain("revision").doesNotContain("source");

        CliRun apply = vigil("rules", "apply", "-f", file.toString());
        assertThat(apply.exit()).as(apply.err()).isZero();
        assertThat(apply.out())
                .contains("+ checkout-failures (new)")
                .contains("? old-rule (not in file; kept, use --prune to delete)")
                .contains("1 to create, 0 to change, 1 unchanged, 0 to delete")
                .contains("published 1 change(s)");
        String sent = calls.stream()
                .filter(c -> c.startsWith("POST /v1/rules:apply"))
                .findFirst()
                .orElseThrow();
        assertThat(sent)
                .contains("\"id\":\"http-5xx-ratio\"")
                .contains("\"threshold\":0.02")
                .contains("\"prune\":false")
                .doesNotContain("revision")
                .doesNotContain("source");
    }

    @Test
    void anInvalidFileNamesEveryFieldAndPublishesNothing() throws Exception {
        Path file = Files.writeString(
                dir.resolve("bad.yaml"),
                """
                rules:
                  - id: checkout-failures
                    appId: shop
                    metricName: checkout_failed
                    aggregation: count
                    windowMinutes: 61
                    comparator: gt
                    threshold: 3
                    severity: warning
                    summary: too many
                """);
        CliRun run = vigil("rules", "apply", "-f", file.toString(), "--prune");
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err())
                .contains("nothing was published")
                .contains("rules[0].windowMinutes: must be between 1 and 60");
        assertThat(calls).anyMatch(c -> c.contains("\"prune\":true"));
        CliRun missing = vigil(
                "rules",
                "apply",
                "-f",
                Files.writeString(dir.resolve("x.yaml"), "a: 1\n").toString());
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).contains("must have a top-level 'rules:' list");
    }

    @Test
    void deletingAnOverrideSaysTheShippedRuleIsBack() {
        CliRun run = vigil("rules", "delete", "http-5xx-ratio");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("override removed; the shipped rule is back in force");
        assertThat(calls).contains("DELETE /v1/rules/http-5xx-ratio ");
    }
}

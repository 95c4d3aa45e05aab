package dev.vigil.docker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.docker.ComposeChecks.TopicLine;
import dev.vigil.docker.ConfigChecks.Loaded;
import dev.vigil.docker.Repo.Service;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * docker-compose.yml is never run on the build machines (no Docker engine), so its references are checked
 * here: images, start order and health checks, mounts, service configs against the config records'
 * sources, environment, ports, Prometheus targets and the topics. The second half breaks copies of the
 * real file to show each check catches what it is for.
 */
class ComposeFileTest {
    private final Stack stack = new Stack();

    @Test
    void everyServiceHasAPinnedImageOrABuildWhoseDockerfileExists() {
        assertThat(stack.composeChecks().images()).isEmpty();
        assertThat(stack.composeChecks().services().size()).isGreaterThanOrEqualTo(11);
    }

    @Test
    void onlyKnownComposeKeysAndValidHealthCheckDurations() {
        assertThat(stack.composeChecks().knownKeys()).isEmpty();
    }

    @Test
    void dependsOnTargetsExistAndHealthyConditionsHaveHealthChecks() {
        assertThat(stack.composeChecks().dependsOn()).isEmpty();
    }

    @Test
    void vigilServicesWaitForKafkaTopicsAndPostgresAndAreHealthCheckedOnReady() {
        List<String> problems = new ArrayList<>();
        ConfigChecks cc = stack.configChecks();
        Map<String, Integer> ports = cc.listenPorts(cc.load(problems), problems);
        problems.addAll(stack.composeChecks().vigilStartOrderAndHealth(ports));
        assertThat(problems).isEmpty();
        assertThat(stack.composeChecks().vigilServices())
                .containsOnlyKeys(
                        "ingest",
                        "streams",
                        "notifier",
                        "probe-worker-us-east",
                        "probe-worker-eu-west",
                        "probe-worker-asia-east");
    }

    @Test
    void vigilContainersHaveAMemoryLimitTheJvmSizesItsHeapFrom() {
        stack.composeChecks().vigilServices().keySet().forEach(name -> {
            JsonNode svc = stack.compose.path("services").path(name);
            assertThat(svc.at("/deploy/resources/limits/memory").asText())
                    .as(name)
                    .matches("\\d+[mg]");
            assertThat(ComposeChecks.environment(svc).get("JAVA_TOOL_OPTIONS"))
                    .as(name)
                    .contains("-XX:MaxRAMPercentage=");
        });
    }

    @Test
    void theNotifierRunsWithItsOwnCollector() {
        // the flags of dev.vigil.notifier.NotifierJvm, which vigil cluster and the benchmarks use too
        assertThat(ComposeChecks.environment(stack.compose.path("services").path("notifier"))
                        .get("JAVA_TOOL_OPTIONS"))
                .contains("-XX:+UseParallelGC")
                .contains("-XX:MaxRAMPercentage=")
                .contains("-Dlogback.configurationFile=logback-json.xml");
    }

    @Test
    void infrastructureServicesHaveHealthChecks() {
        for (String s : List.of("kafka", "postgres", "prometheus", "grafana")) {
            assertThat(ComposeChecks.hasHealthcheck(
                            stack.compose.path("services").path(s)))
                    .as(s)
                    .isTrue();
        }
        assertThat(ComposeChecks.join(stack.compose.at("/services/postgres/healthcheck/test")))
                .contains("pg_isready");
    }

    @Test
    void mountedHostPathsExistInTheRepositoryReadOnlyAndVolumesAreDeclared() {
        assertThat(stack.composeChecks().mounts()).isEmpty();
    }

    @Test
    void everyConfigFileParsesAndHasOnlyKeysItsServiceConfigRecordAccepts() {
        List<String> problems = new ArrayList<>();
        ConfigChecks cc = stack.configChecks();
        Map<String, Loaded> loaded = cc.load(problems);
        problems.addAll(cc.keys(loaded));
        assertThat(problems).isEmpty();
        assertThat(loaded.values().stream()
                        .map(l -> l.file().getFileName().toString())
                        .distinct())
                .containsExactlyInAnyOrder(
                        "vigil-ingest.yaml", "vigil-streams.yaml", "vigil-notifier.yaml", "vigil-probe-worker.yaml");
    }

    @Test
    void containerEnvironmentOverridesExistingKeysOrProvidesNamedSecrets() {
        List<String> problems = new ArrayList<>();
        ConfigChecks cc = stack.configChecks();
        Map<String, Loaded> loaded = cc.load(problems);
        problems.addAll(cc.environment(loaded, stack.routingFiles()));
        assertThat(problems).isEmpty();
    }

    @Test
    void notifierRoutingFilesAreValidAndTheChosenOneExists() {
        List<String> problems = new ArrayList<>();
        ConfigChecks cc = stack.configChecks();
        problems.addAll(cc.routing(cc.load(problems), stack.routingFiles()));
        assertThat(problems).isEmpty();
        assertThat(stack.routingFiles().keySet().stream()
                        .map(p -> p.getFileName().toString()))
                .contains("routing-console.yaml", "routing-vendors.yaml");
    }

    @Test
    void everyInterpolatedVariableIsDocumentedInTheReadme() {
        assertThat(stack.composeChecks().interpolatedVariables())
                .contains("POSTGRES_PASSWORD", "SLACK_WEBHOOK_URL", "DISCORD_WEBHOOK_URL", "BETTERSTACK_API_TOKEN");
        assertThat(stack.composeChecks().interpolatedVariablesDocumented(stack.readme))
                .isEmpty();
    }

    @Test
    void secretsComeFromTheHostEnvironmentNeverInline() {
        assertThat(stack.composeChecks().secretsFromEnvironment()).isEmpty();
    }

    @Test
    void publishedPortsDoNotCollideAndMatchTheConfiguredPorts() {
        List<String> problems = new ArrayList<>();
        ConfigChecks cc = stack.configChecks();
        Map<String, Integer> ports = cc.listenPorts(cc.load(problems), problems);
        problems.addAll(stack.composeChecks().ports(ports));
        assertThat(problems).isEmpty();
        assertThat(ports)
                .containsEntry("ingest", 8080)
                .containsEntry("streams", 8081)
                .containsEntry("notifier", 8082)
                .containsEntry("probe-worker-eu-west", 8083);
    }

    @Test
    void prometheusScrapesEveryVigilContainerAtItsServiceNameAndPort() {
        List<String> problems = new ArrayList<>();
        ConfigChecks cc = stack.configChecks();
        Map<String, Integer> ports = cc.listenPorts(cc.load(problems), problems);
        problems.addAll(stack.composeChecks().prometheusTargets(stack.prometheus, ports));
        assertThat(problems).isEmpty();
    }

    @Test
    void topicsCreatedAreExactlyTopicsAll() {
        List<TopicLine> declared = ComposeChecks.declaredTopics(
                Repo.text(Repo.root().resolve("schemas/src/main/java/dev/vigil/schemas/topic/Topics.java")));
        List<TopicLine> created = ComposeChecks.scriptTopics(Repo.text(stack.docker.resolve("kafka/create-topics.sh")));
        assertThat(declared).isNotEmpty();
        assertThat(created).containsExactlyInAnyOrderElementsOf(declared);
        assertThat(stack.composeChecks().topicsService("/vigil/create-topics.sh"))
                .isEmpty();
    }

    @Test
    void kafkaIsTheOfficialImageInKraftModeReachableAtTheConfiguredBootstrapAddress() {
        List<String> problems = new ArrayList<>();
        Map<String, Loaded> loaded = stack.configChecks().load(problems);
        Set<String> bootstrap = ConfigChecks.bootstrapServers(loaded);
        assertThat(bootstrap).containsExactly("kafka:9092");
        problems.addAll(stack.composeChecks().kafka(stack.kafkaVersion(), bootstrap));
        assertThat(problems).isEmpty();
    }

    @Test
    void oneProbeWorkerPerRegionWithTheComposeSubnetAllowListed() {
        List<String> problems = new ArrayList<>();
        ConfigChecks cc = stack.configChecks();
        assertThat(stack.subnets()).isNotEmpty();
        problems.addAll(cc.probeWorkers(cc.load(problems), stack.subnets()));
        assertThat(problems).isEmpty();
    }

    @Test
    void exampleMonitorsAreMonitorDefinitionsForTheRunningRegionsAndInNetworkUrlsNameRealPorts() {
        JsonNode monitors = Repo.yaml(stack.docker.resolve("monitors.example.yaml"));
        RecordSchemas rs = stack.schemas(Service.PROBE_WORKER);
        RecordSchemas.Decl def = rs.record("MonitorDefinition", "MonitorDefinition");
        List<String> problems = new ArrayList<>();
        ConfigChecks cc = stack.configChecks();
        Map<String, Loaded> loaded = cc.load(problems);
        Map<String, Integer> ports = cc.listenPorts(loaded, problems);
        Set<String> regions = new java.util.HashSet<>();
        loaded.values().stream()
                .filter(l -> l.service() == Service.PROBE_WORKER)
                .forEach(l -> l.tree().path("regions").forEach(r -> regions.add(r.asText())));
        List<ComposeChecks.Published> published = stack.composeChecks().published(problems);
        Set<String> ids = new java.util.HashSet<>();
        assertThat(monitors.path("monitors").size()).isGreaterThanOrEqualTo(3);
        for (JsonNode m : monitors.path("monitors")) {
            String id = m.path("id").asText();
            problems.addAll(rs.check(m, def, "monitors[" + id + "]"));
            if (!id.matches("[a-z0-9][a-z0-9-]{0,62}") || !ids.add(id)) {
                problems.add(id + ": id must be a unique slug");
            }
            m.path("regions").forEach(r -> {
                if (!regions.contains(r.asText())) {
                    problems.add(id + ": region " + r.asText() + " has no probe worker");
                }
            });
            java.net.URI url = java.net.URI.create(m.path("url").asText());
            if (stack.composeChecks().services().has(url.getHost())) {
                Integer listen = ports.get(url.getHost());
                boolean ok = listen != null
                        ? listen == url.getPort()
                        : published.stream()
                                .anyMatch(p -> p.service().equals(url.getHost()) && p.container() == url.getPort());
                if (!ok) {
                    problems.add(id + ": " + url + ": " + url.getHost() + " does not listen on " + url.getPort());
                }
            }
        }
        assertThat(problems).isEmpty();
    }

    /** Commands the containers run exist in the jar's CLI (picocli declarations) with the options given. */
    @Test
    void containerCommandsAreCliCommandsWithTheirOptions() {
        CliChecks cli = new CliChecks(JavaText.read(List.of(Repo.mainSources("standalone"))));
        assertThat(cli.has("monitors")).isTrue();
        List<String> problems = new ArrayList<>();
        List<String> checked = new ArrayList<>();
        stack.compose.path("services").fields().forEachRemaining(e -> {
            if (!e.getValue().path("image").asText().equals("vigil:local")) {
                return;
            }
            List<String> args = new ArrayList<>();
            e.getValue().path("command").forEach(a -> args.add(a.asText()));
            problems.addAll(cli.check(e.getKey(), args));
            checked.add(e.getKey());
        });
        assertThat(problems).isEmpty();
        assertThat(checked)
                .containsExactlyInAnyOrder(
                        "ingest",
                        "streams",
                        "notifier",
                        "probe-worker-us-east",
                        "probe-worker-eu-west",
                        "probe-worker-asia-east",
                        "monitors-apply");
    }

    @Test
    void aCommandOrOptionTheCliDoesNotHaveIsReported() {
        CliChecks cli = new CliChecks(JavaText.read(List.of(Repo.mainSources("standalone"))));
        assertThat(cli.check("x", List.of("monitors", "apply", "--file", "m.yaml", "--bootstrap", "k:9092")))
                .singleElement()
                .asString()
                .startsWith("x: `apply` has no option --bootstrap (has ")
                .contains("--url");
        assertThat(cli.check("y", List.of("monitors", "publish")))
                .singleElement()
                .asString()
                .startsWith("y: `monitors publish`: no picocli command named 'publish'");
    }

    @Test
    void anOptionInheritedFromASuperclassCounts() {
        CliChecks cli = new CliChecks(
                List.of(
                        new JavaText.Source(
                                Path.of("S.java"),
                                """
                abstract static class Base implements Callable<Integer> {
                    @Option(names = {"-c", "--config"}) Path config;
                }
                @Command(name = "svc", mixinStandardHelpOptions = true)
                static final class Svc extends Base { }
                """)));
        assertThat(cli.check("s", List.of("svc", "--config", "/etc/x.yaml"))).isEmpty();
        assertThat(cli.check("s", List.of("svc", "--conf", "/etc/x.yaml"))).hasSize(1);
    }

    @Test
    void anOptionOfAMixinCounts() {
        CliChecks cli = new CliChecks(
                List.of(
                        new JavaText.Source(
                                Path.of("S.java"),
                                """
                final class Shared {
                    @Option(names = "--url") String url;
                }
                @Command(name = "apply", mixinStandardHelpOptions = true)
                static final class Apply implements Callable<Integer> {
                    @CommandLine.Mixin
                    Shared shared;
                    @Option(names = "--prune") boolean prune;
                }
                """)));
        assertThat(cli.check("s", List.of("apply", "--url", "http://x", "--prune")))
                .isEmpty();
        assertThat(cli.check("s", List.of("apply", "--uri", "http://x"))).hasSize(1);
    }

    @Test
    void theExampleMonitorsServiceMountsTheExampleFile() {
        JsonNode svc = stack.compose.path("services").path("monitors-apply");
        assertThat(svc.path("profiles").toString()).contains("examples");
        List<String> args = new ArrayList<>();
        svc.path("command").forEach(a -> args.add(a.asText()));
        String file = args.get(args.indexOf("-f") + 1);
        assertThat(stack.composeChecks().hostPath("monitors-apply", file))
                .hasValue(stack.docker.resolve("monitors.example.yaml").normalize());
        assertThat(svc.path("depends_on").path("topics").path("condition").asText())
                .isEqualTo("service_completed_successfully");
    }

    @Test
    void vigilContainersLogJsonAndTheNotifierLogChannelIsPrinted() {
        List<String> problems = new ArrayList<>();
        stack.compose.path("services").fields().forEachRemaining(e -> {
            if (!e.getValue().path("image").asText().equals("vigil:local")) {
                return;
            }
            String opts = ComposeChecks.environment(e.getValue()).getOrDefault("JAVA_TOOL_OPTIONS", "");
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("-Dlogback\\.configurationFile=(\\S+)")
                    .matcher(opts);
            if (!m.find()) {
                problems.add(e.getKey() + ": JAVA_TOOL_OPTIONS sets no logback configuration");
                return;
            }
            java.util.Optional<Path> file = m.group(1).startsWith("/")
                    ? stack.composeChecks().hostPath(e.getKey(), m.group(1))
                    : java.util.Optional.of(
                            Repo.root().resolve("standalone/src/main/resources").resolve(m.group(1)));
            if (file.isEmpty() || !java.nio.file.Files.isRegularFile(file.get())) {
                problems.add(e.getKey() + ": logback configuration " + m.group(1) + " is not a file of the repository");
                return;
            }
            problems.addAll(LogbackCheck.check(Repo.text(file.get()), e.getKey()));
        });
        assertThat(problems).isEmpty();
    }

    @Test
    void aLogbackConfigurationThatHidesPagesIsReported() {
        String ours = Repo.text(Repo.root().resolve("standalone/src/main/resources/logback-json.xml"));
        assertThat(LogbackCheck.check(ours, "x")).isEmpty();
        String hidden = ours.replaceAll("<logger name=\"vigil\\.notifications\"[^>]*/>", "");
        assertThat(LogbackCheck.check(hidden, "x"))
                .anySatisfy(p -> assertThat(p).contains("vigil.notifications"));
        assertThat(LogbackCheck.check(hidden.replace("JsonLogEncoder", "JsonLogEncoderr"), "x"))
                .anySatisfy(p -> assertThat(p).contains("JsonLogEncoderr"));
    }

    @Test
    void readmeSaysTheStackWasNotRunHereAndHowToRunIt() {
        assertThat(stack.readme).contains("docker compose -f docker/docker-compose.yml up --build");
        assertThat(stack.readme).containsIgnoringCase("not run").containsIgnoringCase("no Docker engine");
    }

    // ---- each check catches what it is for ----

    @Test
    void aMissingDependencyTargetIsReported() {
        ComposeChecks broken = broken(c -> ((ObjectNode) c.at("/services/ingest/depends_on"))
                .putObject("schema-registry")
                .put("condition", "service_healthy"));
        assertThat(broken.dependsOn())
                .anySatisfy(p -> assertThat(p).contains("ingest.depends_on.schema-registry: no such service"));
    }

    @Test
    void waitingForHealthOfAServiceWithoutHealthCheckIsReported() {
        ComposeChecks broken = broken(c -> ((ObjectNode) c.at("/services/kafka")).remove("healthcheck"));
        assertThat(broken.dependsOn())
                .anySatisfy(p -> assertThat(p).contains("condition service_healthy but kafka has no healthcheck"));
    }

    @Test
    void aDependencyCycleIsReported() {
        ComposeChecks broken = broken(c -> ((ObjectNode) c.at("/services/kafka"))
                .putObject("depends_on")
                .putObject("topics")
                .put("condition", "service_started"));
        assertThat(broken.dependsOn()).anySatisfy(p -> assertThat(p).startsWith("depends_on cycle:"));
    }

    @Test
    void aHealthCheckOnTheWrongPortIsReported() {
        Stack s = brokenStack(c -> {
            ArrayNode test = (ArrayNode) c.at("/services/notifier/healthcheck/test");
            test.set(test.size() - 1, test.textNode("http://localhost:8080/ready"));
        });
        List<String> problems = new ArrayList<>();
        ConfigChecks cc = s.configChecks();
        Map<String, Integer> ports = cc.listenPorts(cc.load(problems), problems);
        assertThat(s.composeChecks().vigilStartOrderAndHealth(ports)).anySatisfy(p -> assertThat(p)
                .contains("notifier.healthcheck.test: must request http://localhost:8082/ready"));
    }

    @Test
    void aBindMountOfAMissingFileIsReported() {
        ComposeChecks broken = broken(c -> ((ArrayNode) c.at("/services/prometheus/volumes"))
                .add("./prometheus/alerts.yml:/etc/prometheus/alerts.yml:ro"));
        assertThat(broken.mounts())
                .anySatisfy(p -> assertThat(p).contains("alerts.yml").contains("does not exist"));
    }

    @Test
    void aKeyTheConfigRecordDoesNotHaveIsReportedWithItsPath() {
        RecordSchemas rs = stack.schemas(Service.NOTIFIER);
        JsonNode yaml = Repo.yaml(
                "kafka:\n  bootstrapServers: kafka:9092\n  groupID: typo\ndelivery:\n  retryBase: 1s\n  retries: 3\n");
        List<String> problems = rs.check(yaml, rs.record("NotifierConfig", "NotifierConfig"), "");
        assertThat(problems).hasSize(2);
        assertThat(problems.get(0)).startsWith("kafka.groupID: unknown key").contains("groupId");
        assertThat(problems.get(1)).startsWith("delivery.retries: unknown key");
    }

    @Test
    void aMappingWhereTheRecordHasAValueIsReported() {
        RecordSchemas rs = stack.schemas(Service.PROBE_WORKER);
        JsonNode yaml = Repo.yaml("regions: us-east\nhttp:\n  port:\n    number: 8083\n");
        List<String> problems = rs.check(yaml, rs.record("ProbeWorkerConfig", "ProbeWorkerConfig"), "");
        assertThat(problems).containsExactly("regions: must be a list", "http.port: must be a single value (Integer)");
    }

    @Test
    void anEnvironmentOverrideOfNoKeyIsReported() {
        Stack s = brokenStack(c -> ((ObjectNode) c.at("/services/streams/environment")).put("VIGIL_HTTP_PROT", "9999"));
        List<String> problems = new ArrayList<>();
        ConfigChecks cc = s.configChecks();
        assertThat(cc.environment(cc.load(problems), s.routingFiles()))
                .anySatisfy(p -> assertThat(p).startsWith("streams.environment.VIGIL_HTTP_PROT: overrides no key"));
    }

    @Test
    void aSecretTheRoutingNamesButTheContainerLacksIsReported() {
        Stack s = brokenStack(c -> ((ObjectNode) c.at("/services/notifier/environment")).remove("SLACK_WEBHOOK_URL"));
        List<String> problems = new ArrayList<>();
        ConfigChecks cc = s.configChecks();
        assertThat(cc.environment(cc.load(problems), s.routingFiles()))
                .contains(
                        "notifier: configuration names secret variable SLACK_WEBHOOK_URL but the container does not set it");
    }

    @Test
    void anInlineSecretIsReported() {
        ComposeChecks broken = broken(c -> ((ObjectNode) c.at("/services/notifier/environment"))
                .put("SLACK_WEBHOOK_URL", "https://hooks.slack.example/T000/B000/XXXX"));
        assertThat(broken.secretsFromEnvironment())
                .containsExactly(
                        "notifier.environment.SLACK_WEBHOOK_URL: a secret must be interpolated from the host environment (${VAR}), never written inline");
    }

    @Test
    void anUndocumentedVariableIsReported() {
        String text = stack.composeText + "\n# ${VIGIL_UNDOCUMENTED_KNOB:-1}\n";
        ComposeChecks checks = new ComposeChecks(stack.compose, text, stack.docker);
        assertThat(checks.interpolatedVariablesDocumented(stack.readme))
                .containsExactly(
                        "${VIGIL_UNDOCUMENTED_KNOB} is used in docker-compose.yml but not documented (as `VIGIL_UNDOCUMENTED_KNOB`) in docker/README.md");
    }

    @Test
    void aHostPortCollisionIsReported() {
        ComposeChecks broken =
                broken(c -> ((ArrayNode) c.at("/services/grafana/ports")).set(0, c.textNode("9090:3000")));
        assertThat(broken.ports(Map.of())).contains("host port 9090 is published by both prometheus and grafana");
    }

    @Test
    void aPrometheusTargetThatIsNoServiceOrTheWrongPortIsReported() {
        List<String> problems = new ArrayList<>();
        ConfigChecks cc = stack.configChecks();
        Map<String, Integer> ports = cc.listenPorts(cc.load(problems), problems);
        JsonNode prom = stack.prometheus.deepCopy();
        ArrayNode targets = (ArrayNode) prom.at("/scrape_configs/0/static_configs/0/targets");
        targets.set(0, targets.textNode("ingest:9999"));
        ((ObjectNode) prom.at("/scrape_configs/1/static_configs/0"))
                .putArray("targets")
                .add("stream:8081");
        assertThat(stack.composeChecks().prometheusTargets(prom, ports))
                .contains(
                        "prometheus job vigil-ingest: target ingest:9999: ingest listens on 8080",
                        "prometheus job vigil-streams: target stream:8081: stream is not a compose service",
                        "prometheus scrapes streams 0 times (expected exactly once)");
    }

    @Test
    void topicsThatDifferFromTopicsAllAreCaught() {
        List<TopicLine> declared = ComposeChecks.declaredTopics(
                "class Topics { static final String A = \"vigil.a\"; static final int P = 4;\n"
                        + " static List<TopicSpec> all() { return List.of(new TopicSpec(A, P, true), new TopicSpec(\"vigil.b\", 2, false)); } }");
        assertThat(declared).containsExactly(new TopicLine("vigil.a", 4, true), new TopicLine("vigil.b", 2, false));
        List<TopicLine> created = ComposeChecks.scriptTopics("create vigil.a 4 delete\ncreate vigil.b 2 delete\n");
        assertThat(created).isNotEqualTo(declared);
    }

    @Test
    void aKafkaImageOtherThanTheClientVersionIsReported() {
        ComposeChecks broken = broken(c -> ((ObjectNode) c.at("/services/kafka")).put("image", "apache/kafka:3.9.0"));
        assertThat(broken.kafka(stack.kafkaVersion(), Set.of("kafka:9092")))
                .anySatisfy(p -> assertThat(p).startsWith("kafka.image: apache/kafka:3.9.0 should be"));
        assertThat(stack.composeChecks().kafka(stack.kafkaVersion(), Set.of("broker:9092")))
                .anySatisfy(p -> assertThat(p).startsWith("kafka: clients bootstrap from broker:9092"));
    }

    @Test
    void anUnpinnedImageIsReported() {
        ComposeChecks broken =
                broken(c -> ((ObjectNode) c.at("/services/grafana")).put("image", "grafana/grafana:latest"));
        assertThat(broken.images())
                .containsExactly("grafana.image: 'grafana/grafana:latest' must pin a version, not latest");
    }

    @Test
    void aMisspelledAttributeOrABadDurationIsReported() {
        ComposeChecks broken = broken(c -> {
            ((ObjectNode) c.at("/services/postgres")).set("depend_on", c.objectNode());
            ((ObjectNode) c.at("/services/postgres/healthcheck")).put("interval", "5 seconds");
        });
        assertThat(broken.knownKeys())
                .containsExactlyInAnyOrder(
                        "postgres.depend_on: not a compose service attribute",
                        "postgres.healthcheck.interval: '5 seconds' is not a duration such as 10s or 1m30s");
    }

    private ComposeChecks broken(Consumer<ObjectNode> edit) {
        return brokenStack(edit).composeChecks();
    }

    private Stack brokenStack(Consumer<ObjectNode> edit) {
        ObjectNode copy = stack.compose.deepCopy();
        edit.accept(copy);
        return new Stack(copy);
    }

    static Path docker() {
        return Repo.docker();
    }
}

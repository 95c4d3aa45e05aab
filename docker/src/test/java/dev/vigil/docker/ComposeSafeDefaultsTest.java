package dev.vigil.docker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stack as shipped is safe to start on a laptop on a shared network (docs/security.md): every port on
 * 127.0.0.1, Kafka not published, no default password or key in the compose file or the configs, and the audit
 * topic created. The second half breaks copies to show each check catches what it is for.
 */
class ComposeSafeDefaultsTest {
    private static final List<String> REQUIRED =
            List.of("POSTGRES_PASSWORD", "GRAFANA_ADMIN_PASSWORD", "INGEST_DEMO_KEY_SHA256");
    private static final long NINETY_DAYS_MS = 90L * 24 * 60 * 60 * 1000;

    private final Stack stack = new Stack();
    private final Path kafkaOverride = stack.docker.resolve("docker-compose.kafka-host.yml");

    @Test
    void everyPublishedPortBindsLoopbackOnly() {
        assertThat(SafeDefaults.loopbackPorts(stack.compose, "docker-compose.yml"))
                .isEmpty();
        List<String> ports = new java.util.ArrayList<>();
        stack.compose.path("services").forEach(s -> s.path("ports").forEach(p -> ports.add(p.asText())));
        assertThat(ports).hasSizeGreaterThanOrEqualTo(8).allMatch(p -> p.startsWith("127.0.0.1:"));
    }

    @Test
    void kafkaIsNotPublishedAndTheOverrideThatPublishesItBindsLoopback() {
        assertThat(SafeDefaults.kafkaUnpublished(stack.compose)).isEmpty();

        JsonNode override = Repo.yaml(kafkaOverride);
        assertThat(override.path("services").fieldNames()).toIterable().containsExactly("kafka");
        assertThat(SafeDefaults.loopbackPorts(override, "docker-compose.kafka-host.yml"))
                .isEmpty();
        assertThat(override.at("/services/kafka/ports").toString()).isEqualTo("[\"127.0.0.1:9094:9094\"]");
        // it publishes the listener the stack advertises to the host
        Map<String, String> env = ComposeChecks.environment(stack.compose.at("/services/kafka"));
        assertThat(env.get("KAFKA_LISTENERS")).contains("HOST://:9094");
        assertThat(env.get("KAFKA_ADVERTISED_LISTENERS")).contains("HOST://localhost:9094");
        assertThat(stack.readme)
                .contains("docker compose -f docker/docker-compose.yml -f docker/docker-compose.kafka-host.yml");
    }

    @Test
    void noSecretHasADefaultAndTheNeededOnesAreRequiredWithAMessage() {
        assertThat(SafeDefaults.noDefaultSecrets(stack.compose, stack.composeText))
                .isEmpty();
        assertThat(SafeDefaults.required(stack.composeText, REQUIRED)).isEmpty();
        assertThat(stack.composeText).doesNotContain("vigil-local-only").doesNotContain("vigil-local-demo-key");
    }

    @Test
    void noConfigFileShipsAPasswordATokenOrAKeyHash() {
        List<Path> files = SafeDefaults.configFiles(stack.docker);
        assertThat(files.stream().map(p -> p.getFileName().toString()))
                .contains("vigil-ingest.yaml", "vigil-notifier.yaml", "prometheus.yml");
        assertThat(SafeDefaults.configFilesHoldNoSecrets(files)).isEmpty();
        assertThat(SafeDefaults.configFilesHoldNoSecrets(List.of(kafkaOverride)))
                .isEmpty();
    }

    @Test
    void theAuditTopicIsCreatedAsAnAppendOnlyLogKeptNinetyDays() {
        String script = Repo.text(stack.docker.resolve("kafka/create-topics.sh"));
        assertThat(ComposeChecks.scriptTopics(script)).contains(new ComposeChecks.TopicLine("vigil.audit", 1, false));
        assertThat(ComposeChecks.scriptRetentions(script)).containsEntry("vigil.audit", NINETY_DAYS_MS);
        assertThat(script).contains("--config \"retention.ms=$retention\"");
    }

    @Test
    void theReadmeTopicTableListsEveryCreatedTopicWithItsPolicy() {
        String script = Repo.text(stack.docker.resolve("kafka/create-topics.sh"));
        for (ComposeChecks.TopicLine t : ComposeChecks.scriptTopics(script)) {
            assertThat(stack.readme)
                    .as(t.name())
                    .containsPattern("(?m)^\\| `" + java.util.regex.Pattern.quote(t.name()) + "` \\| " + t.partitions()
                            + " \\| " + (t.compacted() ? "compact" : "delete") + " \\|");
        }
        assertThat(stack.readme).contains("`vigil.audit` | 1 | delete | 90 days (`retention.ms=7776000000`)");
    }

    @Test
    void generateEnvWritesAnOwnerOnlyFileWithFreshSecretsAndNeverOverwrites(@TempDir Path dir) throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/bin/sh")) && Files.exists(Path.of("/dev/urandom")), "needs /bin/sh");
        Path first = dir.resolve("first.env");
        Path second = dir.resolve("second.env");

        assertThat(generateEnv(first)).isZero();
        assertThat(generateEnv(second)).isZero();

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(first)))
                .isEqualTo("rw-------");
        Map<String, String> a = envFile(first);
        Map<String, String> b = envFile(second);
        assertThat(a)
                .containsOnlyKeys(
                        "POSTGRES_PASSWORD", "GRAFANA_ADMIN_PASSWORD", "DEMO_INGEST_KEY", "INGEST_DEMO_KEY_SHA256");
        for (String k : List.of("POSTGRES_PASSWORD", "GRAFANA_ADMIN_PASSWORD", "DEMO_INGEST_KEY")) {
            assertThat(a.get(k)).as(k).matches("[0-9a-f]{48}").isNotEqualTo(b.get(k));
        }
        assertThat(a.get("POSTGRES_PASSWORD")).isNotEqualTo(a.get("GRAFANA_ADMIN_PASSWORD"));
        assertThat(a.get("INGEST_DEMO_KEY_SHA256")).isEqualTo(sha256(a.get("DEMO_INGEST_KEY")));
        // the compose file requires exactly what it writes
        assertThat(a.keySet()).containsAll(REQUIRED);

        String before = Files.readString(first);
        assertThat(generateEnv(first)).isNotZero();
        assertThat(Files.readString(first)).isEqualTo(before);

        Path link = dir.resolve("link.env");
        Path target = dir.resolve("target");
        Files.createSymbolicLink(link, target);
        assertThat(generateEnv(link)).isNotZero();
        assertThat(target).doesNotExist();
    }

    @Test
    void theEnvFileIsKeptOutOfGit() {
        assertThat(Repo.text(stack.docker.resolve(".gitignore")).lines()).contains("/.env");
    }

    // ---- each check catches what it is for ----

    @Test
    void aPortOnEveryInterfaceIsReported() {
        ObjectNode copy = stack.compose.deepCopy();
        ((ArrayNode) copy.at("/services/grafana/ports")).set(0, copy.textNode("3000:3000"));
        ((ArrayNode) copy.at("/services/ingest/ports"))
                .set(0, copy.objectNode().put("target", 8080).put("published", 8080));
        assertThat(SafeDefaults.loopbackPorts(copy, "docker-compose.yml"))
                .hasSize(2)
                .anySatisfy(p -> assertThat(p)
                        .startsWith("docker-compose.yml: grafana.ports: \"3000:3000\" must bind 127.0.0.1"))
                .anySatisfy(p -> assertThat(p).startsWith("docker-compose.yml: ingest.ports:"));
        ((ArrayNode) copy.at("/services/grafana/ports")).set(0, copy.textNode("0.0.0.0:3000:3000"));
        assertThat(SafeDefaults.loopbackPorts(copy, "x"))
                .anySatisfy(p -> assertThat(p).contains("grafana.ports"));
    }

    @Test
    void aPublishedKafkaIsReported() {
        ObjectNode copy = stack.compose.deepCopy();
        ((ObjectNode) copy.at("/services/kafka")).putArray("ports").add("127.0.0.1:9094:9094");
        assertThat(SafeDefaults.kafkaUnpublished(copy))
                .singleElement()
                .asString()
                .startsWith("kafka.ports:");
    }

    @Test
    void aDefaultPasswordOrKeyIsReported() {
        String withDefault = stack.composeText.replace(
                "${GRAFANA_ADMIN_PASSWORD:?set GRAFANA_ADMIN_PASSWORD",
                "${GRAFANA_ADMIN_PASSWORD:-admin}${X:?set GRAFANA_ADMIN_PASSWORD");
        assertThat(withDefault).isNotEqualTo(stack.composeText);
        JsonNode tree = Repo.yaml(withDefault);
        assertThat(SafeDefaults.noDefaultSecrets(tree, withDefault))
                .anySatisfy(p ->
                        assertThat(p).startsWith("docker-compose.yml: ${GRAFANA_ADMIN_PASSWORD} has a default value"))
                .anySatisfy(p -> assertThat(p).startsWith("grafana.environment.GF_SECURITY_ADMIN_PASSWORD:"));
        assertThat(SafeDefaults.required(withDefault, List.of("GRAFANA_ADMIN_PASSWORD")))
                .anySatisfy(p -> assertThat(p).contains("must be required as ${GRAFANA_ADMIN_PASSWORD:?what to set}"));

        ObjectNode inline = stack.compose.deepCopy();
        ((ObjectNode) inline.at("/services/ingest/environment"))
                .put("VIGIL_API_KEYS_DEMO", "4fb2ac1b8f7dfb1fad7b53f570ad5beb6962b2e1390c7b470bdc9d1addc3f5d7");
        assertThat(SafeDefaults.noDefaultSecrets(inline, stack.composeText))
                .contains(
                        "ingest.environment.VIGIL_API_KEYS_DEMO: a secret must come from the host environment with no default value");
        assertThat(SafeDefaults.noDefaultSecrets(
                        stack.compose,
                        stack.composeText + "\n# 4fb2ac1b8f7dfb1fad7b53f570ad5beb6962b2e1390c7b470bdc9d1addc3f5d7\n"))
                .hasSize(1);
    }

    @Test
    void aSecretInAConfigFileIsReported(@TempDir Path dir) throws Exception {
        Path ingest = dir.resolve("vigil-ingest.yaml");
        Files.writeString(
                ingest, "apiKeys:\n  demo:\n    - 4fb2ac1b8f7dfb1fad7b53f570ad5beb6962b2e1390c7b470bdc9d1addc3f5d7\n");
        Path notifier = dir.resolve("vigil-notifier.yaml");
        Files.writeString(notifier, "database:\n  password: hunter2\n  passwordEnv: VIGIL_DB_PASSWORD\n");
        Path clean = dir.resolve("clean.yaml");
        Files.writeString(clean, "apiKeys:\n  demo: []\ndatabase:\n  passwordEnv: VIGIL_DB_PASSWORD\n");

        assertThat(SafeDefaults.configFilesHoldNoSecrets(List.of(clean))).isEmpty();
        assertThat(SafeDefaults.configFilesHoldNoSecrets(List.of(ingest, notifier)))
                .anySatisfy(p ->
                        assertThat(p).endsWith("holds a 64-hex value (an API key's SHA-256?): no key may be shipped"))
                .anySatisfy(p -> assertThat(p).contains("apiKeys holds a value"))
                .anySatisfy(p -> assertThat(p).contains("database.password holds a value"));
    }

    @Test
    void aMissingAuditTopicOrRetentionIsCaught() {
        String script = Repo.text(stack.docker.resolve("kafka/create-topics.sh"));
        String without = script.replaceAll("(?m)^create vigil\\.audit .*$", "create vigil.audit 1 compact");
        assertThat(ComposeChecks.scriptTopics(without))
                .doesNotContain(new ComposeChecks.TopicLine("vigil.audit", 1, false));
        assertThat(ComposeChecks.scriptRetentions(without)).doesNotContainKey("vigil.audit");
    }

    private static int generateEnv(Path out) throws Exception {
        Process p = new ProcessBuilder(
                        "/bin/sh", Repo.docker().resolve("generate-env.sh").toString(), out.toString())
                .redirectErrorStream(true)
                .start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        if (Files.isRegularFile(out, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            // nothing secret is printed
            envFile(out).values().forEach(v -> assertThat(output).doesNotContain(v));
        }
        return p.exitValue();
    }

    private static Map<String, String> envFile(Path file) throws Exception {
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file)) {
            if (!line.isBlank() && !line.startsWith("#")) {
                int eq = line.indexOf('=');
                out.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        return out;
    }

    private static String sha256(String s) throws Exception {
        return HexFormat.of()
                .formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    }
}

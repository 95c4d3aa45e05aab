package dev.vigil.docker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docker/Dockerfile: builds the shaded jar with the whole reactor present and runs it as a non-root user. */
class DockerfileTest {
    private final String dockerfile = Repo.text(Repo.docker().resolve("Dockerfile"));

    @Test
    void copiesEveryReactorModulePomBecauseMavenReadsTheWholeReactorEvenWithPl() {
        List<String> modules = Stack.modules();
        assertThat(modules).contains("schemas", "standalone", "docker");
        assertThat(dockerfile).contains("COPY pom.xml ./");
        for (String m : modules) {
            assertThat(dockerfile).as("COPY of " + m + "/pom.xml").contains("COPY " + m + "/pom.xml " + m + "/");
        }
    }

    @Test
    void copiesTheSourcesOfStandaloneAndEveryModuleItBuildsWith() {
        for (String m : List.of(
                "schemas", "embedded", "probe-worker", "ingest", "streams-topology", "notifier", "standalone")) {
            assertThat(dockerfile).contains("COPY " + m + "/src " + m + "/src");
        }
    }

    @Test
    void buildsTheShadedJarOnTemurin17AndRunsItOnTheJre() {
        assertThat(dockerfile).contains("FROM maven:3.9-eclipse-temurin-17 AS build");
        assertThat(dockerfile).contains("mvn -B -DskipTests -pl standalone -am package");
        assertThat(dockerfile).contains("standalone/target/vigil.jar");
        assertThat(dockerfile).contains("FROM eclipse-temurin:17-jre");
        assertThat(dockerfile).contains("ENTRYPOINT [\"java\", \"-jar\", \"/opt/vigil/vigil.jar\"]");
    }

    @Test
    void runsAsANonRootUserAndHasCurlForTheComposeHealthChecks() {
        Matcher user = Pattern.compile("(?m)^USER\\s+(\\S+)").matcher(dockerfile);
        String last = null;
        while (user.find()) {
            last = user.group(1);
        }
        assertThat(last).isNotNull().doesNotStartWith("root").doesNotStartWith("0");
        assertThat(dockerfile).contains("apt-get install -y --no-install-recommends curl");
        assertThat(Repo.text(Repo.docker().resolve("docker-compose.yml"))).contains("\"curl\", \"-fsS\"");
    }

    @Test
    void everyCopiedPathExistsAndIsNotExcludedFromTheBuildContext() {
        List<java.nio.file.PathMatcher> ignored = Repo.text(Repo.root().resolve(".dockerignore"))
                .lines()
                .map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("#") && !l.startsWith("!"))
                .map(l -> java.nio.file.FileSystems.getDefault().getPathMatcher("glob:" + l))
                .toList();
        Matcher copy =
                Pattern.compile("(?m)^COPY\\s+(?!--from)(\\S+)\\s+\\S+\\s*$").matcher(dockerfile);
        int n = 0;
        while (copy.find()) {
            n++;
            String src = copy.group(1);
            assertThat(Repo.root().resolve(src)).as("COPY " + src).exists();
            java.nio.file.Path p = java.nio.file.Path.of(src);
            for (java.nio.file.Path prefix = p; prefix != null; prefix = prefix.getParent()) {
                java.nio.file.Path candidate = prefix;
                assertThat(ignored)
                        .as("COPY " + src + " excluded by .dockerignore")
                        .noneMatch(m -> m.matches(candidate));
            }
        }
        assertThat(n).isGreaterThan(10);
    }

    @Test
    void theBuildContextIgnoresBuildOutputAndGit() {
        String ignore = Repo.text(Repo.root().resolve(".dockerignore"));
        assertThat(ignore).contains(".git", "**/target", "**/target-*");
        assertThat(ignore).doesNotContain("schemas/src", "standalone/src");
    }
}

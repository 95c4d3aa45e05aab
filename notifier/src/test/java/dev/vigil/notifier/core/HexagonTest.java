package dev.vigil.notifier.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The core decides; adapters know vendors and I/O. The core never names an adapter package. */
class HexagonTest {
    @Test
    void coreImportsNoAdapter() throws IOException {
        Path core = Path.of("src/main/java/dev/vigil/notifier/core");
        List<String> offenders;
        // walked, not listed: the core's subpackages (its delivery stages) are the core too
        try (Stream<Path> files = Files.walk(core)) {
            offenders = files.filter(Files::isRegularFile)
                    .filter(f -> {
                        try {
                            return Files.readString(f)
                                            .matches(
                                                    "(?s).*dev\\.vigil\\.notifier\\.(channel|claim|consume|config|http)\\b.*")
                                    || Files.readString(f)
                                            .matches("(?s).*(io\\.r2dbc|org\\.apache\\.kafka|reactor\\.netty)\\..*");
                        } catch (IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    })
                    .map(f -> f.getFileName().toString())
                    .toList();
        }
        assertThat(offenders).isEmpty();
        try (Stream<Path> files = Files.list(core)) {
            assertThat(files.count()).isGreaterThan(10);
        }
    }
}

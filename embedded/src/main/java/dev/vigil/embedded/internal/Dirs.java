package dev.vigil.embedded.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Temporary-directory helpers shared by the embedded servers. Not part of the public API. */
public final class Dirs {
    private static final Logger LOG = LoggerFactory.getLogger(Dirs.class);

    private Dirs() {}

    public static Path createTemp(String prefix) {
        try {
            return Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "could not create a temporary directory " + prefix + "* in " + System.getProperty("java.io.tmpdir")
                            + ": " + e.getMessage(),
                    e);
        }
    }

    /** Best effort: a directory that cannot be deleted is logged, not thrown, so shutdown goes on. */
    public static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.deleteIfExists(path);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            LOG.warn("could not delete {}: {}", dir, e.getMessage());
        }
    }
}

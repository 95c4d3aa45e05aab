package dev.vigil.streams.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Tells whether the previous Kafka Streams run on a state directory ended without a clean close (killed, crashed,
 * out of memory), so that its local stores can be thrown away before the start instead of after it.
 *
 * <p>Why: under exactly-once a task's stores get a checkpoint only when the task is closed cleanly. After a
 * {@code kill -9} no store has one, and on the next start Kafka Streams first opens every task directory it finds
 * (to report its lag to the assignor), then finds each store "not empty without a checkpoint", marks the task
 * corrupted, wipes it and restores it from its changelog. Opening the stores only to wipe them took seconds with
 * a few dozen tasks on two cores; deleting the application's state directory up front ({@link
 * org.apache.kafka.streams.KafkaStreams#cleanUp()}) restores the same stores from the same changelogs without that
 * detour. The price: standby stores that did have a checkpoint are restored from the start of their changelog too.
 *
 * <p>The marker is a file beside the application's state directory ({@code <state.dir>/<application.id>.running}),
 * created when Streams starts and deleted after a close that completed within its timeout. {@code cleanUp()}
 * deletes only {@code <state.dir>/<application.id>}, so the marker survives it.
 */
final class UncleanStopMarker {
    private final Path file;

    private UncleanStopMarker(Path file) {
        this.file = file;
    }

    static UncleanStopMarker of(String stateDir, String applicationId) {
        return new UncleanStopMarker(Path.of(stateDir).toAbsolutePath().resolve(applicationId + ".running"));
    }

    Path file() {
        return file;
    }

    /** Whether a run on this state directory started and never closed cleanly. */
    boolean previousRunUnclean() {
        return Files.exists(file);
    }

    /** Marks the run as started; called just before Kafka Streams starts. */
    void started() {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, Long.toString(ProcessHandle.current().pid()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** Marks the run as closed cleanly; called only when Kafka Streams closed within its timeout. */
    void closedCleanly() {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + file, e);
        }
    }
}

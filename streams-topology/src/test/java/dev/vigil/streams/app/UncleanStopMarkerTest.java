package dev.vigil.streams.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UncleanStopMarkerTest {
    @TempDir
    Path stateDir;

    @Test
    void aFreshStateDirectoryWasStoppedCleanly() {
        assertThat(UncleanStopMarker.of(stateDir.toString(), "vigil-streams").previousRunUnclean()).isFalse();
    }

    @Test
    void aRunThatNeverClosedIsSeenByTheNextStartAndAClosedOneIsNot() {
        UncleanStopMarker first = UncleanStopMarker.of(stateDir.toString(), "vigil-streams");
        first.started();
        // the process dies here: the next start on the same directory sees it
        UncleanStopMarker second = UncleanStopMarker.of(stateDir.toString(), "vigil-streams");
        assertThat(second.previousRunUnclean()).isTrue();
        second.started();
        second.closedCleanly();
        assertThat(UncleanStopMarker.of(stateDir.toString(), "vigil-streams").previousRunUnclean()).isFalse();
    }

    @Test
    void theMarkerLivesBesideTheApplicationDirectorySoCleanUpKeepsIt() {
        UncleanStopMarker marker = UncleanStopMarker.of(stateDir.toString(), "vigil-streams");
        marker.started();
        assertThat(marker.file().getParent()).isEqualTo(stateDir.toAbsolutePath());
        assertThat(marker.file()).isNotEqualTo(stateDir.resolve("vigil-streams"));
        assertThat(Files.exists(marker.file())).isTrue();
        // another application id on the same state directory has its own marker
        assertThat(UncleanStopMarker.of(stateDir.toString(), "other-app").previousRunUnclean()).isFalse();
    }
}

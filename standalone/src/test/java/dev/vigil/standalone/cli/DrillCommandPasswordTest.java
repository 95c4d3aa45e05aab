package dev.vigil.standalone.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.embedded.postgres.PostgresUrl;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code vigil drill} reaches the standalone's embedded PostgreSQL, which requires its generated password. */
class DrillCommandPasswordTest {
    private static final String PASSWORD = "Gen3ratedPasswordGen3ratedPass00";

    @TempDir
    Path dataDir;

    @Test
    void aLoopbackUrlWithoutPasswordGetsTheOneInTheDataDirectory() throws Exception {
        storePassword();
        DrillCommand drill = parse("--data-dir", dataDir.toString());

        PostgresUrl url =
                drill.withStandalonePassword(PostgresUrl.parse("postgresql://postgres@127.0.0.1:5433/postgres"));

        assertThat(url.password()).isEqualTo(PASSWORD);
        assertThat(url.toString()).doesNotContain(PASSWORD);
    }

    @Test
    void anotherHostOrAGivenPasswordIsLeftAlone() throws Exception {
        storePassword();
        DrillCommand drill = parse("--data-dir", dataDir.toString());

        assertThat(drill.withStandalonePassword(PostgresUrl.parse("postgresql://postgres@db.example.com:5432/postgres"))
                        .password())
                .isNull();
        assertThat(drill.withStandalonePassword(PostgresUrl.parse("postgresql://postgres:mine@127.0.0.1:5433/postgres"))
                        .password())
                .isEqualTo("mine");
    }

    @Test
    void withoutAStandaloneDataDirectoryTheUrlIsUnchanged() {
        DrillCommand drill = parse("--data-dir", dataDir.resolve("none").toString());
        assertThat(drill.withStandalonePassword(PostgresUrl.parse("postgresql://postgres@localhost:5433/postgres"))
                        .password())
                .isNull();
    }

    private void storePassword() throws Exception {
        // as the embedded server writes it: <data dir>/postgres/vigil-postgres.password, owner-only
        Path pg = Files.createDirectories(dataDir.resolve("postgres"));
        Path file = pg.resolve("vigil-postgres.password");
        Files.writeString(file, PASSWORD + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    }

    private static DrillCommand parse(String... args) {
        DrillCommand drill = new DrillCommand();
        String[] all = new String[args.length + 2];
        all[0] = "--monitor";
        all[1] = "drill-test";
        System.arraycopy(args, 0, all, 2, args.length);
        new CommandLine(drill).parseArgs(all);
        return drill;
    }
}

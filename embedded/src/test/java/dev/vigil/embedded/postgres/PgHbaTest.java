package dev.vigil.embedded.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PgHbaTest {
    private static final String TRUSTING =
            """
            # TYPE  DATABASE        USER            ADDRESS                 METHOD
            # "trust" lets anyone in: see the docs
            local   all             all                                     trust
            host    all             all             127.0.0.1/32            trust
            host    all             all             ::1/128                 trust  # loopback
            local   replication     all                                     trust
            host    replication     all             127.0.0.1 255.255.255.255 trust
            """;

    @TempDir
    Path dir;

    @Test
    void replacesTrustInEveryRuleAndKeepsTheRest() throws Exception {
        Files.writeString(dir.resolve(PgHba.FILE), TRUSTING);
        assertThat(PgHba.trustsAnyone(dir)).isTrue();

        PgHba.requirePasswords(dir, "scram-sha-256");

        String rewritten = Files.readString(dir.resolve(PgHba.FILE));
        assertThat(PgHba.trustsAnyone(dir)).isFalse();
        assertThat(rewritten)
                .contains("# \"trust\" lets anyone in: see the docs")
                .contains("local   all             all                                     scram-sha-256\n")
                .contains("::1/128                 scram-sha-256  # loopback")
                .contains("127.0.0.1 255.255.255.255 scram-sha-256");
        assertThat(rewritten.lines().filter(l -> !l.startsWith("#"))).noneMatch(l -> l.contains("trust"));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve(PgHba.FILE))))
                .isEqualTo("rw-------");
        try (var files = Files.list(dir)) {
            assertThat(files).containsExactly(dir.resolve(PgHba.FILE));
        }
    }

    @Test
    void passwordRulesAndCommentsDoNotCountAsTrust() throws Exception {
        Files.writeString(
                dir.resolve(PgHba.FILE),
                """
                # trust nobody
                local all all scram-sha-256
                host  all all 127.0.0.1/32 md5   # was trust
                """);
        assertThat(PgHba.trustsAnyone(dir)).isFalse();
    }
}

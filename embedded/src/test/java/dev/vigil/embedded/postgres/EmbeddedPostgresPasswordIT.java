package dev.vigil.embedded.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded server refuses connections without its generated password and keeps it across restarts. */
class EmbeddedPostgresPasswordIT {
    @TempDir
    Path dir;

    @Test
    void onlyTheGeneratedPasswordGetsInAndASecondStartReusesIt() throws Exception {
        Path dataDir = dir.resolve("postgres");
        String password;
        try (EmbeddedPostgres server = EmbeddedPostgres.builder()
                .useEnvironment(false)
                .dataDir(dataDir)
                .start()) {
            password = server.password();
            assertThat(password).hasSizeGreaterThanOrEqualTo(24);
            assertThat(server.database().password()).isEqualTo(password);
            assertThat(server.database().url().toUrlString()).contains(":" + password + "@");
            assertThat(server.toString()).doesNotContain(password);

            Path file = dataDir.resolve(PasswordFile.NAME);
            assertThat(Files.isSymbolicLink(file)).isFalse();
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                    .isEqualTo("rw-------");
            assertThat(Files.readString(file).strip()).isEqualTo(password);
            assertThat(EmbeddedPostgres.storedPassword(dataDir)).contains(password);
            assertThat(Files.readString(dataDir.resolve("pg_hba.conf"))
                            .lines()
                            .filter(l -> !l.isBlank() && !l.startsWith("#")))
                    .isNotEmpty()
                    .allMatch(l -> l.strip().endsWith("scram-sha-256"));

            assertThat(selectOne(server, password)).isEqualTo(1);
            assertRefused(server, null);
            assertRefused(server, "wrong-" + password);
            try (Connection c = server.database().openJdbcConnection();
                    Statement s = c.createStatement()) {
                s.execute("CREATE TABLE kept (id int)");
            }

            server.stop();
            server.start();
            assertThat(selectOne(server, password)).isEqualTo(1);
        }

        try (EmbeddedPostgres again = EmbeddedPostgres.builder()
                .useEnvironment(false)
                .dataDir(dataDir)
                .start()) {
            assertThat(again.password()).isEqualTo(password);
            assertThat(selectOne(again, password)).isEqualTo(1);
            assertRefused(again, null);
            try (Connection c = again.database().openJdbcConnection();
                    ResultSet rs = c.createStatement().executeQuery("SELECT to_regclass('kept') IS NOT NULL")) {
                rs.next();
                assertThat(rs.getBoolean(1)).isTrue();
            }
        }
    }

    @Test
    void throwawayServersHaveTheirOwnPasswords() {
        try (EmbeddedPostgres a =
                        EmbeddedPostgres.builder().useEnvironment(false).start();
                EmbeddedPostgres b =
                        EmbeddedPostgres.builder().useEnvironment(false).start()) {
            assertThat(a.password()).isNotEqualTo(b.password());
            assertThatThrownBy(() -> selectOne(a, b.password())).isInstanceOf(SQLException.class);
        }
    }

    @Test
    void aClusterThatTrustedEveryoneIsGivenAPasswordAndKeepsItsData() throws Exception {
        Path dataDir = dir.resolve("legacy");
        int port;
        // What an older Vigil made: zonky's defaults, trust for every local connection.
        try (var legacy = io.zonky.test.db.postgres.embedded.EmbeddedPostgres.builder()
                        .setDataDirectory(dataDir)
                        .setCleanDataDirectory(false)
                        .start();
                Connection c = legacy.getPostgresDatabase().getConnection();
                Statement s = c.createStatement()) {
            port = legacy.getPort();
            s.execute("CREATE TABLE claims (id int)");
        }
        assertThat(PgHba.trustsAnyone(dataDir)).isTrue();

        try (EmbeddedPostgres server = EmbeddedPostgres.builder()
                .useEnvironment(false)
                .dataDir(dataDir)
                .port(port)
                .start()) {
            assertThat(PgHba.trustsAnyone(dataDir)).isFalse();
            assertThat(EmbeddedPostgres.storedPassword(dataDir)).contains(server.password());
            assertRefused(server, null);
            assertRefused(server, "not-the-password");
            try (Connection c = server.database().openJdbcConnection();
                    ResultSet rs = c.createStatement().executeQuery("SELECT to_regclass('claims') IS NOT NULL")) {
                rs.next();
                assertThat(rs.getBoolean(1)).isTrue();
            }
        }
    }

    @Test
    void aPasswordProtectedClusterWithoutItsPasswordFileFailsClearly() throws Exception {
        Path dataDir = dir.resolve("orphan");
        String password;
        try (EmbeddedPostgres server = EmbeddedPostgres.builder()
                .useEnvironment(false)
                .dataDir(dataDir)
                .start()) {
            password = server.password();
        }
        Files.delete(dataDir.resolve(PasswordFile.NAME));

        EmbeddedPostgres orphan = EmbeddedPostgres.builder()
                .useEnvironment(false)
                .dataDir(dataDir)
                .build();
        assertThatThrownBy(orphan::start)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(PasswordFile.NAME + " is missing")
                .hasMessageContaining("delete " + dataDir)
                .hasMessageNotContaining(password);
        orphan.close();
        assertThat(dataDir.resolve(PasswordFile.NAME)).doesNotExist();
    }

    private static int selectOne(EmbeddedPostgres server, String password) throws SQLException {
        try (Connection c = connect(server, password);
                ResultSet rs = c.createStatement().executeQuery("SELECT 1")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static void assertRefused(EmbeddedPostgres server, String password) {
        assertThatThrownBy(() -> connect(server, password).close())
                .isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isIn("28P01", "08004"));
    }

    private static Connection connect(EmbeddedPostgres server, String password) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", server.user());
        if (password != null) {
            p.setProperty("password", password);
        }
        p.setProperty("connectTimeout", "5");
        return DriverManager.getConnection(server.jdbcUrl(), p);
    }
}

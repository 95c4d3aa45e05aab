package dev.vigil.standalone.cluster;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The cluster's PostgreSQL: Debian's server ({@code /usr/lib/postgresql/<version>/bin}) as its own process, run by
 * {@code postgres} itself in the foreground so the launcher's pid is the postmaster's. PostgreSQL refuses to run as
 * root, so under root the data directory is given to the {@code postgres} user and the server runs as that user
 * ({@code setpriv}, which execs without forking). The superuser {@code vigil} has a generated password
 * (SCRAM-SHA-256 for every connection, TCP on 127.0.0.1 only).
 */
final class ClusterPostgres {
    static final String USER = "vigil";
    private static final String OS_USER = "postgres";

    private final ClusterLayout layout;
    private final ProcessTable processes;
    private final PrintWriter out;
    private final LocalCluster.Runner runner;

    ClusterPostgres(ClusterLayout layout, ProcessTable processes, PrintWriter out, LocalCluster.Runner runner) {
        this.layout = layout;
        this.processes = processes;
        this.out = out;
        this.runner = runner;
    }

    /** The newest installed Debian PostgreSQL server's bin directory. */
    static Optional<Path> debianBin() {
        Path root = Path.of("/usr/lib/postgresql");
        if (!Files.isDirectory(root)) {
            return Optional.empty();
        }
        try (Stream<Path> versions = Files.list(root)) {
            return versions.map(v -> v.resolve("bin"))
                    .filter(b -> Files.isExecutable(b.resolve("postgres")) && Files.isExecutable(b.resolve("initdb")))
                    .max(Comparator.comparingInt(b -> {
                        String v = b.getParent().getFileName().toString();
                        return v.matches("\\d+") ? Integer.parseInt(v) : 0;
                    }));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static boolean root() {
        return "root".equals(System.getProperty("user.name"));
    }

    private List<String> asServerUser(List<String> command) {
        List<String> c = new ArrayList<>();
        if (root()) {
            c.addAll(List.of("setpriv", "--reuid=" + OS_USER, "--regid=" + OS_USER, "--init-groups", "--"));
        }
        c.addAll(command);
        return c;
    }

    void start() {
        if (processes.running(LocalCluster.POSTGRES).isPresent()) {
            return;
        }
        Path bin = debianBin()
                .orElseThrow(() -> new IllegalStateException(
                        "no PostgreSQL server found under /usr/lib/postgresql: install Debian's postgresql package"
                                + " (apt-get install postgresql)"));
        Path data = layout.postgresDir();
        if (!Files.isRegularFile(data.resolve("PG_VERSION"))) {
            initdb(bin, data);
        }
        processes.start(new ProcessSpec(
                LocalCluster.POSTGRES,
                asServerUser(List.of(
                        bin.resolve("postgres").toString(),
                        "-D",
                        data.toString(),
                        "-p",
                        Integer.toString(layout.postgresPort()),
                        "-c",
                        "listen_addresses=127.0.0.1",
                        "-c",
                        "unix_socket_directories=" + data,
                        "-c",
                        "max_connections=100",
                        "-c",
                        "fsync=on")),
                Map.of(),
                "INT"));
    }

    private void initdb(Path bin, Path data) {
        try {
            Files.createDirectories(data);
            Path pw = layout.dataDir().resolve("postgres-initdb-password");
            Files.deleteIfExists(pw);
            Files.writeString(pw, password() + "\n");
            if (root()) {
                UserPrincipalLookupService users = data.getFileSystem().getUserPrincipalLookupService();
                Files.setOwner(data, users.lookupPrincipalByName(OS_USER));
                Files.setOwner(pw, users.lookupPrincipalByName(OS_USER));
                requireReachable(data);
            }
            Files.setPosixFilePermissions(pw, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
            try {
                runner.run(
                        "postgres-initdb",
                        asServerUser(List.of(
                                bin.resolve("initdb").toString(),
                                "-D",
                                data.toString(),
                                "-U",
                                USER,
                                "--pwfile=" + pw,
                                "--auth=scram-sha-256",
                                "-E",
                                "UTF8",
                                "--no-instructions")),
                        Map.of(),
                        Duration.ofMinutes(2));
            } finally {
                Files.deleteIfExists(pw);
            }
            out.println("cluster: PostgreSQL data directory created at " + data);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot prepare the PostgreSQL data directory " + data + ": " + e.getMessage(), e);
        }
    }

    /** The postgres user must be able to walk to the data directory; a checkout under /root is not. */
    private static void requireReachable(Path data) {
        for (Path p = data.getParent(); p != null; p = p.getParent()) {
            try {
                var perms = Files.getPosixFilePermissions(p);
                if (!perms.contains(java.nio.file.attribute.PosixFilePermission.OTHERS_EXECUTE)) {
                    throw new IllegalStateException("PostgreSQL runs as the postgres user, which cannot enter " + p
                            + " (mode " + java.nio.file.attribute.PosixFilePermissions.toString(perms)
                            + "): choose a --data-dir it can reach, e.g. under /tmp or /var/tmp");
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private String password() {
        try {
            return dev.vigil.kit.auth.SecretFiles.read(layout.config().resolve("postgres-password"))
                    .orElseThrow();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + layout.postgresPort() + "/" + database;
    }

    /**
     * The notifiers' claims that are taken and not settled, as event id to owning instance: sent (or about to be)
     * and not recorded. With no notifier running, these are exactly the pages a notifier will send again once their
     * leases run out.
     */
    java.util.Map<String, String> unsettledClaims(String password) {
        try (Connection c = DriverManager.getConnection(jdbcUrl("vigil"), USER, password);
                Statement s = c.createStatement()) {
            var rs = s.executeQuery("SELECT event_id, owner FROM claims WHERE status = 'claimed'");
            java.util.Map<String, String> claims = new java.util.TreeMap<>();
            while (rs.next()) {
                claims.put(rs.getString(1), rs.getString(2));
            }
            return claims;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the notifiers' claims: " + e.getMessage(), e);
        }
    }

    /** Waits until the server accepts the vigil user, and creates the {@code vigil} database once. */
    void awaitReady(Duration timeout, String password) {
        Instant deadline = Instant.now().plus(timeout);
        while (true) {
            try (Connection c = DriverManager.getConnection(jdbcUrl("postgres"), USER, password);
                    Statement s = c.createStatement()) {
                var rs = s.executeQuery("SELECT 1 FROM pg_database WHERE datname = 'vigil'");
                if (!rs.next()) {
                    s.execute("CREATE DATABASE vigil");
                }
                return;
            } catch (SQLException e) {
                if (processes.running(LocalCluster.POSTGRES).isEmpty()) {
                    throw new IllegalStateException("PostgreSQL exited; see " + processes.log(LocalCluster.POSTGRES));
                }
                if (Instant.now().isAfter(deadline)) {
                    throw new IllegalStateException("PostgreSQL not accepting connections within " + timeout.toSeconds()
                            + " s: " + e.getMessage());
                }
                LocalCluster.sleep(250);
            }
        }
    }
}

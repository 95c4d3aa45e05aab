package dev.vigil.notifier.claim;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Whether the database server puts a commit on disk before it answers: a claim is only as durable as that. PostgreSQL
 * ships with {@code fsync} and {@code synchronous_commit} on; with either off (a throwaway test server, a tuned
 * replica, a role or database setting) a crash of PostgreSQL itself can lose its last commits, and the events whose
 * claims they were are sent again once it is back. Read at start-up, as the notifier's own role sees them.
 */
public final class ServerDurability {
    private ServerDurability() {}

    /** A warning naming what is off, or empty when the server flushes every commit (blocking JDBC). */
    public static Optional<String> warning(Migrations.Target target) {
        try (Connection c = target.connect();
                Statement s = c.createStatement();
                ResultSet r =
                        s.executeQuery("SELECT current_setting('fsync'), current_setting('synchronous_commit')")) {
            r.next();
            return warning(r.getString(1), r.getString(2));
        } catch (SQLException e) {
            return Optional.of("could not read whether PostgreSQL flushes its commits to disk: " + e.getMessage());
        }
    }

    /** The warning for these settings' values, or empty when both put a commit on disk before it is answered. */
    static Optional<String> warning(String fsync, String synchronousCommit) {
        List<String> off = new ArrayList<>();
        if ("off".equals(fsync)) {
            off.add("fsync");
        }
        // on, local, remote_write and remote_apply all flush the local WAL before answering
        if ("off".equals(synchronousCommit)) {
            off.add("synchronous_commit");
        }
        if (off.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("PostgreSQL runs with " + String.join(" and ", off) + " off: a claim is committed but not"
                + " on disk before its send, and a crash of PostgreSQL itself can lose the last claims (their events"
                + " would be sent again); turn it on for production");
    }
}

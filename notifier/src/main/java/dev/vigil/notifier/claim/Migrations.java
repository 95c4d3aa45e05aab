package dev.vigil.notifier.claim;

import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Schema migrations over R2DBC at start: versioned scripts under {@code db/notifier/}, applied in one transaction
 * each under a PostgreSQL advisory lock, so notifier instances starting together apply each version once.
 */
public final class Migrations {
    private static final Logger LOG = LoggerFactory.getLogger(Migrations.class);
    private static final List<String> SCRIPTS = List.of("V1__schema.sql", "V2__resolutions_and_failing_channels.sql",
            "V3__vendor_lookup.sql");
    private static final long LOCK_KEY = 0x7669_6769_6c6e_6f74L; // "vigilnot"

    private Migrations() {
    }

    /** Completes with the schema version now in place. */
    public static Mono<Integer> run(ConnectionFactory factory) {
        return Mono.usingWhen(Mono.from(factory.create()), Migrations::migrate, c -> Mono.from(c.close()))
                .timeout(Duration.ofSeconds(60));
    }

    private static Mono<Integer> migrate(Connection c) {
        return Mono.from(c.beginTransaction())
                .then(exec(c, "SELECT pg_advisory_xact_lock(" + LOCK_KEY + ")"))
                .then(exec(c, "CREATE TABLE IF NOT EXISTS notifier_schema_version (version integer PRIMARY KEY,"
                        + " applied_at timestamptz NOT NULL DEFAULT now())"))
                .then(Flux.from(c.createStatement("SELECT coalesce(max(version), 0) AS v FROM notifier_schema_version")
                                .execute())
                        .flatMap(r -> r.map((row, m) -> row.get("v", Integer.class))).single())
                .flatMap(current -> {
                    Mono<Void> chain = Mono.empty();
                    for (int i = current; i < SCRIPTS.size(); i++) {
                        int version = i + 1;
                        String script = SCRIPTS.get(i);
                        for (String sql : statements(script)) {
                            chain = chain.then(exec(c, sql));
                        }
                        chain = chain.then(exec(c, "INSERT INTO notifier_schema_version (version) VALUES (" + version + ")"))
                                .doOnSuccess(v -> LOG.info("applied notifier schema migration {}", script));
                    }
                    return chain.then(Mono.from(c.commitTransaction())).thenReturn(SCRIPTS.size());
                })
                .onErrorResume(e -> Mono.from(c.rollbackTransaction()).onErrorResume(x -> Mono.empty()).then(Mono.error(e)));
    }

    private static Mono<Void> exec(Connection c, String sql) {
        return Flux.from(c.createStatement(sql).execute()).flatMap(r -> r.getRowsUpdated()).then();
    }

    static List<String> statements(String script) {
        try (InputStream in = Migrations.class.getResourceAsStream("/db/notifier/" + script)) {
            if (in == null) {
                throw new IllegalStateException("migration script missing from the jar: " + script);
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            List<String> out = new ArrayList<>();
            StringBuilder cur = new StringBuilder();
            for (String line : text.split("\n")) {
                if (line.strip().equals(";")) {
                    add(out, cur);
                    cur.setLength(0);
                } else if (!line.strip().startsWith("--")) {
                    cur.append(line).append('\n');
                }
            }
            add(out, cur);
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void add(List<String> out, StringBuilder sql) {
        if (!sql.toString().isBlank()) {
            out.add(sql.toString().strip());
        }
    }
}

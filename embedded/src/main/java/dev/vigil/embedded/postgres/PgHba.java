package dev.vigil.embedded.postgres;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.regex.Pattern;

/** Reads and rewrites the authentication methods in a cluster's {@code pg_hba.conf}. */
final class PgHba {
    static final String FILE = "pg_hba.conf";
    /** A rule line (not a comment, not an include): local, host, hostssl, hostnossl, hostgssenc, hostnogssenc. */
    private static final Pattern RULE = Pattern.compile("\\s*(?:local|host\\w*)\\s.*");

    private static final Pattern TRUST = Pattern.compile("(?<=\\s)trust(?=\\s|$)");

    private PgHba() {}

    /** Whether any rule lets a client in without a password. */
    static boolean trustsAnyone(Path dataDir) throws IOException {
        Path file = dataDir.resolve(FILE);
        if (!Files.exists(file)) {
            return false;
        }
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            String rule = withoutComment(line);
            if (RULE.matcher(rule).matches() && TRUST.matcher(rule).find()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Replaces {@code trust} by {@code method} in every rule. Written to a sibling file and moved over the old one,
     * so a crash leaves either file whole, never a truncated one that would lock everybody out.
     */
    static void requirePasswords(Path dataDir, String method) throws IOException {
        Path file = dataDir.resolve(FILE);
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        StringBuilder out = new StringBuilder();
        for (String line : lines) {
            String rule = withoutComment(line);
            if (RULE.matcher(rule).matches()) {
                line = TRUST.matcher(rule).replaceAll(method) + line.substring(rule.length());
            }
            out.append(line).append('\n');
        }
        // createTempFile makes an owner-only file (0600 on POSIX), as pg_hba.conf is
        Path next = Files.createTempFile(dataDir, FILE, ".next");
        try {
            Files.writeString(next, out, StandardCharsets.UTF_8);
            Files.move(next, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(next);
        }
    }

    private static String withoutComment(String line) {
        int hash = line.indexOf('#');
        return hash < 0 ? line : line.substring(0, hash);
    }
}

package dev.vigil.embedded.postgres;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Where a PostgreSQL database is and who connects to it, parsed from a {@code VIGIL_DB_URL}.
 *
 * <p>Accepted forms (user and password may also be given as {@code ?user=..&password=..}; reserved
 * characters in them are percent-encoded; port defaults to 5432, database to {@code postgres}):
 * <ul>
 *   <li>{@code postgresql://user:pass@host:port/db} (also {@code postgres://})</li>
 *   <li>{@code r2dbc:postgresql://user:pass@host:port/db}</li>
 *   <li>{@code jdbc:postgresql://host:port/db?user=user&password=pass}</li>
 * </ul>
 * Other query parameters are rejected rather than silently ignored.
 */
public record PostgresUrl(String host, int port, String database, String user, String password) {
    public static final int DEFAULT_PORT = 5432;

    public PostgresUrl {
        requireText(host, "host");
        requireText(database, "database");
        requireText(user, "user");
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("PostgreSQL port must be 1-65535, was " + port);
        }
    }

    public static PostgresUrl parse(String url) {
        Objects.requireNonNull(url, "url");
        String rest = url.strip();
        for (String prefix : new String[] {"jdbc:", "r2dbc:"}) {
            if (rest.regionMatches(true, 0, prefix, 0, prefix.length())) {
                rest = rest.substring(prefix.length());
            }
        }
        URI uri;
        try {
            uri = new URI(rest);
        } catch (URISyntaxException e) {
            throw invalid(url, "not a URL (" + e.getReason() + ")");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase();
        if (!scheme.equals("postgresql") && !scheme.equals("postgres")) {
            throw invalid(
                    url,
                    "expected postgresql://user:pass@host:port/db, r2dbc:postgresql://... or jdbc:postgresql://...");
        }
        if (uri.getHost() == null) {
            throw invalid(url, "no host");
        }
        String user = null;
        String password = null;
        if (uri.getRawUserInfo() != null) {
            String[] parts = uri.getRawUserInfo().split(":", 2);
            user = decode(parts[0], url);
            password = parts.length > 1 ? decode(parts[1], url) : null;
        }
        if (uri.getRawQuery() != null) {
            for (String param : uri.getRawQuery().split("&")) {
                String[] kv = param.split("=", 2);
                String value = kv.length > 1 ? decode(kv[1], url) : "";
                switch (kv[0]) {
                    case "user" -> user = value;
                    case "password" -> password = value;
                    default -> throw invalid(
                            url, "parameter '" + kv[0] + "' is not supported (only user and password)");
                }
            }
        }
        if (user == null || user.isEmpty()) {
            throw invalid(url, "no user (write postgresql://user:pass@host:port/db)");
        }
        String path = uri.getPath() == null ? "" : uri.getPath().replaceFirst("^/", "");
        String host = uri.getHost().replaceAll("^\\[|]$", "");
        return new PostgresUrl(
                host,
                uri.getPort() == -1 ? DEFAULT_PORT : uri.getPort(),
                path.isEmpty() ? "postgres" : path,
                user,
                password);
    }

    public PostgresUrl withDatabase(String name) {
        return new PostgresUrl(host, port, name, user, password);
    }

    /** JDBC URL without credentials; pass {@link #user()} and {@link #password()} separately. */
    public String jdbcUrl() {
        return "jdbc:postgresql://" + hostForUrl() + ":" + port + "/" + database;
    }

    /** The {@code postgresql://user:pass@host:port/db} form, with the password in clear: for configs, not logs. */
    public String toUrlString() {
        String credentials = encode(user) + (password == null ? "" : ":" + encode(password));
        return "postgresql://" + credentials + "@" + hostForUrl() + ":" + port + "/" + database;
    }

    /** Password redacted, safe to log. */
    @Override
    public String toString() {
        return "postgresql://" + user + (password == null ? "" : ":***") + "@" + hostForUrl() + ":" + port + "/"
                + database;
    }

    private String hostForUrl() {
        return host.contains(":") ? "[" + host + "]" : host;
    }

    private static IllegalArgumentException invalid(String url, String why) {
        String shown = url.replaceAll("(://[^:/@]*:)[^@]*@", "$1***@").replaceAll("(password=)[^&]*", "$1***");
        return new IllegalArgumentException("invalid PostgreSQL URL '" + shown + "': " + why);
    }

    private static void requireText(String value, String what) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("PostgreSQL " + what + " must not be blank");
        }
    }

    private static String decode(String raw, String url) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%') {
                if (i + 2 >= raw.length()
                        || Character.digit(raw.charAt(i + 1), 16) < 0
                        || Character.digit(raw.charAt(i + 2), 16) < 0) {
                    throw invalid(url, "malformed percent-encoding ('%' must be followed by two hex digits)");
                }
                out.write(Integer.parseInt(raw.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                out.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static String encode(String value) {
        StringBuilder out = new StringBuilder();
        for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (Character.isLetterOrDigit(c) && c < 128 || "-._~".indexOf(c) >= 0) {
                out.append(c);
            } else {
                out.append('%').append(String.format("%02X", b & 0xff));
            }
        }
        return out.toString();
    }
}

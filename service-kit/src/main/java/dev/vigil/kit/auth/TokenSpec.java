package dev.vigil.kit.auth;

import java.util.List;
import java.util.regex.Pattern;

/**
 * One configured token: a name (the identity recorded on every change it makes), the lower-case hex SHA-256 of the
 * token (the token itself is never stored), and its scopes.
 */
public record TokenSpec(String name, String sha256, List<String> scopes) {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._@-]{0,63}");
    private static final Pattern HEX64 = Pattern.compile("[0-9a-f]{64}");

    /** Checks the fields; problems are reported with {@code path} (e.g. {@code auth.tokens[2]}). */
    public List<String> problems(String path) {
        java.util.ArrayList<String> out = new java.util.ArrayList<>();
        if (name == null || !NAME.matcher(name).matches()) {
            out.add(path + ".name: must be 1-64 letters, digits, '.', '_', '@' or '-'");
        }
        if (sha256 == null || !HEX64.matcher(sha256).matches()) {
            out.add(path + ".sha256: must be the 64-character lower-case hex SHA-256 of the token (vigil token hash)");
        }
        if (scopes == null || scopes.isEmpty()) {
            out.add(path + ".scopes: must list at least one of read, silence, ack, admin");
        } else {
            for (int i = 0; i < scopes.size(); i++) {
                try {
                    Scope.parse(scopes.get(i));
                } catch (IllegalArgumentException e) {
                    out.add(path + ".scopes[" + i + "]: " + e.getMessage());
                }
            }
        }
        return out;
    }

    public java.util.Set<Scope> scopeSet() {
        java.util.EnumSet<Scope> set = java.util.EnumSet.noneOf(Scope.class);
        scopes.forEach(s -> set.add(Scope.parse(s)));
        return set;
    }
}

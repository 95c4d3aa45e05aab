package dev.vigil.kit.net;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Syntactic checks on a URL's host, before any DNS lookup. IPv4 has legacy numeric forms that resolvers
 * accept ({@code 2130706433}, {@code 0x7f.1}, {@code 0177.0.0.1}, {@code 127.1}); they are how SSRF
 * filters are usually bypassed, so only the canonical dotted quad is accepted as a numeric host.
 */
final class HostSyntax {
    private static final Pattern NUMERIC_LABEL = Pattern.compile("(0x[0-9a-f]*|[0-9]+)");
    private static final Pattern HOST_LABEL = Pattern.compile("[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?");

    private HostSyntax() {}

    /** The four bytes of a canonical dotted quad (no leading zeros, each part 0-255), or null. */
    static byte[] dottedQuad(String host) {
        String[] parts = host.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        byte[] out = new byte[4];
        for (int i = 0; i < 4; i++) {
            String p = parts[i];
            if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(c -> c >= '0' && c <= '9')) {
                return null;
            }
            if (p.length() > 1 && p.charAt(0) == '0') {
                return null;
            }
            int v = Integer.parseInt(p);
            if (v > 255) {
                return null;
            }
            out[i] = (byte) v;
        }
        return out;
    }

    /**
     * True when the host looks numeric to a resolver (every label decimal, octal or hex) but is not a
     * canonical dotted quad: decimal, octal, hex and short-dotted IPv4 forms.
     */
    static boolean ambiguousNumeric(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        if (h.endsWith(".")) {
            h = h.substring(0, h.length() - 1);
        }
        String[] labels = h.split("\\.", -1);
        boolean allNumeric = true;
        for (String label : labels) {
            if (!NUMERIC_LABEL.matcher(label).matches()) {
                allNumeric = false;
                break;
            }
        }
        if (allNumeric) {
            return dottedQuad(h) == null;
        }
        // A hostname whose last label is numeric (e.g. "example.0x7f") is not a valid DNS name either.
        String last = labels[labels.length - 1];
        return NUMERIC_LABEL.matcher(last).matches();
    }

    /** True when every label is a plausible DNS label (ASCII letters, digits, hyphens, underscores). */
    static boolean validHostname(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        if (h.endsWith(".")) {
            h = h.substring(0, h.length() - 1);
        }
        if (h.isEmpty() || h.length() > 253) {
            return false;
        }
        for (String label : h.split("\\.", -1)) {
            if (!HOST_LABEL.matcher(label).matches()) {
                return false;
            }
        }
        return true;
    }
}

package dev.vigil.kit.net;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/** An IPv4 or IPv6 network in CIDR notation, e.g. {@code 10.0.0.0/8} or {@code fd00::/8}. */
public final class Cidr {
    private final byte[] network;
    private final int prefix;
    private final String text;

    private Cidr(byte[] network, int prefix, String text) {
        this.network = network;
        this.prefix = prefix;
        this.text = text;
    }

    /**
     * Parses a CIDR block. Only literal addresses are accepted (no DNS lookup); the host bits must be zero
     * so that a typo such as {@code 10.1.2.3/8} is reported rather than silently widened.
     */
    public static Cidr parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("must be a CIDR block such as 10.0.0.0/8");
        }
        String s = text.strip();
        int slash = s.indexOf('/');
        String addr = slash < 0 ? s : s.substring(0, slash);
        byte[] bytes = literal(addr);
        if (bytes == null) {
            throw new IllegalArgumentException("'" + s + "' is not a CIDR block of a literal IPv4 or IPv6 address");
        }
        int bits = bytes.length * 8;
        int prefix;
        try {
            prefix = slash < 0 ? bits : Integer.parseInt(s.substring(slash + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + s + "' has a prefix length that is not a number");
        }
        if (prefix < 0 || prefix > bits) {
            throw new IllegalArgumentException("'" + s + "' has a prefix length outside 0.." + bits);
        }
        byte[] masked = mask(bytes, prefix);
        if (!Arrays.equals(masked, bytes)) {
            throw new IllegalArgumentException(
                    "'" + s + "' has host bits set; did you mean " + format(masked) + "/" + prefix + "?");
        }
        return new Cidr(masked, prefix, s);
    }

    /** An unchecked constructor for the built-in tables. */
    static Cidr of(String text) {
        return parse(text);
    }

    public boolean contains(InetAddress address) {
        byte[] a = address.getAddress();
        if (a.length != network.length) {
            return false;
        }
        return Arrays.equals(mask(a, prefix), network);
    }

    private static byte[] mask(byte[] bytes, int prefix) {
        byte[] out = bytes.clone();
        for (int i = 0; i < out.length; i++) {
            int keep = Math.max(0, Math.min(8, prefix - i * 8));
            out[i] = (byte) (out[i] & (0xff << (8 - keep)));
        }
        return out;
    }

    /** Bytes of a canonical literal IPv4 (dotted quad) or IPv6 address, or null. Never touches DNS. */
    static byte[] literal(String s) {
        if (s.indexOf(':') >= 0) {
            String v6 = s.startsWith("[") && s.endsWith("]") ? s.substring(1, s.length() - 1) : s;
            if (!v6.matches("[0-9a-fA-F:.]+")) {
                return null;
            }
            try {
                byte[] b = InetAddress.getByName(v6).getAddress();
                if (b.length == 4) {
                    // Java folds ::ffff:a.b.c.d to IPv4; keep the IPv6 form so mapped blocks stay distinct.
                    byte[] mapped = new byte[16];
                    mapped[10] = (byte) 0xff;
                    mapped[11] = (byte) 0xff;
                    System.arraycopy(b, 0, mapped, 12, 4);
                    return mapped;
                }
                return b;
            } catch (UnknownHostException e) {
                return null;
            }
        }
        return HostSyntax.dottedQuad(s);
    }

    private static String format(byte[] b) {
        try {
            return InetAddress.getByAddress(b).getHostAddress();
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        return text;
    }
}

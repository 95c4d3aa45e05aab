package dev.vigil.kit.net;

import java.net.InetAddress;
import java.util.List;

/**
 * Classifies IP addresses (pure, no I/O). IPv4 follows the IANA special-purpose registry; IPv6 is
 * public only inside global unicast {@code 2000::/3} and outside its special-purpose blocks, so a
 * block not listed here is refused rather than allowed.
 */
public final class AddressClassifier {
    private record Block(Cidr cidr, AddressClass kind) {}

    private static final List<Block> V4 = List.of(
            block("0.0.0.0/32", AddressClass.UNSPECIFIED),
            block("0.0.0.0/8", AddressClass.RESERVED),
            block("10.0.0.0/8", AddressClass.PRIVATE),
            block("100.64.0.0/10", AddressClass.CGNAT),
            block("127.0.0.0/8", AddressClass.LOOPBACK),
            block("169.254.0.0/16", AddressClass.LINK_LOCAL),
            block("172.16.0.0/12", AddressClass.PRIVATE),
            block("192.0.0.0/24", AddressClass.RESERVED),
            block("192.0.2.0/24", AddressClass.DOCUMENTATION),
            block("192.31.196.0/24", AddressClass.RESERVED),
            block("192.52.193.0/24", AddressClass.RESERVED),
            block("192.88.99.0/24", AddressClass.RESERVED),
            block("192.168.0.0/16", AddressClass.PRIVATE),
            block("192.175.48.0/24", AddressClass.RESERVED),
            block("198.18.0.0/15", AddressClass.BENCHMARK),
            block("198.51.100.0/24", AddressClass.DOCUMENTATION),
            block("203.0.113.0/24", AddressClass.DOCUMENTATION),
            block("224.0.0.0/4", AddressClass.MULTICAST),
            block("255.255.255.255/32", AddressClass.BROADCAST),
            block("240.0.0.0/4", AddressClass.RESERVED));

    private static final List<Block> V6 = List.of(
            block("::/128", AddressClass.UNSPECIFIED),
            block("::1/128", AddressClass.LOOPBACK),
            block("::ffff:0:0/96", AddressClass.IPV4_MAPPED),
            block("64:ff9b::/96", AddressClass.IPV4_EMBEDDED),
            block("64:ff9b:1::/48", AddressClass.IPV4_EMBEDDED),
            block("100::/64", AddressClass.RESERVED),
            block("2001::/32", AddressClass.IPV4_EMBEDDED),
            block("2001:2::/48", AddressClass.BENCHMARK),
            block("2001:10::/28", AddressClass.RESERVED),
            block("2001:20::/28", AddressClass.RESERVED),
            block("2001:db8::/32", AddressClass.DOCUMENTATION),
            block("2002::/16", AddressClass.IPV4_EMBEDDED),
            block("3fff::/20", AddressClass.DOCUMENTATION),
            block("fc00::/7", AddressClass.PRIVATE),
            block("fe80::/10", AddressClass.LINK_LOCAL),
            block("fec0::/10", AddressClass.PRIVATE),
            block("ff00::/8", AddressClass.MULTICAST));

    private static final Cidr GLOBAL_UNICAST = Cidr.of("2000::/3");

    private AddressClassifier() {}

    public static AddressClass classify(InetAddress address) {
        return classify(address.getAddress());
    }

    /** @param address 4 bytes (IPv4) or 16 bytes (IPv6, including IPv4-mapped) */
    public static AddressClass classify(byte[] address) {
        InetAddress a = at(address);
        if (address.length == 4) {
            for (Block b : V4) {
                if (b.cidr().contains(a)) {
                    return b.kind();
                }
            }
            return AddressClass.PUBLIC;
        }
        for (Block b : V6) {
            if (b.cidr().contains(a)) {
                return b.kind();
            }
        }
        // ::/8 (IPv4-compatible and the rest of the low block) and everything outside 2000::/3 is not routable.
        return GLOBAL_UNICAST.contains(a) ? AddressClass.PUBLIC : AddressClass.RESERVED;
    }

    /** An InetAddress for raw bytes that keeps 16-byte IPv4-mapped forms as IPv6 for CIDR matching. */
    private static InetAddress at(byte[] address) {
        try {
            if (address.length == 16) {
                return java.net.Inet6Address.getByAddress(null, address, -1);
            }
            return InetAddress.getByAddress(address);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalArgumentException("an IP address has 4 or 16 bytes, not " + address.length);
        }
    }

    private static Block block(String cidr, AddressClass kind) {
        return new Block(Cidr.of(cidr), kind);
    }
}

package dev.vigil.kit.net;

/** What an IP address is, as far as outbound probing is concerned. Only {@link #PUBLIC} may be probed by default. */
public enum AddressClass {
    PUBLIC("public"),
    UNSPECIFIED("unspecified"),
    LOOPBACK("loopback"),
    PRIVATE("private"),
    LINK_LOCAL("link-local"),
    CGNAT("carrier-grade NAT"),
    MULTICAST("multicast"),
    BROADCAST("broadcast"),
    DOCUMENTATION("documentation"),
    BENCHMARK("benchmarking"),
    RESERVED("reserved"),
    IPV4_MAPPED("IPv4-mapped IPv6"),
    IPV4_EMBEDDED("IPv6 transition (embeds IPv4)");

    private final String label;

    AddressClass(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public boolean isPublic() {
        return this == PUBLIC;
    }
}

package dev.vigil.standalone.cli;

/** Whether a host names this machine: local secrets (the standalone token, its database password) go nowhere else. */
final class LoopbackHosts {
    private LoopbackHosts() {}

    /** {@code localhost}, a literal 127.x.x.x, or {@code ::1} (bracketed or not); no DNS look-up. */
    static boolean isLoopback(String host) {
        return host != null
                && (host.equals("localhost")
                        || host.matches("127(\\.[0-9]{1,3}){3}")
                        || host.equals("::1")
                        || host.equals("[::1]"));
    }
}

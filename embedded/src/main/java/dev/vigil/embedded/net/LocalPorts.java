package dev.vigil.embedded.net;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free loopback ports for servers that are told their port before they bind it (a child process, a server whose URL
 * must be known first). Between the pick and the bind the kernel may hand a port of its ephemeral range to anyone
 * binding port 0 or connecting out, so the pick is made below that range when the range is known: there only another
 * caller picking ports the same way could take it.
 */
public final class LocalPorts {
    /** How many ports below the ephemeral range a free port is looked for in. */
    static final int BELOW_EPHEMERAL = 10_000;

    private static final Path RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

    private LocalPorts() {}

    /** A loopback port free at the time of the call, below the kernel's ephemeral range when it is known. */
    public static int free() {
        Optional<int[]> ephemeral = ephemeralRange();
        if (ephemeral.isPresent() && ephemeral.get()[0] > BELOW_EPHEMERAL + 1024) {
            int low = ephemeral.get()[0];
            ThreadLocalRandom random = ThreadLocalRandom.current();
            for (int i = 0; i < 100; i++) {
                int candidate = random.nextInt(low - BELOW_EPHEMERAL, low);
                try (ServerSocket socket = new ServerSocket(candidate, 1, InetAddress.getLoopbackAddress())) {
                    return socket.getLocalPort();
                } catch (IOException taken) {
                    // try another
                }
            }
        }
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port: " + e.getMessage(), e);
        }
    }

    /** The kernel's ephemeral port range (Linux: low and high), empty when it cannot be read. */
    public static Optional<int[]> ephemeralRange() {
        try {
            // read by lines: procfs files report size 0, and reading them whole returned one byte
            String[] parts = Files.readAllLines(RANGE).get(0).strip().split("\\s+");
            return Optional.of(new int[] {Integer.parseInt(parts[0]), Integer.parseInt(parts[1])});
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}

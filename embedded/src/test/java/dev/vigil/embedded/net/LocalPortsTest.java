package dev.vigil.embedded.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LocalPortsTest {
    @Test
    void aPickedPortLiesBelowTheEphemeralRangeAndCanBeBound() throws Exception {
        int[] range = LocalPorts.ephemeralRange().orElse(null);
        assumeTrue(range != null, "the kernel's ephemeral range is known on Linux only");
        Set<Integer> picked = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            int port = LocalPorts.free();
            assertThat(port).isLessThan(range[0]).isGreaterThanOrEqualTo(range[0] - LocalPorts.BELOW_EPHEMERAL);
            try (ServerSocket bound = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                assertThat(bound.getLocalPort()).isEqualTo(port);
            }
            picked.add(port);
        }
        // picked at random, so two callers seldom collide
        assertThat(picked).hasSizeGreaterThan(1);
    }

    @Test
    void aPortInUseIsNotPicked() throws Exception {
        try (ServerSocket held = new ServerSocket(LocalPorts.free(), 1, InetAddress.getLoopbackAddress())) {
            for (int i = 0; i < 200; i++) {
                assertThat(LocalPorts.free()).isNotEqualTo(held.getLocalPort());
            }
        }
    }
}

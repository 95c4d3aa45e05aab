package dev.vigil.standalone.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.standalone.launch.StandaloneOptions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/** {@code vigil demo}'s probe allow-list holds only the loopback address its targets listen on, never a wildcard. */
class DemoAllowListTest {
    private static final List<String> WILDCARDS = List.of("0.0.0.0", "0.0.0.0/0", "0.0.0.0/32", "::/0", "::", "::/32");

    @ParameterizedTest(name = "--host {0}")
    @ValueSource(
            strings = {
                "127.0.0.1",
                "0.0.0.0",
                "::",
                "[::]",
                "::1",
                "localhost",
                "192.168.1.20",
                "10.0.0.5",
                "vigil.example.com"
            })
    void theDemoAllowsOnlyTheLoopbackAddressItsTargetsListenOn(String host) {
        List<String> allow = DemoCommand.allowList(List.of(), host);
        assertThat(allow).containsExactly("127.0.0.1/32").doesNotContainAnyElementsOf(WILDCARDS);
        assertThat(DemoCommand.targetsHost(host)).isEqualTo("127.0.0.1");
    }

    @Test
    void anotherLoopbackHostIsKeptAsTheTargetsAddress() {
        assertThat(DemoCommand.allowList(List.of(), "127.0.0.2")).containsExactly("127.0.0.2/32");
        assertThat(DemoCommand.targetsHost("127.0.0.2")).isEqualTo("127.0.0.2");
    }

    @Test
    void theOperatorsInternalRangesAreKept() {
        assertThat(DemoCommand.allowList(List.of("10.1.0.0/16", "fd00::/8"), "0.0.0.0"))
                .containsExactly("10.1.0.0/16", "fd00::/8", "127.0.0.1/32");
    }

    @ParameterizedTest(name = "--allow {0}")
    @ValueSource(strings = {"0.0.0.0/0", "0.0.0.0", "0.0.0.0/8", "::/0", "::", "[::]", "10.0.0.0/0", " 0.0.0.0/0 "})
    void anAllowEntryThatOpensEverythingIsRefused(String cidr) {
        assertThatThrownBy(() -> DemoCommand.allowList(List.of(cidr), "127.0.0.1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("every address");
    }

    @Test
    void theCommandLineDemoGetsTheSameListAndRefusesAWildcardWithAUsageError() {
        DemoCommand demo = new DemoCommand();
        new CommandLine(demo).parseArgs("--host", "0.0.0.0", "--allow", "10.2.0.0/16");
        StandaloneOptions options = demo.adjust(demo.options());
        assertThat(options.allowList()).containsExactly("10.2.0.0/16", "127.0.0.1/32");

        DemoCommand open = new DemoCommand();
        new CommandLine(open).parseArgs("--allow", "0.0.0.0/0");
        assertThatThrownBy(() -> open.adjust(open.options()))
                .isInstanceOf(CommandLine.ParameterException.class)
                .hasMessageContaining("--allow 0.0.0.0/0");
    }
}

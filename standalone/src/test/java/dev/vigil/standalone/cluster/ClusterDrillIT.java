package dev.vigil.standalone.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The cluster of docs/cluster.md#the-failover-drills on real processes: {@code vigil.jar} runs a 3-broker cluster, PostgreSQL and every service twice (probe
 * workers once per region), and the short drill kills -9 a partition leader, a Streams instance and a notifier
 * mid-send, stops PostgreSQL for 30 s and restarts every service one by one, while monitors fail and recover and
 * an app posts alerts. It fails if a page is lost, a page is delivered twice other than one in flight when the
 * notifier died (held at the vendor, or claimed and not yet recorded in PostgreSQL), or more than twice, an accepted
 * ingest event is missing from vigil.alerts, or an outage did not page exactly once.
 *
 * <p>Runs in the default build, alone after the other ITs (its own failsafe execution gives it vigil.jar and the
 * checkout; {@code -Dvigil.skipClusterDrill} skips it). Needs Debian's PostgreSQL server: skipped without it, failing
 * when {@code CI} is set ({@code .ci/run} installs it).
 */
class ClusterDrillIT {

    @Test
    void noPageIsLostOrDuplicatedThroughTheDrills() throws IOException {
        boolean postgres = ClusterPostgres.debianBin().isPresent();
        String ci = System.getenv("CI");
        if (!postgres && ci != null && !ci.isBlank() && !"false".equalsIgnoreCase(ci)) {
            throw new IllegalStateException("CI is set but no PostgreSQL server is installed under /usr/lib/postgresql"
                    + " (.ci/run installs Debian's postgresql)");
        }
        Assumptions.assumeTrue(postgres, "Debian's postgresql not installed (apt-get install postgresql)");
        Path jar = Path.of(System.getProperty("vigil.jar", "target/vigil.jar"));
        Path repo = Path.of(System.getProperty("vigil.repo", ".."));
        assertThat(jar).as("the shaded jar the cluster runs").isRegularFile();

        // under /tmp: PostgreSQL runs as the postgres user when the build runs as root, and must reach its directory
        Path dir = Files.createTempDirectory(Path.of("/tmp"), "vigil-cluster-it-");
        dir.toFile().setExecutable(true, false);
        dir.toFile().setReadable(true, false);
        StringWriter log = new StringWriter();
        PrintWriter out = new PrintWriter(log, true);
        LocalCluster cluster = new LocalCluster(ClusterLayout.standard(dir, freeBasePort()), repo, out, jar.toString());
        boolean passed = false;
        try {
            ClusterDrill.Report report = new ClusterDrill(cluster, ClusterDrill.Plan.ci(), out).run();
            System.out.println(log);
            System.out.println(report.text());
            assertThat(report.lost()).as("pages lost\n%s", report.text()).isEmpty();
            assertThat(report.ingestMissing())
                    .as("accepted ingest events missing\n%s", report.text())
                    .isEmpty();
            // the page held at the vendor when the notifier died, and any other it had claimed and not recorded
            assertThat(report.allowedResends())
                    .as("the pages in flight when the notifier died")
                    .isNotEmpty();
            assertThat(report.duplicatedEventIds())
                    .as("duplicates beyond the resend after the lease\n%s", report.text())
                    .allSatisfy(id -> assertThat(report.allowedResends()).contains(id))
                    .doesNotHaveDuplicates();
            assertThat(report.scenarioProblems())
                    .as("outages that did not page exactly once\n%s", report.text())
                    .isEmpty();
            assertThat(report.expectedPages()).as("pages the scenario made").isGreaterThan(20);
            assertThat(report.passed()).isTrue();
            passed = true;
        } finally {
            cluster.down();
            System.out.println(log);
            if (passed) {
                try {
                    ClusterDrillCommand.delete(dir); // a failed run keeps its logs under logs/
                } catch (java.io.UncheckedIOException e) {
                    System.out.println("left " + dir + ": " + e.getMessage());
                }
            }
        }
    }

    /** A base port whose whole range (base+1 .. base+81) is free now. */
    private static int freeBasePort() throws IOException {
        for (int base = 21000; base < 60000; base += 1000) {
            int b = base;
            if (IntStream.rangeClosed(1, 90).allMatch(i -> free(b + i))) {
                return base;
            }
        }
        throw new IOException("no free range of 90 ports");
    }

    private static boolean free(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}

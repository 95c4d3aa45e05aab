package dev.vigil.standalone.launch;

import dev.vigil.streams.config.StreamsServiceConfig.StatusPage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Where and how the one-JVM stack runs. Ports are the documented defaults; 0 picks a free port (tests).
 *
 * @param routingFile notifier routing YAML; null routes every page to the console (log channel)
 * @param reminderInterval how often a still-firing alert pages again (15 min by default; the demo shortens it)
 * @param statusPages public status pages the query API serves at {@code /status/<id>}
 * @param deadMan the dead-man's switch and its end-to-end canary (off: {@link DeadMan#OFF})
 */
public record StandaloneOptions(
        Path dataDir,
        String host,
        int kafkaPort,
        int postgresPort,
        int ingestPort,
        int queryPort,
        int notifierPort,
        int probePortBase,
        List<String> regions,
        List<String> allowList,
        Path routingFile,
        Duration reminderInterval,
        List<StatusPage> statusPages,
        DeadMan deadMan) {

    public static final List<String> REGIONS = List.of("us-east", "eu-west", "asia-east");
    public static final int KAFKA_PORT = 9092;
    public static final int POSTGRES_PORT = 5433;
    public static final int INGEST_PORT = 8080;
    public static final int QUERY_PORT = 8081;
    public static final int NOTIFIER_PORT = 8082;
    public static final int PROBE_PORT_BASE = 8083;

    public StandaloneOptions {
        if (regions == null || regions.isEmpty()) {
            throw new IllegalArgumentException("at least one region is required");
        }
        regions = List.copyOf(regions);
        allowList = allowList == null ? List.of() : List.copyOf(allowList);
        reminderInterval = reminderInterval == null ? Duration.ofMinutes(15) : reminderInterval;
        statusPages = statusPages == null ? List.of() : List.copyOf(statusPages);
        deadMan = deadMan == null ? DeadMan.OFF : deadMan;
    }

    /**
     * The dead-man's switch: on when {@code urlEnv} names the environment variable holding the external heartbeat URL.
     *
     * @param pingInterval time between the notifier's pings (a minute; tests shorten it)
     */
    public record DeadMan(String urlEnv, Duration pingInterval) {
        public static final DeadMan OFF = new DeadMan("", null);

        public DeadMan {
            urlEnv = urlEnv == null ? "" : urlEnv.strip();
            pingInterval = pingInterval == null ? Duration.ofMinutes(1) : pingInterval;
        }

        public boolean enabled() {
            return !urlEnv.isEmpty();
        }
    }

    /** The shape without the dead-man's switch. */
    public StandaloneOptions(
            Path dataDir,
            String host,
            int kafkaPort,
            int postgresPort,
            int ingestPort,
            int queryPort,
            int notifierPort,
            int probePortBase,
            List<String> regions,
            List<String> allowList,
            Path routingFile,
            Duration reminderInterval,
            List<StatusPage> statusPages) {
        this(
                dataDir,
                host,
                kafkaPort,
                postgresPort,
                ingestPort,
                queryPort,
                notifierPort,
                probePortBase,
                regions,
                allowList,
                routingFile,
                reminderInterval,
                statusPages,
                null);
    }

    public StandaloneOptions withDeadMan(DeadMan d) {
        return new StandaloneOptions(
                dataDir,
                host,
                kafkaPort,
                postgresPort,
                ingestPort,
                queryPort,
                notifierPort,
                probePortBase,
                regions,
                allowList,
                routingFile,
                reminderInterval,
                statusPages,
                d);
    }

    /** The shape without status pages. */
    public StandaloneOptions(
            Path dataDir,
            String host,
            int kafkaPort,
            int postgresPort,
            int ingestPort,
            int queryPort,
            int notifierPort,
            int probePortBase,
            List<String> regions,
            List<String> allowList,
            Path routingFile,
            Duration reminderInterval) {
        this(
                dataDir,
                host,
                kafkaPort,
                postgresPort,
                ingestPort,
                queryPort,
                notifierPort,
                probePortBase,
                regions,
                allowList,
                routingFile,
                reminderInterval,
                null);
    }

    public static StandaloneOptions defaults(Path dataDir) {
        return new StandaloneOptions(
                dataDir,
                "127.0.0.1",
                KAFKA_PORT,
                POSTGRES_PORT,
                INGEST_PORT,
                QUERY_PORT,
                NOTIFIER_PORT,
                PROBE_PORT_BASE,
                REGIONS,
                List.of(),
                null,
                null);
    }

    /** Every port 0: for tests that run beside other tests. */
    public StandaloneOptions withFreePorts() {
        return new StandaloneOptions(
                dataDir,
                host,
                0,
                0,
                0,
                0,
                0,
                0,
                regions,
                allowList,
                routingFile,
                reminderInterval,
                statusPages,
                deadMan);
    }

    public StandaloneOptions withAllowList(List<String> cidrs) {
        return new StandaloneOptions(
                dataDir,
                host,
                kafkaPort,
                postgresPort,
                ingestPort,
                queryPort,
                notifierPort,
                probePortBase,
                regions,
                cidrs,
                routingFile,
                reminderInterval,
                statusPages,
                deadMan);
    }

    public StandaloneOptions withRouting(Path file) {
        return new StandaloneOptions(
                dataDir,
                host,
                kafkaPort,
                postgresPort,
                ingestPort,
                queryPort,
                notifierPort,
                probePortBase,
                regions,
                allowList,
                file,
                reminderInterval,
                statusPages,
                deadMan);
    }

    public StandaloneOptions withReminderInterval(Duration interval) {
        return new StandaloneOptions(
                dataDir,
                host,
                kafkaPort,
                postgresPort,
                ingestPort,
                queryPort,
                notifierPort,
                probePortBase,
                regions,
                allowList,
                routingFile,
                interval,
                statusPages,
                deadMan);
    }

    public StandaloneOptions withStatusPages(List<StatusPage> pages) {
        return new StandaloneOptions(
                dataDir,
                host,
                kafkaPort,
                postgresPort,
                ingestPort,
                queryPort,
                notifierPort,
                probePortBase,
                regions,
                allowList,
                routingFile,
                reminderInterval,
                pages,
                deadMan);
    }

    int probePort(int index) {
        return probePortBase == 0 ? 0 : probePortBase + index;
    }
}

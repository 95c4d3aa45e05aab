package dev.vigil.standalone.cluster;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Where every process of a local cluster listens and keeps its files, derived from one data directory and one base
 * port so that two clusters (a developer's and a test's) never collide when given different ones.
 *
 * <p>Ports from {@code basePort}: brokers +1..+3 (client) and +11..+13 (controller), PostgreSQL +20, Streams +31..,
 * notifiers +41.., ingest +51.., probe workers +61.. (one per region), Prometheus +70, the drill's vendor sink and
 * targets +80 and +81.
 */
public record ClusterLayout(
        Path dataDir, int basePort, int brokers, int streams, int notifiers, int ingests, List<String> regions) {
    public static final int DEFAULT_BASE_PORT = 19000;
    public static final List<String> DEFAULT_REGIONS = List.of("us-east", "eu-west", "asia-east");

    public ClusterLayout {
        dataDir = dataDir.toAbsolutePath().normalize();
        regions = List.copyOf(regions);
        if (basePort < 1024 || basePort > 65000) {
            throw new IllegalArgumentException("base port must be within 1024..65000, was " + basePort);
        }
        if (brokers != 3) {
            throw new IllegalArgumentException(
                    "the cluster has 3 brokers (replication factor 3, min.insync.replicas 2)");
        }
        if (streams < 1
                || streams > 9
                || notifiers < 1
                || notifiers > 9
                || ingests < 1
                || ingests > 9
                || regions.isEmpty()
                || regions.size() > 9) {
            throw new IllegalArgumentException("1..9 instances of each service and 1..9 regions");
        }
    }

    public static ClusterLayout standard(Path dataDir, int basePort) {
        return new ClusterLayout(dataDir, basePort, 3, 2, 2, 2, DEFAULT_REGIONS);
    }

    public int brokerPort(int node) {
        return basePort + node;
    }

    public int controllerPort(int node) {
        return basePort + 10 + node;
    }

    public int postgresPort() {
        return basePort + 20;
    }

    public int streamsPort(int instance) {
        return basePort + 30 + instance;
    }

    public int notifierPort(int instance) {
        return basePort + 40 + instance;
    }

    public int ingestPort(int instance) {
        return basePort + 50 + instance;
    }

    public int probePort(String region) {
        return basePort + 61 + regions.indexOf(region);
    }

    public int prometheusPort() {
        return basePort + 70;
    }

    public int sinkPort() {
        return basePort + 80;
    }

    public int targetsPort() {
        return basePort + 81;
    }

    public String bootstrapServers() {
        return String.join(
                ",",
                IntStream.rangeClosed(1, brokers)
                        .mapToObj(n -> "127.0.0.1:" + brokerPort(n))
                        .toList());
    }

    public String quorumVoters() {
        return String.join(
                ",",
                IntStream.rangeClosed(1, brokers)
                        .mapToObj(n -> n + "@127.0.0.1:" + controllerPort(n))
                        .toList());
    }

    public Path logs() {
        return dataDir.resolve("logs");
    }

    public Path run() {
        return dataDir.resolve("run");
    }

    public Path config() {
        return dataDir.resolve("config");
    }

    public Path kafkaDir(int node) {
        return dataDir.resolve("kafka-" + node);
    }

    public Path postgresDir() {
        return dataDir.resolve("postgres");
    }

    public Path streamsStateDir(int instance) {
        return dataDir.resolve("streams-" + instance);
    }

    public String streamsUrl(int instance) {
        return "http://127.0.0.1:" + streamsPort(instance);
    }

    public String ingestUrl(int instance) {
        return "http://127.0.0.1:" + ingestPort(instance);
    }
}

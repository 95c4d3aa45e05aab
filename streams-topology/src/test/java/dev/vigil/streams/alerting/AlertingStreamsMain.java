package dev.vigil.streams.alerting;

import dev.vigil.streams.config.AlertingConfig;
import dev.vigil.streams.config.TopologyConfig;
import dev.vigil.streams.deadletter.DeadLetterHandler;
import dev.vigil.streams.topology.AlertingTopology;
import dev.vigil.streams.topology.VigilTopology;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;

/**
 * A Streams instance running topology I plus {@link AlertingTopology} with exactly_once_v2, for tests that
 * kill it with SIGKILL: {@code AlertingStreamsMain <bootstrap> <applicationId> <stateDir>}. Runs until killed.
 */
public final class AlertingStreamsMain {
    private AlertingStreamsMain() {}

    public static void main(String[] args) throws InterruptedException {
        TopologyConfig cfg = TopologyConfig.defaults();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Topology topology = VigilTopology.build(cfg, registry);
        AlertingTopology.addTo(topology, cfg, AlertingConfig.defaults(), registry);
        Properties p = new Properties();
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, args[1]);
        p.put(StreamsConfig.STATE_DIR_CONFIG, args[2]);
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        p.put(StreamsConfig.consumerPrefix("session.timeout.ms"), 6000);
        p.put(StreamsConfig.consumerPrefix("heartbeat.interval.ms"), 1000);
        p.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterHandler.class);
        try (var admin = org.apache.kafka.clients.admin.Admin.create(java.util.Map.of("bootstrap.servers", args[0]))) {
            // the self-watch's own topics and the escalations, as StreamsApp creates them at start-up
            var own = new java.util.ArrayList<>(
                    dev.vigil.streams.topology.SelfWatchTopology.topics(cfg, java.util.Optional.of((short) 1)));
            own.addAll(dev.vigil.streams.topology.AlertingTopology.topics(cfg, java.util.Optional.of((short) 1)));
            admin.createTopics(own).values().values().forEach(f -> {
                try {
                    f.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    // already there
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        KafkaStreams streams = new KafkaStreams(topology, p);
        CountDownLatch done = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            streams.close();
            done.countDown();
        }));
        streams.start();
        done.await();
    }
}

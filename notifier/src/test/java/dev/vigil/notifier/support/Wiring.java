package dev.vigil.notifier.support;

import dev.vigil.notifier.core.ChannelLane;
import dev.vigil.notifier.core.ChannelPipeline;
import dev.vigil.notifier.core.ClaimStage;
import dev.vigil.notifier.core.DeadLetterStage;
import dev.vigil.notifier.core.DeliveryLog;
import dev.vigil.notifier.core.Dispatcher;
import dev.vigil.notifier.core.Escalations;
import dev.vigil.notifier.core.Notifier;
import dev.vigil.notifier.core.RecordStage;
import dev.vigil.notifier.core.RetryPolicy;
import dev.vigil.notifier.core.Routes;
import dev.vigil.notifier.core.SendStage;
import dev.vigil.schemas.contract.Severity;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.r2dbc.spi.ConnectionFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/** The notifier's core over a given delivery log and adapters, without Kafka: for tests against the real store. */
public final class Wiring {
    private Wiring() {}

    /** critical → betterstack, slack, discord; warning → slack, discord; info → log. */
    public static Routes standardRoutes() {
        Map<Severity, List<String>> d = new EnumMap<>(Severity.class);
        d.put(Severity.CRITICAL, List.of("betterstack", "slack", "discord"));
        d.put(Severity.WARNING, List.of("slack", "discord"));
        d.put(Severity.INFO, List.of("log"));
        return new Routes(List.of(), d, Set.of("betterstack", "slack", "discord", "log"));
    }

    /** A dispatcher with one pipeline per notifier (short retries); lanes are added to {@code closeables}. */
    public static Dispatcher dispatcher(
            Routes routes,
            DeliveryLog log,
            Escalations escalations,
            Map<String, Notifier> notifiers,
            List<AutoCloseable> closeables) {
        return dispatcher(routes, log, escalations, notifiers, closeables, Schedulers.parallel());
    }

    /**
     * As above, the dispatcher's own timer (group waits among others) being {@code timer}: disposing it abandons
     * whatever waits on it, as a killed process would.
     */
    public static Dispatcher dispatcher(
            Routes routes,
            DeliveryLog log,
            Escalations escalations,
            Map<String, Notifier> notifiers,
            List<AutoCloseable> closeables,
            reactor.core.scheduler.Scheduler timer) {
        Clock clock = Clock.systemUTC();
        RetryPolicy policy =
                new RetryPolicy(Duration.ofMillis(10), 2, Duration.ofMillis(100), Duration.ofSeconds(10), () -> 0.5);
        DeadLetterStage deadLetters =
                new DeadLetterStage(escalations, routes, log, "vigil.alerts", clock, Schedulers.parallel());
        Map<String, ChannelPipeline> pipelines = new LinkedHashMap<>();
        notifiers.forEach((ch, n) -> {
            ChannelLane lane = new ChannelLane(ch, 0, 4, Schedulers.parallel());
            closeables.add(lane);
            pipelines.put(
                    ch,
                    new ChannelPipeline(
                            ch,
                            new ClaimStage(log, Schedulers.parallel()),
                            lane,
                            new SendStage(n, Duration.ofSeconds(5), Schedulers.parallel()),
                            new RecordStage(log, Schedulers.parallel()),
                            deadLetters,
                            policy,
                            clock,
                            Schedulers.parallel(),
                            Duration.ofMillis(50),
                            new SimpleMeterRegistry()));
        });
        return new Dispatcher(routes, pipelines, log, timer);
    }

    /** Every row of a query, column name → value. */
    public static List<Map<String, Object>> rows(ConnectionFactory db, String sql, Object... binds) {
        return Mono.usingWhen(
                        Mono.from(db.create()),
                        c -> {
                            var s = c.createStatement(sql);
                            for (int i = 0; i < binds.length; i++) {
                                s.bind("$" + (i + 1), binds[i]);
                            }
                            return Flux.from(s.execute())
                                    .flatMap(r -> r.map((row, meta) -> {
                                        Map<String, Object> m = new HashMap<>();
                                        for (var col : meta.getColumnMetadatas()) {
                                            m.put(col.getName(), row.get(col.getName()));
                                        }
                                        return m;
                                    }))
                                    .collectList();
                        },
                        c -> Mono.from(c.close()))
                .block(Duration.ofSeconds(30));
    }
}

package dev.vigil.notifier.core.stage;

import java.util.ArrayList;
import java.util.List;
import reactor.core.publisher.Mono;

/**
 * Stages run in order, each handing the next what it learnt; a stopped delivery skips the rest. Its description is
 * the pipeline as data, so a log line shows what a page goes through without reading the code.
 */
public final class StageList {
    private final List<DeliveryStage> stages;

    public StageList(List<DeliveryStage> stages) {
        if (stages.isEmpty()) {
            throw new IllegalArgumentException("a stage list needs at least one stage");
        }
        this.stages = List.copyOf(stages);
    }

    public static StageList of(DeliveryStage... stages) {
        return new StageList(List.of(stages));
    }

    public Mono<Delivery> run(Delivery d) {
        return from(0, d);
    }

    private Mono<Delivery> from(int i, Delivery d) {
        if (i == stages.size() || d.stopped()) {
            return Mono.just(d);
        }
        return stages.get(i).apply(d, next -> from(i + 1, next));
    }

    public List<DeliveryStage> stages() {
        return stages;
    }

    /** Every stage's name in running order, the stages a stage runs inside it included. */
    public List<String> names() {
        List<String> names = new ArrayList<>();
        stages.forEach(s -> names.addAll(s.names()));
        return List.copyOf(names);
    }

    /** The stage names joined by arrows, as the start-up log prints them. */
    public String describe() {
        return String.join(" \u2192 ", names());
    }

    @Override
    public String toString() {
        return describe();
    }
}

package dev.vigil.streams.selfwatch;

import dev.vigil.schemas.contract.RegionStatus;
import dev.vigil.schemas.window.Windows;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the region watch keeps of one probe region (the value of its store, keyed by region), with the pure rules over
 * it. A worker is live while its latest heartbeat is younger than {@code workers.healthy} on the watch's clock
 * ({@link RegionWatchProcessor} passes the heartbeats' own time while it reads them behind wall clock).
 *
 * @param region          the region
 * @param watchedSince    when this watch first heard of the region (wall clock): a region is not called blind before
 *                        its workers had the time to send a heartbeat
 * @param lastHeartbeatAt the newest heartbeat of any of its own workers; null while no worker has ever served it
 * @param blindSince      since when it is blind; null while it is not
 * @param workers         its own workers by id
 * @param naming          per worker of any region, the latest count of monitors naming this region it reported
 * @param published       the picture last written to {@code vigil.regions}; null before the first
 */
public record RegionWatch(
        String region,
        long watchedSince,
        Long lastHeartbeatAt,
        Long blindSince,
        Map<String, Worker> workers,
        Map<String, Naming> naming,
        RegionStatus published) {
    public RegionWatch {
        workers = workers == null ? Map.of() : Map.copyOf(workers);
        naming = naming == null ? Map.of() : Map.copyOf(naming);
    }

    /**
     * One of the region's workers.
     *
     * @param samples  its cumulative probe counters at its recent heartbeats, oldest first
     * @param runSince its first heartbeat since it (re)started, as far as the watch heard; null when not known (a watch
     *                 written before this was kept): judged as long ago
     */
    public record Worker(long lastHeartbeatAt, List<Sample> samples, Long runSince) {
        public Worker {
            samples = samples == null ? List.of() : List.copyOf(samples);
        }

        public Worker(long lastHeartbeatAt, List<Sample> samples) {
            this(lastHeartbeatAt, samples, null);
        }
    }

    /** A worker's cumulative counters as one heartbeat reported them. */
    public record Sample(long at, long started, long skipped) {}

    /** One worker's count of the monitors naming this region, as of its heartbeat {@code sentAt}. */
    public record Naming(long sentAt, int monitors) {}

    /** Probes started and skipped by a worker over the measured span ({@code spanMs}, between two heartbeats). */
    public record Skips(long started, long skipped, long spanMs) {
        /** The skipped share of all its probes: skipped over started plus skipped. */
        public double share() {
            long all = started + skipped;
            return all == 0 ? 0 : (double) skipped / all;
        }
    }

    public static RegionWatch first(String region, long now) {
        return new RegionWatch(region, now, null, null, Map.of(), Map.of(), null);
    }

    /** With a heartbeat's signal for this region; an older heartbeat of a worker than one already heard changes nothing. */
    public RegionWatch heard(WatchSignal s, long keepSamplesMs) {
        Map<String, Naming> names = new TreeMap<>(naming);
        Naming before = names.get(s.workerId());
        if (before == null || before.sentAt() < s.sentAt()) {
            names.put(s.workerId(), new Naming(s.sentAt(), s.monitorsNaming() == null ? 0 : s.monitorsNaming()));
        }
        if (!s.fromOwnRegion(region)) {
            return new RegionWatch(region, watchedSince, lastHeartbeatAt, blindSince, workers, names, published);
        }
        Map<String, Worker> own = new TreeMap<>(workers);
        Worker w = own.get(s.workerId());
        if (w != null && w.lastHeartbeatAt() >= s.sentAt()) {
            return new RegionWatch(region, watchedSince, lastHeartbeatAt, blindSince, workers, names, published);
        }
        List<Sample> samples = new ArrayList<>(w == null ? List.of() : w.samples());
        Long runSince = w == null ? Long.valueOf(s.sentAt()) : w.runSince();
        if (s.probesStarted() != null && s.probesSkipped() != null) {
            Sample last = samples.isEmpty() ? null : samples.get(samples.size() - 1);
            if (last != null && (s.probesStarted() < last.started() || s.probesSkipped() < last.skipped())) {
                samples.clear(); // the worker restarted: its counters began again
                runSince = s.sentAt();
            }
            samples.add(new Sample(s.sentAt(), s.probesStarted(), s.probesSkipped()));
            // keep the span, and the newest sample before it as the span's base
            while (samples.size() > 2 && samples.get(1).at() <= s.sentAt() - keepSamplesMs) {
                samples.remove(0);
            }
        }
        own.put(s.workerId(), new Worker(s.sentAt(), samples, runSince));
        long newest = lastHeartbeatAt == null ? s.sentAt() : Math.max(lastHeartbeatAt, s.sentAt());
        return new RegionWatch(region, watchedSince, newest, blindSince, own, names, published);
    }

    /**
     * The workers whose latest heartbeat is younger than {@code healthyMs}, or than twice that while the worker is in
     * its first {@link Windows#WORKER_WARM_UP_MS} (as its heartbeats tell): a worker that has just started runs cold code, loads its
     * whole fleet and opens every connection anew, and one late heartbeat then is its start, not its death. A worker
     * that dies in its first minute is called dead one healthy span later; a worker past its warm-up is judged as
     * always.
     */
    public int liveWorkers(long now, long healthyMs) {
        int live = 0;
        for (Worker w : workers.values()) {
            boolean warmingUp = w.runSince() != null && w.lastHeartbeatAt() - w.runSince() < Windows.WORKER_WARM_UP_MS;
            if (now - w.lastHeartbeatAt() < (warmingUp ? 2 * healthyMs : healthyMs)) {
                live++;
            }
        }
        return live;
    }

    /** The largest count of monitors naming this region among live workers' latest heartbeats (any region's). */
    public int monitorsNaming(long now, long healthyMs) {
        int most = 0;
        for (Naming n : naming.values()) {
            if (now - n.sentAt() < healthyMs) {
                most = Math.max(most, n.monitors());
            }
        }
        return most;
    }

    /**
     * This watch at {@code now}: workers silent for {@code forgetMs} and counts of workers no longer live forgotten,
     * and {@code blindSince} set or cleared. Blind: monitors name the region, no live worker serves it, and the watch
     * has heard of the region for at least {@code healthyMs} (a fresh start does not call a served region blind before
     * its workers' next heartbeat).
     */
    public RegionWatch judged(long now, long healthyMs, long forgetMs) {
        Map<String, Worker> own = new TreeMap<>();
        workers.forEach((id, w) -> {
            if (now - w.lastHeartbeatAt() < forgetMs) {
                own.put(id, w);
            }
        });
        Map<String, Naming> names = new TreeMap<>();
        naming.forEach((id, n) -> {
            if (now - n.sentAt() < healthyMs) {
                names.put(id, n);
            }
        });
        RegionWatch pruned = new RegionWatch(region, watchedSince, lastHeartbeatAt, blindSince, own, names, published);
        boolean blind = pruned.monitorsNaming(now, healthyMs) > 0
                && pruned.liveWorkers(now, healthyMs) == 0
                && now - watchedSince >= healthyMs;
        Long since = blind ? (blindSince == null ? now : blindSince) : null;
        return new RegionWatch(region, watchedSince, lastHeartbeatAt, since, own, names, published);
    }

    /** The picture of the region at {@code now} (call on a {@link #judged} watch). */
    public RegionStatus status(long now, long healthyMs) {
        return new RegionStatus(
                1,
                region,
                liveWorkers(now, healthyMs),
                workers.size(),
                monitorsNaming(now, healthyMs),
                lastHeartbeatAt,
                blindSince,
                now);
    }

    public boolean blind() {
        return blindSince != null;
    }

    /**
     * A worker's probes started and skipped over its heartbeats of the last {@code spanMs} (from the newest heartbeat at
     * or before the span's start to its latest); null until its heartbeats with counters cover the whole span, so a
     * worker's first skips are judged over a full span like any other.
     *
     * <p>The first span after a worker (re)starts is its warm-up and is not judged: its probe clients open their first
     * connections, resolve their first names and run code not yet compiled, so its first probes finish late and are
     * skipped as overloaded although the worker is sized well. A worker that stays behind after that is judged from
     * the end of its warm-up.
     */
    public Skips skips(String workerId, long spanMs) {
        Worker w = workers.get(workerId);
        if (w == null || w.samples().size() < 2) {
            return null;
        }
        long warmedAt = w.runSince() == null ? Long.MIN_VALUE : w.runSince() + spanMs;
        Sample base = null;
        for (Sample sample : w.samples()) {
            if (sample.at() >= warmedAt) {
                base = sample;
                break;
            }
        }
        if (base == null) {
            return null;
        }
        Sample last = w.samples().get(w.samples().size() - 1);
        if (last.at() - base.at() < spanMs) {
            return null;
        }
        return new Skips(last.started() - base.started(), last.skipped() - base.skipped(), last.at() - base.at());
    }

    public RegionWatch withPublished(RegionStatus status) {
        return new RegionWatch(region, watchedSince, lastHeartbeatAt, blindSince, workers, naming, status);
    }

    /**
     * True when {@code status} says what the last published picture said (its time aside) and that one is younger
     * than {@code refreshMs}: a picture is written when it changes and at least that often, so a reader can tell a
     * current picture from one the watch stopped writing.
     */
    public boolean alreadyPublished(RegionStatus status, long refreshMs) {
        return published != null
                && status.updatedAt() - published.updatedAt() < refreshMs
                && published.liveWorkers().equals(status.liveWorkers())
                && published.knownWorkers().equals(status.knownWorkers())
                && published.monitorsNaming().equals(status.monitorsNaming())
                && java.util.Objects.equals(published.lastHeartbeatAt(), status.lastHeartbeatAt())
                && java.util.Objects.equals(published.blindSince(), status.blindSince());
    }
}

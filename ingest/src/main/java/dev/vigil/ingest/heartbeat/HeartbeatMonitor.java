package dev.vigil.ingest.heartbeat;

import dev.vigil.ingest.publish.PublishResult;
import dev.vigil.kit.auth.HashedCredentials;
import dev.vigil.schemas.contract.HeartbeatSchedules;
import dev.vigil.schemas.contract.MonitorDefinition;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One heartbeat monitor as ingest knows it: its definition, its ping token held as the hash only (matched in constant
 * time by the service kit's {@link HashedCredentials}, as the API keys are), the window it is in, and which of its
 * windows already has a published result of each kind.
 *
 * <p>The last two make a ping cheap. A cron window takes a few hundred microseconds to compute, so the current one is
 * remembered until time leaves it. And a window whose success (or failure) is already on Kafka needs nothing more:
 * the verdict is decided by the window's first result, so later pings of it are answered without publishing. That
 * memory is one {@link Claim} per kind, replaced when a ping of a later window claims it, so it is bounded by the
 * number of heartbeat monitors, whatever the number of pings.
 */
public final class HeartbeatMonitor {
    private final MonitorDefinition definition;
    private final HashedCredentials<Boolean> token;
    private final AtomicReference<Claim> success = new AtomicReference<>();
    private final AtomicReference<Claim> failure = new AtomicReference<>();
    private volatile HeartbeatSchedules.Window window;

    HeartbeatMonitor(MonitorDefinition definition) {
        this.definition = definition;
        this.token =
                HashedCredentials.of(List.of(Map.entry(definition.heartbeat().tokenSha256(), Boolean.TRUE)));
    }

    public MonitorDefinition definition() {
        return definition;
    }

    public String id() {
        return definition.id();
    }

    /** Whether a GET counts as a ping of this monitor (its definition opted in); else only a POST does. */
    public boolean allowsGet() {
        return Boolean.TRUE.equals(definition.heartbeat().allowGet());
    }

    /** Whether an {@code Authorization: Bearer …} value carries this monitor's token (constant time). */
    boolean accepts(String authorization) {
        return token.authenticate(authorization).isPresent();
    }

    /** The window {@code now} falls in (remembered until time leaves it). */
    public HeartbeatSchedules.Window windowAt(long now) {
        HeartbeatSchedules.Window w = window;
        if (w == null || now < w.start() || now >= w.end()) {
            w = HeartbeatSchedules.windowAt(definition, now);
            window = w;
        }
        return w;
    }

    /**
     * The publication of this window's result of one kind: the one claimed by an earlier ping of the window, or a new
     * one. Exactly one caller {@link Claim#take() takes} a claim and publishes (then {@link #settle settles} it); every
     * other caller answers with its outcome and publishes nothing. A ping of a window already claimed allocates
     * nothing.
     */
    public Claim claim(boolean succeeded, long windowStart) {
        AtomicReference<Claim> slot = succeeded ? success : failure;
        while (true) {
            Claim current = slot.get();
            if (current != null && current.windowStart == windowStart) {
                return current;
            }
            Claim mine = new Claim(windowStart);
            if (current != null && current.windowStart > windowStart) {
                return mine; // a ping placed just before a window boundary, overtaken: publish, remember nothing
            }
            if (slot.compareAndSet(current, mine)) {
                return mine;
            }
        }
    }

    /** Records the outcome of a taken claim; an unavailable one is forgotten, so the next ping publishes again. */
    public void settle(boolean succeeded, Claim claim, PublishResult result) {
        if (result != PublishResult.ACKNOWLEDGED) {
            (succeeded ? success : failure).compareAndSet(claim, null);
        }
        claim.result.complete(result);
    }

    /** The publication of one window's result of one kind. */
    public static final class Claim {
        private final long windowStart;
        private final CompletableFuture<PublishResult> result = new CompletableFuture<>();
        private final AtomicBoolean taken = new AtomicBoolean();

        Claim(long windowStart) {
            this.windowStart = windowStart;
        }

        public long windowStart() {
            return windowStart;
        }

        /** True for the one caller that publishes this window's result; false for every other. */
        public boolean take() {
            return !taken.get() && taken.compareAndSet(false, true);
        }

        /** Completes with the publication's outcome. */
        public CompletableFuture<PublishResult> result() {
            return result;
        }
    }
}

package dev.vigil.kit.http;

import java.util.concurrent.atomic.AtomicLong;

/** Request body bytes one server holds at once, over all its connections, against a fixed budget. */
public final class BodyBudget {
    private final long limit;
    private final AtomicLong used = new AtomicLong();

    public BodyBudget(long limit) {
        this.limit = limit;
    }

    /** Whether {@code declared} more bytes would still fit now (nothing is taken). */
    public boolean fits(long declared) {
        return declared <= limit - used.get();
    }

    /** Takes {@code n} bytes if they fit; false (nothing taken) when they would exceed the budget. */
    public boolean tryTake(long n) {
        while (true) {
            long now = used.get();
            if (now + n > limit) {
                return false;
            }
            if (used.compareAndSet(now, now + n)) {
                return true;
            }
        }
    }

    public void give(long n) {
        if (n > 0) {
            used.addAndGet(-n);
        }
    }

    public long used() {
        return used.get();
    }

    public long limit() {
        return limit;
    }
}

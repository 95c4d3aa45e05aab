package dev.vigil.bench;

import java.lang.reflect.Method;

/**
 * Optional async-profiler around the measured part of a benchmark, so the profile holds the measurement and not
 * the warm-up. Off unless {@code -Dvigil.bench.profile=<output file>} is set; async-profiler's jar (Maven Central:
 * {@code tools.profiler:async-profiler:4.1:jar:linux-x64}) goes on the class path, {@code -Dvigil.bench.asyncProfiler}
 * may name its {@code libasyncProfiler.so}, and it is driven through its own Java API by reflection, so the
 * benchmarks need no dependency on it. The output is collapsed stacks, one thread per frame
 * root ({@code threads}), sampled on CPU time; {@code -Dvigil.bench.profileEvent=alloc} samples allocations (bytes)
 * instead, to find what feeds the garbage collector.
 */
public final class Profiling implements AutoCloseable {
    private final Object profiler;
    private final String file;

    private Profiling(Object profiler, String file) {
        this.profiler = profiler;
        this.file = file;
    }

    /** Starts the profiler when asked to; otherwise a no-op whose close does nothing. */
    public static Profiling startIfAsked() {
        return startIfAsked("vigil.bench.profile");
    }

    /** As {@link #startIfAsked()}, with the output file named by another system property (another phase). */
    public static Profiling startIfAsked(String property) {
        String file = System.getProperty(property);
        if (file == null || file.isBlank()) {
            return new Profiling(null, null);
        }
        String lib = System.getProperty("vigil.bench.asyncProfiler");
        try {
            Class<?> c = Class.forName("one.profiler.AsyncProfiler");
            Object p = lib == null
                    ? c.getMethod("getInstance").invoke(null)
                    : c.getMethod("getInstance", String.class).invoke(null, lib);
            String event = System.getProperty("vigil.bench.profileEvent", "itimer");
            execute(
                    p,
                    "alloc".equals(event)
                            ? "start,event=alloc,threads"
                            : "start,event=" + event + ",interval=1ms,threads");
            System.err.println("profiling the measured part into " + file);
            return new Profiling(p, file);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(
                    "vigil.bench.profile is set but async-profiler could not be loaded"
                            + " (put its jar on the class path; vigil.bench.asyncProfiler may name libasyncProfiler.so): "
                            + e,
                    e);
        }
    }

    private static String execute(Object p, String command) throws ReflectiveOperationException {
        Method m = p.getClass().getMethod("execute", String.class);
        return (String) m.invoke(p, command);
    }

    @Override
    public void close() {
        if (profiler == null) {
            return;
        }
        try {
            execute(profiler, "stop,file=" + file + ",collapsed");
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("stopping async-profiler: " + e, e);
        }
    }
}

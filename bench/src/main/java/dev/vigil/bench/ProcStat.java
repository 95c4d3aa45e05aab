package dev.vigil.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One line of Linux's {@code /proc/<pid>/stat} (or {@code /proc/<pid>/task/<tid>/stat}): the command name is in
 * parentheses and may hold spaces and parentheses itself, so the fields are counted from after the last ')'.
 */
public final class ProcStat {
    /** Clock ticks per second of {@code /proc} stat times: USER_HZ, 100 on every Linux this runs on. */
    public static final long TICKS_PER_SECOND = 100;

    private ProcStat() {}

    /** The command name (field 2, without its parentheses). */
    public static String command(String statLine) {
        return statLine.substring(statLine.indexOf('(') + 1, statLine.lastIndexOf(')'));
    }

    /** utime + stime (fields 14 and 15), in clock ticks. */
    public static long cpuTicks(String statLine) {
        String[] f = statLine.substring(statLine.lastIndexOf(')') + 2).trim().split("\\s+");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    /** utime + stime of process {@code pid} so far (every thread it has had), in clock ticks. */
    public static long processCpuTicks(long pid) throws IOException {
        return cpuTicks(Files.readString(Path.of("/proc/" + pid + "/stat")));
    }

    /** Whether a thread of this name ({@code comm}, cut to 15 characters) is one of HotSpot's JIT compilers. */
    public static boolean isCompilerThread(String comm) {
        return comm.startsWith("C1 Compiler") || comm.startsWith("C2 Compiler");
    }
}

package dev.vigil.bench;

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
}

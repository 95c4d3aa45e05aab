package dev.vigil.standalone.cluster;

import dev.vigil.schemas.contract.MonitorDefinition;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The pure parts of the scale benchmark ({@link ClusterScale}): the monitors it creates, percentiles, the
 * {@code RESULT} line of a step and the growth table (each figure at the largest step over the smallest).
 */
final class ScaleFigures {
    private ScaleFigures() {}

    // ---------------------------------------------------------------- monitors

    /** The id of monitor {@code i} (1-based): ordered like the numbers, so a status walk pages them in order. */
    static String monitorId(int i) {
        if (i < 1 || i > 9_999_999) {
            throw new IllegalArgumentException("monitor number must be within 1..9999999, was " + i);
        }
        return String.format(Locale.ROOT, "scale-%07d", i);
    }

    /**
     * Monitor {@code i}: GET {@code http://127.0.0.<1 + i % addresses>:port/t/<id>} every {@code intervalSeconds} from
     * every region, with the contract's default timeout and expectation (status 200-399). The target addresses
     * rotate over {@code addresses} loopback addresses so that a probe's fresh connection per window does not run one
     * address pair out of ports.
     */
    static MonitorDefinition monitor(int i, int port, int addresses, List<String> regions, int intervalSeconds) {
        if (addresses < 1 || addresses > 250) {
            throw new IllegalArgumentException("1..250 loopback addresses");
        }
        String id = monitorId(i);
        String host = "127.0.0." + (1 + i % addresses);
        return new MonitorDefinition(
                1,
                id,
                "Scale " + id,
                "http://" + host + ":" + port + "/t/" + id,
                "GET",
                intervalSeconds,
                null,
                regions,
                null,
                null,
                null,
                "scale-" + (i % 50),
                null,
                Map.of(),
                true);
    }

    /** Monitors {@code from + 1 .. to}. */
    static List<MonitorDefinition> monitors(
            int from, int to, int port, int addresses, List<String> regions, int intervalSeconds) {
        List<MonitorDefinition> list = new ArrayList<>(Math.max(0, to - from));
        for (int i = from + 1; i <= to; i++) {
            list.add(monitor(i, port, addresses, regions, intervalSeconds));
        }
        return list;
    }

    /** Parses {@code --steps 10000,30000,100000}: positive and strictly increasing (the cluster grows in place). */
    static List<Integer> steps(String text) {
        List<Integer> steps = new ArrayList<>();
        for (String s : text.split(",")) {
            String t = s.strip().replace("_", "");
            if (t.isEmpty()) {
                continue;
            }
            int n;
            if (t.endsWith("k")) {
                n = Integer.parseInt(t.substring(0, t.length() - 1)) * 1000;
            } else {
                n = Integer.parseInt(t);
            }
            if (n < 1 || (!steps.isEmpty() && n <= steps.get(steps.size() - 1))) {
                throw new IllegalArgumentException("steps must be positive and increasing: " + text);
            }
            steps.add(n);
        }
        if (steps.isEmpty()) {
            throw new IllegalArgumentException("no steps in: " + text);
        }
        return List.copyOf(steps);
    }

    // ---------------------------------------------------------------- percentiles

    /** Nearest-rank percentile ({@code p} in 0..100) of {@code values}; -1 when there are none. */
    static long percentile(long[] values, double p) {
        if (p < 0 || p > 100) {
            throw new IllegalArgumentException("percentile must be within 0..100");
        }
        if (values.length == 0) {
            return -1;
        }
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    static long percentile(Collection<Long> values, double p) {
        return percentile(values.stream().mapToLong(Long::longValue).toArray(), p);
    }

    // ---------------------------------------------------------------- results

    /** One step's figures, in the order they are printed; numbers are what the growth table divides. */
    record Step(int monitors, Map<String, Double> figures, Map<String, String> notes) {
        Step {
            figures = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(figures));
            notes = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(notes));
        }
    }

    /** {@code RESULT cluster-scale monitors=N key=value ...}: numbers with up to 3 decimals, notes as given. */
    static String resultLine(Step step) {
        return resultLine("cluster-scale", step);
    }

    /** {@code RESULT <name> monitors=N key=value ...}. */
    static String resultLine(String name, Step step) {
        StringBuilder sb =
                new StringBuilder("RESULT ").append(name).append(" monitors=").append(step.monitors());
        step.figures().forEach((k, v) -> sb.append(' ').append(k).append('=').append(number(v)));
        step.notes().forEach((k, v) -> sb.append(' ').append(k).append('=').append(v.replace(' ', '_')));
        return sb.toString();
    }

    /** A figure as printed: whole numbers without decimals, others with up to 3; NaN (not measured) as {@code -}. */
    static String number(double v) {
        if (Double.isNaN(v)) {
            return "-";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        String s = String.format(Locale.ROOT, "%.3f", v);
        s = s.replaceAll("0+$", "");
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }

    /**
     * The largest step's figure over the smallest's; NaN when either is missing or the smallest is 0 (a ratio of
     * nothing), so a figure that appears only at scale (skipped windows) says so instead of dividing by zero.
     */
    static double growth(double first, double last) {
        if (Double.isNaN(first) || Double.isNaN(last) || first == 0) {
            return Double.NaN;
        }
        return last / first;
    }

    /**
     * A table with one row per figure: its value at every step, then the ratio of the last step to the first, and
     * the monitors' own ratio beside it for comparison (a figure growing like the fleet has the same ratio).
     */
    static String growthTable(List<Step> steps) {
        if (steps.isEmpty()) {
            return "";
        }
        Set<String> keys = new LinkedHashSet<>();
        steps.forEach(s -> keys.addAll(s.figures().keySet()));
        Step first = steps.get(0);
        Step last = steps.get(steps.size() - 1);
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%-34s", "figure"));
        steps.forEach(s -> sb.append(String.format(Locale.ROOT, " %14s", s.monitors())));
        sb.append(String.format(Locale.ROOT, " %12s%n", "x" + last.monitors() + "/" + first.monitors()));
        sb.append(String.format(Locale.ROOT, "%-34s", "monitors"));
        steps.forEach(s -> sb.append(String.format(Locale.ROOT, " %14d", s.monitors())));
        sb.append(String.format(Locale.ROOT, " %12s%n", number(round(growth(first.monitors(), last.monitors())))));
        for (String k : keys) {
            sb.append(String.format(Locale.ROOT, "%-34s", k));
            steps.forEach(s -> sb.append(
                    String.format(Locale.ROOT, " %14s", number(s.figures().getOrDefault(k, Double.NaN)))));
            double g = growth(
                    first.figures().getOrDefault(k, Double.NaN), last.figures().getOrDefault(k, Double.NaN));
            sb.append(String.format(Locale.ROOT, " %12s%n", number(round(g))));
        }
        return sb.toString();
    }

    private static double round(double v) {
        return Double.isNaN(v) ? v : Math.round(v * 100) / 100.0;
    }

    // ---------------------------------------------------------------- process figures

    /** The Prometheus text's {@code jvm_memory_used_bytes{area="heap",...}} summed over heap pools; -1 if none. */
    static long heapUsed(String prometheusText) {
        long sum = 0;
        boolean found = false;
        for (String line : prometheusText.split("\n")) {
            if (line.startsWith("jvm_memory_used_bytes{") && line.contains("area=\"heap\"")) {
                String value = line.substring(line.lastIndexOf(' ') + 1).strip();
                sum += (long) Double.parseDouble(value);
                found = true;
            }
        }
        return found ? sum : -1;
    }

    /** The sum of the counter {@code name} over all its label sets in a Prometheus text; 0 when absent. */
    static double counter(String prometheusText, String name) {
        double sum = 0;
        for (String line : prometheusText.split("\n")) {
            if (line.startsWith(name + "{") || line.startsWith(name + " ")) {
                sum += Double.parseDouble(
                        line.substring(line.lastIndexOf(' ') + 1).strip());
            }
        }
        return sum;
    }

    /** {@code VmRSS} in bytes from the text of {@code /proc/<pid>/status}; -1 if absent. */
    static long rss(String procStatus) {
        for (String line : procStatus.split("\n")) {
            if (line.startsWith("VmRSS:")) {
                String[] parts = line.substring(6).strip().split("\\s+");
                return Long.parseLong(parts[0]) * 1024;
            }
        }
        return -1;
    }

    /** User plus system CPU ticks from the text of {@code /proc/<pid>/stat} (fields 14 and 15). */
    static long cpuTicks(String procStat) {
        // the command (field 2) is in parentheses and may hold spaces: count fields after its closing one
        String rest = procStat.substring(procStat.lastIndexOf(')') + 2);
        String[] f = rest.split(" ");
        // rest starts at field 3 (state): utime is field 14, stime 15
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    /** The used heap in bytes from {@code jstat -gc} output (S0U + S1U + EU + OU, in KB); -1 if unreadable. */
    static long jstatHeapUsed(String jstatOutput) {
        String[] lines = jstatOutput.strip().split("\n");
        if (lines.length < 2) {
            return -1;
        }
        List<String> header = List.of(lines[0].strip().split("\\s+"));
        String[] values = lines[lines.length - 1].strip().split("\\s+");
        double kb = 0;
        for (String col : List.of("S0U", "S1U", "EU", "OU")) {
            int i = header.indexOf(col);
            if (i < 0 || i >= values.length) {
                return -1;
            }
            kb += Double.parseDouble(values[i]);
        }
        return (long) (kb * 1024);
    }
}

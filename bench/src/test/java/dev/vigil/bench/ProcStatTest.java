package dev.vigil.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A stat line whose command name holds spaces and parentheses still gives the right fields. */
class ProcStatTest {
    private static final String LINE =
            "4242 (C2 CompilerThre) S 1 4242 4242 0 -1 4194368 100 0 0 0 1234 56 0 0 20 0 30 0 100 0 0";
    private static final String ODD_NAME = "77 (weird ) name) R 1 77 77 0 -1 0 0 0 0 0 7 3 0 0 20 0 1 0 5 0 0";

    @Test
    void readsTheCommandAndUserPlusSystemTicks() {
        assertThat(ProcStat.command(LINE)).isEqualTo("C2 CompilerThre");
        assertThat(ProcStat.cpuTicks(LINE)).isEqualTo(1290L);
    }

    @Test
    void countsFieldsFromTheLastParenthesis() {
        assertThat(ProcStat.command(ODD_NAME)).isEqualTo("weird ) name");
        assertThat(ProcStat.cpuTicks(ODD_NAME)).isEqualTo(10L);
    }

    @Test
    void namesHotSpotsCompilerThreadsOnly() {
        assertThat(ProcStat.isCompilerThread(ProcStat.command(LINE))).isTrue();
        assertThat(ProcStat.isCompilerThread("C1 CompilerThre")).isTrue();
        assertThat(ProcStat.isCompilerThread("GC Thread#0")).isFalse();
        assertThat(ProcStat.isCompilerThread("main")).isFalse();
    }

    @Test
    void readsAProcesssCpuTicksFromItsStatFile() throws Exception {
        // this JVM has run for seconds before any test: its user and system time is well past one tick
        assertThat(ProcStat.processCpuTicks(ProcessHandle.current().pid())).isPositive();
    }
}

package dev.vigil.streams.verdict;

import static dev.vigil.streams.Fixtures.W0;
import static dev.vigil.streams.Fixtures.deadline;
import static dev.vigil.streams.Fixtures.failure;
import static dev.vigil.streams.Fixtures.monitor;
import static dev.vigil.streams.Fixtures.regions;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.contract.Status;
import dev.vigil.streams.topology.DriverHarness;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A verdict continues the trace of the result that decided it, or at its deadline, of the window's latest result. */
class VerdictTraceTest {
    private static final String FIRST = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    private static final String LATEST = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

    private DriverHarness h;

    @BeforeEach
    void start() {
        h = new DriverHarness(W0 - 30_000);
    }

    @AfterEach
    void stop() {
        h.close();
    }

    private void traced(ProbeResult r, String traceparent) {
        var headers = new RecordHeaders().add("traceparent", traceparent.getBytes(StandardCharsets.UTF_8));
        h.results.pipeInput(new TestRecord<>(r.monitorId(), r, headers, r.startedAt()));
    }

    @Test
    void aVerdictDecidedAtItsDeadlineContinuesTheTraceOfTheWindowsLatestResult() {
        h.define(monitor("shop", regions(3)));
        h.wallClockTo(W0 - 20_000);
        traced(failure("shop", "eu-west", W0), FIRST);
        traced(failure("shop", "us-east", W0), LATEST);
        h.wallClockTo(deadline("shop", W0) + 500);
        var out = h.status.readRecord();
        assertThat(out.value().status()).isEqualTo(Status.DOWN);
        assertThat(new String(out.headers().lastHeader("traceparent").value(), StandardCharsets.UTF_8))
                .isEqualTo(LATEST);
    }

    @Test
    void aVerdictAResultCompletesContinuesThatResultsTrace() {
        h.define(monitor("one", regions(1)));
        h.wallClockTo(W0 - 20_000);
        traced(failure("one", regions(1).get(0), W0), FIRST);
        var out = h.status.readRecord();
        assertThat(new String(out.headers().lastHeader("traceparent").value(), StandardCharsets.UTF_8))
                .isEqualTo(FIRST);
    }

    @Test
    void aSilentWindowsVerdictCarriesNoTrace() {
        h.define(monitor("quiet", regions(2)));
        h.wallClockTo(W0 - 20_000);
        h.wallClockTo(deadline("quiet", W0 + 60_000) + 500);
        var out = h.status.readRecordsToList();
        assertThat(out).isNotEmpty().allMatch(r -> r.headers().lastHeader("traceparent") == null);
    }
}

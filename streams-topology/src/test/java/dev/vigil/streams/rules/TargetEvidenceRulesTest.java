package dev.vigil.streams.rules;

import static dev.vigil.streams.rules.MonitorRulesTest.DEF;
import static dev.vigil.streams.rules.MonitorRulesTest.LINKS;
import static dev.vigil.streams.rules.MonitorRulesTest.MIN;
import static dev.vigil.streams.rules.MonitorRulesTest.T0;
import static dev.vigil.streams.rules.MonitorRulesTest.fail;
import static dev.vigil.streams.rules.MonitorRulesTest.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.schemas.contract.MonitorStatus.RegionResult;
import dev.vigil.schemas.contract.RegionStatus;
import dev.vigil.schemas.contract.SkipReason;
import dev.vigil.schemas.contract.Status;
import dev.vigil.streams.alerting.AlertStateMachine;
import dev.vigil.streams.alerting.AlertStateRecord;
import dev.vigil.streams.verdict.VerdictRule;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Alerting judges a window on the regions that probed the target: missing regions (skipped, blind, late) never breach,
 * never count towards "degraded twice", and do not stop an incident from resolving.
 */
class TargetEvidenceRulesTest {
    static final String AVAIL = "monitor/checkout-api";
    static final String NO_DATA = "monitor/checkout-api/no-data";
    final MonitorRules rules = new MonitorRules(LINKS);

    /** A verdict made by the verdict rule from the regions that reported ("ok"/"fail"); the others are missing. */
    static MonitorStatus window(long w, Map<String, String> reported, Map<String, SkipReason> skipped) {
        Map<String, RegionResult> results = new LinkedHashMap<>();
        reported.forEach((region, what) -> results.put(region, what.equals("ok") ? ok() : fail()));
        return VerdictRule.verdict("checkout-api", w, DEF.regions(), results, skipped, w + 20_000);
    }

    final class Pipeline {
        final AlertStateMachine machine = new AlertStateMachine();
        MonitorRuleState state = MonitorRuleState.INITIAL;
        final Map<String, AlertStateRecord> alerts = new HashMap<>();
        final List<AlertEvent> events = new ArrayList<>();
        long w = T0;

        Pipeline window(Map<String, String> reported) {
            return window(reported, Map.of(), false);
        }

        Pipeline window(Map<String, String> reported, Map<String, SkipReason> skipped, boolean vigilGap) {
            MonitorStatus v = TargetEvidenceRulesTest.window(w, reported, skipped);
            var facts = new MonitorRules.Facts(open(AVAIL), open(NO_DATA), vigilGap);
            var r = rules.onVerdict(state, DEF, v, facts);
            state = r.state();
            for (Evaluation ev : r.evaluations()) {
                var t = machine.apply(alerts.get(ev.fingerprint()), ev, false);
                if (t.state() != null) {
                    alerts.put(ev.fingerprint(), t.state());
                }
                t.event().ifPresent(events::add);
            }
            w += MIN;
            return this;
        }

        boolean open(String fp) {
            AlertStateRecord r = alerts.get(fp);
            return r != null && r.isOpen();
        }

        List<String> log(String fp) {
            return events.stream()
                    .filter(e -> e.fingerprint().equals(fp))
                    .map(e -> e.state().wire() + ":" + e.severity().wire())
                    .toList();
        }
    }

    static final Map<String, String> TWO_OK = Map.of("eu-west", "ok", "us-east", "ok");

    @Test
    void aWindowMadeOnlyOfMissingRegionsNeverBreaches() {
        var p = new Pipeline();
        for (int i = 0; i < 6; i++) {
            p.window(TWO_OK); // asia-east missing: degraded, incomplete
        }
        p.window(Map.of("eu-west", "ok"), Map.of("us-east", SkipReason.OVERLOADED), false);
        assertThat(TargetEvidenceRulesTest.window(T0, TWO_OK, Map.of()).status())
                .isEqualTo(Status.DEGRADED);
        assertThat(p.events).isEmpty();
        assertThat(p.state.consecutiveDegraded())
                .as("never a step of the degraded-in-a-row rule")
                .isZero();
    }

    @Test
    void anOpenIncidentResolvesOnTheRegionsThatReportWhileAnotherIsBlind() {
        var p = new Pipeline();
        p.window(Map.of("eu-west", "fail", "us-east", "fail", "asia-east", "fail"));
        assertThat(p.log(AVAIL)).containsExactly("opened:critical");
        p.window(TWO_OK);
        assertThat(p.open(AVAIL)).as("one healthy window: resolving").isTrue();
        p.window(TWO_OK);
        assertThat(p.log(AVAIL)).containsExactly("opened:critical", "resolved:critical");
        assertThat(p.events.get(1).summary())
                .isEqualTo("Checkout API is up in eu-west, us-east (no result from asia-east)");
    }

    @Test
    void missingRegionsDoNotKeepAnIncidentOpenNorEscalateIt() {
        var p = new Pipeline();
        p.window(Map.of("eu-west", "fail", "us-east", "ok"));
        p.window(Map.of("eu-west", "fail", "us-east", "ok"));
        assertThat(p.log(AVAIL)).containsExactly("opened:warning");
        for (int i = 0; i < 4; i++) {
            p.window(Map.of("eu-west", "ok"), Map.of("us-east", SkipReason.OVERLOADED), false);
        }
        assertThat(p.log(AVAIL)).containsExactly("opened:warning", "resolved:warning");
    }

    @Test
    void aRealFailurePlusAMissingRegionFollowsTheDegradedAndDownRules() {
        var p = new Pipeline();
        p.window(Map.of("eu-west", "fail", "us-east", "ok")); // asia-east missing
        assertThat(p.events)
                .as("one degraded window with a failure is not yet a breach")
                .isEmpty();
        p.window(Map.of("eu-west", "fail", "us-east", "ok"));
        assertThat(p.log(AVAIL)).containsExactly("opened:warning");
        assertThat(p.events.get(0).summary())
                .isEqualTo("Checkout API is degraded: failing in eu-west; no result from asia-east");
        // two of three expected regions fail: down (a strict majority of the expected regions), whatever is missing
        p.window(Map.of("eu-west", "fail", "us-east", "fail"));
        assertThat(p.log(AVAIL)).containsExactly("opened:warning", "escalated:critical");

        var q = new Pipeline();
        q.window(Map.of("eu-west", "fail"), Map.of("us-east", SkipReason.LATE), false);
        assertThat(TargetEvidenceRulesTest.window(T0, Map.of("eu-west", "fail"), Map.of())
                        .status())
                .as("one failure of three expected is not a majority")
                .isEqualTo(Status.DEGRADED);
        q.window(Map.of("eu-west", "fail"), Map.of("us-east", SkipReason.LATE), false);
        assertThat(q.log(AVAIL)).containsExactly("opened:warning");
        assertThat(q.events.get(0).summary())
                .isEqualTo(
                        "Checkout API is degraded: failing in eu-west; no result from asia-east, us-east (skipped: late)");
    }

    @Test
    void unknownWindowsThatAreVigilsGapDoNotCountTowardsNoData() {
        var p = new Pipeline();
        for (int i = 0; i < 5; i++) {
            p.window(Map.of(), Map.of(), true);
        }
        assertThat(p.events).isEmpty();
        // the gap closes but results still do not come: a per-monitor fault pages after three windows of its own
        p.window(Map.of(), Map.of(), false).window(Map.of(), Map.of(), false);
        assertThat(p.events).isEmpty();
        p.window(Map.of(), Map.of(), false);
        assertThat(p.log(NO_DATA)).containsExactly("opened:warning");
    }

    @Test
    void vigilsGapIsSkippedBlindUnservedOrSilentRegionsOnly() {
        long now = T0 + 100_000;
        var unknown = window(T0, Map.of(), Map.of("asia-east", SkipReason.OVERLOADED));
        Map<String, RegionStatus> pictures = new HashMap<>();
        pictures.put("eu-west", new RegionStatus(1, "eu-west", 0, 1, 10, now - 60_000, now - 30_000, now));
        pictures.put("us-east", new RegionStatus(1, "us-east", 0, 0, 10, null, null, now)); // unserved, not yet blind
        assertThat(VigilGaps.allMissingAreVigilsGap(unknown, pictures::get, now, 20_000))
                .isTrue();

        // us-east served, its worker silent for 25 s: not yet blind, already Vigil's gap
        pictures.put("us-east", new RegionStatus(1, "us-east", 1, 1, 10, now - 25_000, null, now));
        assertThat(VigilGaps.allMissingAreVigilsGap(unknown, pictures::get, now, 20_000))
                .isTrue();

        // us-east served and healthy, yet no result: the monitor's own fault
        pictures.put("us-east", new RegionStatus(1, "us-east", 1, 1, 10, now - 5_000, null, now));
        assertThat(VigilGaps.allMissingAreVigilsGap(unknown, pictures::get, now, 20_000))
                .isFalse();

        // a region no heartbeat ever mentioned: Vigil cannot tell, the monitor keeps paging
        pictures.remove("us-east");
        assertThat(VigilGaps.allMissingAreVigilsGap(unknown, pictures::get, now, 20_000))
                .isFalse();
    }
}

package dev.vigil.standalone.cli;

import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.topic.Topics;
import dev.vigil.standalone.demo.DemoScenario;
import dev.vigil.standalone.demo.DemoTargets;
import dev.vigil.standalone.launch.StandaloneLauncher;
import dev.vigil.standalone.launch.StandaloneOptions;
import dev.vigil.standalone.monitors.MonitorCatalog;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code vigil demo}: the standalone stack plus local targets that fail and recover on a script. */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Run Vigil in one JVM with local demo targets monitored every 10 s from three regions:",
                "within a few minutes you see pages opened, a reminder, an escalation and resolutions on this",
                "console, with no account anywhere. Query http://127.0.0.1:8081/v1/status while it runs."})
public final class DemoCommand extends StandaloneCommand {
    /** The SPEC's 15 minutes would outlast the demo: reminders come every minute here (and the demo says so). */
    public static final Duration DEMO_REMINDER_INTERVAL = Duration.ofMinutes(1);

    @Option(names = "--targets-port", defaultValue = "8090",
            description = "Port of the local demo targets (default: ${DEFAULT-VALUE}).")
    int targetsPort;

    @Override
    StandaloneOptions adjust(StandaloneOptions options) {
        List<String> allow = new ArrayList<>(options.allowList());
        allow.add(options.host() + "/32");
        return options.withAllowList(allow).withReminderInterval(DEMO_REMINDER_INTERVAL);
    }

    @Override
    AutoCloseable afterStart(StandaloneLauncher launcher, PrintWriter out) {
        DemoTargets targets = DemoTargets.start(launcher.options().host(), targetsPort, Clock.systemUTC());
        List<MonitorDefinition> monitors = targets.monitors(launcher.options().regions());
        new MonitorCatalog(launcher.bootstrapServers(), Topics.MONITORS, Duration.ofSeconds(30)).publish(monitors, List.of());
        out.printf("%ndemo targets on http://%s:%d, %d monitors published (every 10 s from %s)%n",
                launcher.options().host(), targets.port(), monitors.size(), launcher.options().regions());
        out.printf("what happens (times from now):%n"
                        + "  demo-healthy      stays up%n"
                        + "  demo-status-down  answers {\"status\":\"down\"}: paged within ~30 s%n"
                        + "  demo-slow         answers after %d ms, over its 1000 ms limit: paged%n"
                        + "  demo-outage       down at %ds, page opened; reminders every %d min (shortened from 15 for the demo);"
                        + " recovers at %ds, resolved after 2 healthy windows%n"
                        + "  demo-escalating   fails in %s only at %ds (degraded: warning after 2 windows), everywhere at %ds"
                        + " (escalated to critical), recovers at %ds%n"
                        + "  demo-flapping     fails every other window until %ds: one page at most, no storm%n",
                DemoScenario.SLOW_DELAY.toMillis(), DemoScenario.OUTAGE_START.toSeconds(),
                DEMO_REMINDER_INTERVAL.toMinutes(), DemoScenario.OUTAGE_END.toSeconds(),
                DemoScenario.FIRST_FAILING_REGION, DemoScenario.DEGRADE_START.toSeconds(),
                DemoScenario.ESCALATE_START.toSeconds(), DemoScenario.ESCALATE_END.toSeconds(),
                DemoScenario.FLAP_END.toSeconds());
        return targets;
    }
}

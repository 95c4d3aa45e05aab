package dev.vigil.standalone.cli;

import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.topic.Topics;
import dev.vigil.standalone.demo.DemoHeartbeat;
import dev.vigil.standalone.demo.DemoScenario;
import dev.vigil.standalone.demo.DemoTargets;
import dev.vigil.standalone.launch.StandaloneLauncher;
import dev.vigil.standalone.launch.StandaloneOptions;
import dev.vigil.standalone.monitors.MonitorCatalog;
import dev.vigil.streams.config.StreamsServiceConfig.Group;
import dev.vigil.streams.config.StreamsServiceConfig.StatusPage;
import java.io.PrintWriter;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code vigil demo}: the standalone stack plus local targets that fail and recover on a script. */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = {
            "Run Vigil in one JVM with local demo targets monitored every 10 s from three regions:",
            "within a few minutes you see pages opened, a reminder, an escalation and resolutions on this",
            "console, with no account anywhere. Query http://127.0.0.1:8081/v1/status while it runs."
        })
public final class DemoCommand extends StandaloneCommand {
    /** The default 15-minute reminder would outlast the demo: reminders come every minute here (and the demo says so). */
    public static final Duration DEMO_REMINDER_INTERVAL = Duration.ofMinutes(1);

    @Option(
            names = "--targets-port",
            defaultValue = "8090",
            description = "Port of the local demo targets (default: ${DEFAULT-VALUE}).")
    int targetsPort;

    /** An IPv4 or IPv6 literal: only those are inspected, never resolved (a name could resolve anywhere). */
    /** The public status page the demo serves at /status/demo: what a customer of the demo's services would see. */
    static final StatusPage STATUS_PAGE = new StatusPage(
            "demo",
            "Demo Shop status",
            "The public face of the demo: the services a customer uses, without a URL or error detail.",
            List.of(
                    new Group("Storefront", List.of("demo-healthy", "demo-outage", "demo-slow")),
                    new Group("Backend", List.of("demo-escalating", "demo-tcp", "demo-heartbeat"))));

    private static final Pattern IP_LITERAL = Pattern.compile("[0-9.]+|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

    @Override
    StandaloneOptions adjust(StandaloneOptions options) {
        List<String> allow;
        try {
            allow = allowList(options.allowList(), options.host());
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        List<StatusPage> pages = new ArrayList<>(options.statusPages());
        if (pages.stream().noneMatch(p -> p.id().equals(STATUS_PAGE.id()))) {
            pages.add(STATUS_PAGE);
        }
        return options.withAllowList(allow)
                .withReminderInterval(DEMO_REMINDER_INTERVAL)
                .withStatusPages(pages);
    }

    /**
     * The probes' SSRF allow-list for the demo: the operator's {@code --allow} entries plus the one loopback address
     * the demo targets listen on, never a wildcard. Binding the stack to {@code 0.0.0.0} must not turn into
     * "probes may reach 0.0.0.0" (which connects to this machine) or into allowing everything.
     *
     * @throws IllegalArgumentException for an {@code --allow} entry that would open every address
     */
    static List<String> allowList(List<String> operatorAllow, String host) {
        List<String> allow = new ArrayList<>();
        for (String cidr : operatorAllow) {
            if (opensEverything(cidr)) {
                throw new IllegalArgumentException("--allow " + cidr + " would let probes reach every address;"
                        + " the demo allows its own targets already, name only the internal ranges you need");
            }
            allow.add(cidr);
        }
        allow.add(targetsHost(host) + "/32");
        return List.copyOf(allow);
    }

    /**
     * Where the demo targets listen: {@code --host} if it is an IPv4 loopback address, else 127.0.0.1. Only this
     * JVM's probes call them, so they never need another interface, whatever the services are bound to.
     */
    static String targetsHost(String host) {
        InetAddress address = literal(host);
        return address instanceof Inet4Address && address.isLoopbackAddress() ? address.getHostAddress() : "127.0.0.1";
    }

    /** Where this JVM reaches ingest: its bind address, or loopback when it is bound to every interface. */
    static String ingestHost(String host) {
        InetAddress address = literal(host);
        if (address != null && address.isAnyLocalAddress()) {
            return "127.0.0.1";
        }
        return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    }

    /** 0.0.0.0, ::, any /0, or an entry whose address is the unspecified one (0.0.0.0/8, ::/16 ...). */
    private static boolean opensEverything(String cidr) {
        String entry = cidr.strip();
        int slash = entry.indexOf('/');
        String address = slash < 0 ? entry : entry.substring(0, slash);
        if (slash >= 0 && entry.substring(slash + 1).strip().equals("0")) {
            return true;
        }
        InetAddress parsed = literal(address);
        return parsed != null && parsed.isAnyLocalAddress();
    }

    private static InetAddress literal(String host) {
        String h = host.strip();
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        if (!IP_LITERAL.matcher(h).matches()) {
            return null;
        }
        try {
            return InetAddress.getByName(h); // a literal: parsed, not looked up
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** Started before the stack, so that after a restart the probes of the demo's monitors never find them down. */
    private DemoTargets targets;

    @Override
    AutoCloseable beforeStart(StandaloneOptions options) {
        targets = DemoTargets.start(targetsHost(options.host()), targetsPort, Clock.systemUTC());
        return targets;
    }

    @Override
    AutoCloseable afterStart(StandaloneLauncher launcher, PrintWriter out) {
        DemoTargets targets = this.targets;
        DemoHeartbeat heartbeat = new DemoHeartbeat();
        List<MonitorDefinition> monitors =
                new ArrayList<>(targets.monitors(launcher.options().regions()));
        monitors.add(targets.tcpMonitor(launcher.options().regions()));
        monitors.add(heartbeat.monitor());
        new MonitorCatalog(launcher.bootstrapServers(), Topics.MONITORS, Duration.ofSeconds(30))
                .publish(monitors, List.of());
        heartbeat.start("http://" + ingestHost(launcher.options().host()) + ":" + launcher.ingestPort());
        out.printf(
                "%ndemo targets on http://%s:%d, %d monitors published (every 10 s from %s)%n",
                targetsHost(launcher.options().host()),
                targets.port(),
                monitors.size(),
                launcher.options().regions());
        out.printf(
                "what happens (times from now):%n"
                        + "  demo-healthy      stays up%n"
                        + "  demo-status-down  answers {\"status\":\"down\"}: paged within ~30 s%n"
                        + "  demo-slow         answers after %d ms, over its 1000 ms limit: paged%n"
                        + "  demo-outage       down at %ds, page opened; reminders every %d min (shortened from 15 for the demo);"
                        + " recovers at %ds, resolved after 2 healthy windows%n"
                        + "  demo-escalating   fails in %s only at %ds (degraded: warning after 2 windows), everywhere at %ds"
                        + " (escalated to critical), recovers at %ds%n"
                        + "  demo-flapping     fails every other window until %ds: one page at most, no storm%n"
                        + "  demo-tcp          a TCP check: connects to a local service and expects its banner; stays up%n"
                        + "  demo-heartbeat    a cron job pings ingest every %ds until %ds, then goes silent:"
                        + " the missed heartbeat (a %ds window plus %ds grace) pages%n"
                        + "once demo-outage has paged, take it on (its reminders stop; the resolution still comes):%n"
                        + "  ./vigil ack monitor/demo-outage --comment 'on it'%n",
                DemoScenario.SLOW_DELAY.toMillis(),
                DemoScenario.OUTAGE_START.toSeconds(),
                DEMO_REMINDER_INTERVAL.toMinutes(),
                DemoScenario.OUTAGE_END.toSeconds(),
                DemoScenario.FIRST_FAILING_REGION,
                DemoScenario.DEGRADE_START.toSeconds(),
                DemoScenario.ESCALATE_START.toSeconds(),
                DemoScenario.ESCALATE_END.toSeconds(),
                DemoScenario.FLAP_END.toSeconds(),
                DemoHeartbeat.PING_EVERY.toSeconds(),
                DemoHeartbeat.STOPS_AT.toSeconds(),
                DemoHeartbeat.INTERVAL.toSeconds(),
                DemoHeartbeat.GRACE.toSeconds());
        // the targets close after the stack (they are beforeStart's): probes still running at the stop must find them
        return () -> {
            heartbeat.close();
        };
    }
}

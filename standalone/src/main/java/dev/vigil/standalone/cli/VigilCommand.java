package dev.vigil.standalone.cli;

import dev.vigil.kit.main.ExitCode;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code vigil} command line. */
@Command(
        name = "vigil",
        mixinStandardHelpOptions = true,
        versionProvider = VigilCommand.Version.class,
        description = "Vigil: uptime monitoring and alerting on Kafka.",
        subcommands = {
            StandaloneCommand.class,
            DemoCommand.class,
            MonitorsCommand.class,
            RulesCommand.class,
            StatusCommand.class,
            AlertsCommand.class,
            AckCommand.Ack.class,
            AckCommand.Unack.class,
            SilenceCommand.class,
            DrillCommand.class,
            DigestCommand.class,
            dev.vigil.standalone.cluster.ClusterCommand.class,
            CheckDashboardCommand.class,
            ServiceCommands.Ingest.class,
            ServiceCommands.Streams.class,
            ServiceCommands.Notifier.class,
            ServiceCommands.Probe.class,
            CommandLine.HelpCommand.class
        })
public final class VigilCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The configured command line, for tests and for {@link #main}. */
    public static CommandLine commandLine() {
        return new CommandLine(new VigilCommand()).setExecutionExceptionHandler((ex, cmd, parsed) -> {
            cmd.getErr().println(cmd.getColorScheme().errorText("error: " + ex.getMessage()));
            return ExitCode.ERROR.code();
        });
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = VigilCommand.class.getPackage().getImplementationVersion();
            return new String[] {"vigil " + (v == null ? "development build" : v)};
        }
    }
}

package dev.vigil.standalone.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** One in-process run of the {@code vigil} command line, with what it printed. */
public record CliRun(int exit, String out, String err) {
    public static CliRun vigil(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cli = VigilCommand.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return new CliRun(cli.execute(args), out.toString(), err.toString());
    }
}

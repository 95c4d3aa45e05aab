package dev.vigil.kit.main;

/**
 * The one table of process exit codes, for every Vigil service and the {@code vigil} command: a supervisor or an
 * operator can tell from the code alone whether restarting can help.
 */
public enum ExitCode {
    /** Stopped on request (SIGTERM, Ctrl-C), or the command did what it was asked. */
    OK(0),
    /**
     * The command or service failed while running: a server answered an error (its problem is printed), or something
     * unexpected happened (the log has the stack trace).
     */
    ERROR(1),
    /**
     * The configuration or the command line is invalid: every problem is printed with its key path. Restarting with
     * the same configuration cannot help (picocli's own code for a usage error is the same 2).
     */
    CONFIG(2),
    /**
     * The configuration is valid but the service could not start: a port taken, a broker, database or file it needs
     * out of reach in time. A restart may help once that is fixed.
     */
    STARTUP(3);

    private final int code;

    ExitCode(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }
}

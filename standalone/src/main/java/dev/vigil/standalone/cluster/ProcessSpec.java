package dev.vigil.standalone.cluster;

import java.util.List;
import java.util.Map;

/**
 * One OS process of the cluster: its name (also the name of its log and pid files), command line, the environment
 * it gets on top of the launcher's, and the signal that stops it cleanly (PostgreSQL's fast shutdown is SIGINT:
 * its SIGTERM waits for every client to leave).
 */
public record ProcessSpec(String name, List<String> command, Map<String, String> env, String stopSignal) {
    public ProcessSpec {
        if (!name.matches("[a-z0-9][a-z0-9-]{0,40}")) {
            throw new IllegalArgumentException("process name must be lower-case letters, digits and '-': " + name);
        }
        command = List.copyOf(command);
        env = Map.copyOf(env);
        if (!List.of("TERM", "INT").contains(stopSignal)) {
            throw new IllegalArgumentException("stop signal must be TERM or INT: " + stopSignal);
        }
    }

    public ProcessSpec(String name, List<String> command, Map<String, String> env) {
        this(name, command, env, "TERM");
    }
}

package dev.vigil.kit.config;

import java.util.List;
import java.util.stream.Collectors;

/**
 * What a configuration record's constructor throws: every problem it found, each with its key path relative to the
 * record. {@link ConfigLoader} roots the paths where the record sits in the file and reports them together with the
 * problems of every other section; a caller building a record by hand gets them in the message.
 */
public final class InvalidConfig extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final transient List<Problems.Problem> problems;

    public InvalidConfig(List<Problems.Problem> problems) {
        super(problems.stream().map(Problems.Problem::toString).collect(Collectors.joining("; ")));
        this.problems = List.copyOf(problems);
    }

    public List<Problems.Problem> problems() {
        return problems;
    }
}

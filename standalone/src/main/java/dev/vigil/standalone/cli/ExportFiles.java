package dev.vigil.standalone.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine;

/** What {@code vigil monitors export} and {@code vigil rules export} share: the YAML they write, and where. */
final class ExportFiles {
    private static final YAMLMapper YAML = new YAMLMapper(YAMLFactory.builder()
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            // a status code written "200" must read back as the string it is
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR)
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .build());

    private ExportFiles() {}

    static String yaml(JsonNode root) {
        try {
            return YAML.writeValueAsString(root);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write YAML: " + e.getMessage(), e);
        }
    }

    /**
     * A copy of a value the API answered without the members the answer adds ({@code shownOnly}, dotted paths such as
     * {@code heartbeat.hasToken}), so the file holds what apply takes.
     */
    static ObjectNode withoutShown(JsonNode answered, List<String> shownOnly) {
        ObjectNode copy = ((ObjectNode) answered).deepCopy();
        for (String path : shownOnly) {
            int dot = path.indexOf('.');
            if (dot < 0) {
                copy.remove(path);
            } else if (copy.get(path.substring(0, dot)) instanceof ObjectNode inner) {
                inner.remove(path.substring(dot + 1));
            }
        }
        return copy;
    }

    /** {@code text} to {@code output}, or to standard output when null; false (and the reason said) when it fails. */
    static boolean write(CommandLine.Model.CommandSpec spec, Path output, String text) {
        if (output == null) {
            spec.commandLine().getOut().print(text);
            spec.commandLine().getOut().flush();
            return true;
        }
        try {
            Files.writeString(output, text);
            return true;
        } catch (IOException e) {
            spec.commandLine().getErr().println("error: cannot write " + output + ": " + e.getMessage());
            return false;
        }
    }
}

package dev.vigil.docker;

import dev.vigil.docker.JavaText.Source;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code vigil} CLI as declared by picocli annotations in the standalone sources: command names and the
 * option names of each command class, so the commands compose runs can be checked against the jar's CLI.
 */
final class CliChecks {
    private static final Pattern COMMAND = Pattern.compile("@Command\\s*\\(");
    private static final Pattern NAME = Pattern.compile("\\bname\\s*=\\s*\"([^\"]+)\"");
    private static final Pattern CLASS = Pattern.compile("\\bclass\\s+(\\w+)[^{;]*\\{");
    private static final Pattern OPTION = Pattern.compile("@Option\\s*\\(");
    private static final Pattern EXTENDS = Pattern.compile("\\bextends\\s+([\\w.]+)");
    private static final Pattern NAMES = Pattern.compile("\\bnames\\s*=\\s*(\\{[^}]*}|\"[^\"]*\")");
    private static final Pattern MIXIN =
            Pattern.compile("@(?:CommandLine\\.)?Mixin\\b\\s*(?:\\([^)]*\\))?\\s+([\\w.]+)\\s+\\w+\\s*;");

    /** Command name → option names of the class(es) declaring it, inherited and mixed-in options included. */
    private final Map<String, Set<String>> commands = new LinkedHashMap<>();

    /** A class: the options declared in its body, the class it extends (or null) and its mixins' classes. */
    private record ClassInfo(Set<String> options, String superclass, List<String> mixins) {}

    CliChecks(List<Source> sources) {
        Map<String, ClassInfo> classes = new LinkedHashMap<>();
        for (Source s : sources) {
            String code = s.code();
            Matcher cls = CLASS.matcher(code);
            while (cls.find()) {
                int bodyOpen = cls.end() - 1;
                int bodyClose = JavaText.closing(code, bodyOpen);
                String body = code.substring(bodyOpen, bodyClose < 0 ? code.length() : bodyClose);
                Matcher ext = EXTENDS.matcher(cls.group());
                List<String> mixins = new ArrayList<>();
                Matcher mix = MIXIN.matcher(body);
                while (mix.find()) {
                    mixins.add(simpleName(mix.group(1)));
                }
                classes.put(
                        cls.group(1),
                        new ClassInfo(options(body), ext.find() ? simpleName(ext.group(1)) : null, mixins));
            }
        }
        for (Source s : sources) {
            String code = s.code();
            Matcher c = COMMAND.matcher(code);
            while (c.find()) {
                int close = JavaText.closing(code, c.end() - 1);
                Matcher n = NAME.matcher(code.substring(c.end(), close));
                Matcher cls = CLASS.matcher(code);
                if (!n.find() || !cls.find(close)) {
                    continue;
                }
                Set<String> options = commands.computeIfAbsent(
                        n.group(1), k -> new LinkedHashSet<>(List.of("--help", "-h", "--version", "-V")));
                addOptions(cls.group(1), classes, options, 0);
            }
        }
    }

    /** The options of {@code name}, of the classes it extends and of its mixins ({@code @Mixin} fields). */
    private static void addOptions(String name, Map<String, ClassInfo> classes, Set<String> options, int depth) {
        ClassInfo info = classes.get(name);
        if (info == null || depth > 10) {
            return;
        }
        options.addAll(info.options());
        for (String mixin : info.mixins()) {
            addOptions(mixin, classes, options, depth + 1);
        }
        if (info.superclass() != null) {
            addOptions(info.superclass(), classes, options, depth + 1);
        }
    }

    private static String simpleName(String type) {
        return type.substring(type.lastIndexOf('.') + 1);
    }

    /** Option names declared by {@code @Option(names = …)} in a class body (nested classes' included). */
    private static Set<String> options(String body) {
        Set<String> options = new LinkedHashSet<>();
        Matcher o = OPTION.matcher(body);
        while (o.find()) {
            int oc = JavaText.closing(body, o.end() - 1);
            Matcher names = NAMES.matcher(body.substring(o.end(), oc));
            if (names.find()) {
                Matcher lit = Pattern.compile("\"([^\"]+)\"").matcher(names.group(1));
                while (lit.find()) {
                    options.add(lit.group(1));
                }
            }
        }
        return options;
    }

    boolean has(String command) {
        return commands.containsKey(command);
    }

    /** Problems of one command line (the container's command, without the {@code java -jar vigil.jar}). */
    List<String> check(String where, List<String> args) {
        List<String> problems = new ArrayList<>();
        String leaf = null;
        int i = 0;
        for (; i < args.size() && !args.get(i).startsWith("-"); i++) {
            if (!commands.containsKey(args.get(i))) {
                problems.add(where + ": `" + String.join(" ", args.subList(0, i + 1)) + "`: no picocli command named '"
                        + args.get(i) + "' in the standalone sources (known: " + commands.keySet() + ")");
                return problems;
            }
            leaf = args.get(i);
        }
        if (leaf == null) {
            problems.add(where + ": no subcommand");
            return problems;
        }
        Set<String> options = commands.get(leaf);
        for (; i < args.size(); i++) {
            String a = args.get(i);
            if (a.startsWith("-")) {
                String opt = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
                if (!options.contains(opt)) {
                    problems.add(where + ": `" + leaf + "` has no option " + opt + " (has " + options + ")");
                }
            }
        }
        return problems;
    }
}

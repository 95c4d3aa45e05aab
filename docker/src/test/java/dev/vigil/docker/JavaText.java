package dev.vigil.docker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Just enough Java lexing to read declarations out of source text: comments blanked (strings kept, so
 * offsets stay valid), balanced-bracket scanning and top-level argument splitting that skip string and char
 * literals. Not a parser; it reads the project's own, compiling sources.
 */
final class JavaText {
    private JavaText() {}

    /** One source file: its path and its text with comments replaced by spaces. */
    record Source(Path path, String code) {
        String simpleName() {
            String f = path.getFileName().toString();
            return f.substring(0, f.length() - ".java".length());
        }
    }

    static List<Source> read(List<Path> roots) {
        List<Source> out = new ArrayList<>();
        for (Path root : roots) {
            if (!Files.isDirectory(root)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(root)) {
                for (Path p : files.filter(f -> f.toString().endsWith(".java"))
                        .sorted()
                        .toList()) {
                    out.add(new Source(p, stripComments(Files.readString(p))));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out;
    }

    /** Comments become spaces (newlines kept); string, text-block and char literals are left intact. */
    static String stripComments(String src) {
        StringBuilder sb = new StringBuilder(src.length());
        int i = 0;
        int n = src.length();
        while (i < n) {
            char c = src.charAt(i);
            if (c == '/' && i + 1 < n && src.charAt(i + 1) == '/') {
                while (i < n && src.charAt(i) != '\n') {
                    sb.append(' ');
                    i++;
                }
            } else if (c == '/' && i + 1 < n && src.charAt(i + 1) == '*') {
                int end = src.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
                for (; i < end; i++) {
                    sb.append(src.charAt(i) == '\n' ? '\n' : ' ');
                }
            } else if (c == '"' || c == '\'') {
                int end = literalEnd(src, i);
                sb.append(src, i, end);
                i = end;
            } else {
                sb.append(c);
                i++;
            }
        }
        return sb.toString();
    }

    /** Index just past the string/char/text-block literal starting at {@code start}. */
    static int literalEnd(String s, int start) {
        char q = s.charAt(start);
        if (q == '"' && s.startsWith("\"\"\"", start)) {
            int end = s.indexOf("\"\"\"", start + 3);
            return end < 0 ? s.length() : end + 3;
        }
        int i = start + 1;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '\\') {
                i += 2;
            } else if (c == q) {
                return i + 1;
            } else if (c == '\n') {
                return i;
            } else {
                i++;
            }
        }
        return s.length();
    }

    /** Index of the bracket closing the one at {@code open} ('(' '[' '{' or '<'), or -1. */
    static int closing(String s, int open) {
        char o = s.charAt(open);
        char c =
                switch (o) {
                    case '(' -> ')';
                    case '[' -> ']';
                    case '{' -> '}';
                    case '<' -> '>';
                    default -> throw new IllegalArgumentException("not a bracket: " + o);
                };
        int depth = 0;
        for (int i = open; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch == '"' || ch == '\'') {
                i = literalEnd(s, i) - 1;
            } else if (ch == o) {
                depth++;
            } else if (ch == c && --depth == 0) {
                return i;
            }
        }
        return -1;
    }

    /** Splits at commas outside brackets and literals; each part trimmed. Angle brackets count when {@code generics}. */
    static List<String> splitTopLevel(String s, boolean generics) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int from = 0;
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch == '"' || ch == '\'') {
                i = literalEnd(s, i) - 1;
            } else if (ch == '(' || ch == '[' || ch == '{' || (generics && ch == '<')) {
                depth++;
            } else if (ch == ')' || ch == ']' || ch == '}' || (generics && ch == '>')) {
                depth--;
            } else if (ch == ',' && depth == 0) {
                parts.add(s.substring(from, i).strip());
                from = i + 1;
            }
        }
        String last = s.substring(from).strip();
        if (!last.isEmpty() || !parts.isEmpty()) {
            parts.add(last);
        }
        return parts;
    }

    /** The value of a plain string literal expression ({@code "a.b"}), if that is what {@code expr} is. */
    static Optional<String> stringLiteral(String expr) {
        String e = expr.strip();
        if (e.length() >= 2 && e.charAt(0) == '"' && !e.startsWith("\"\"\"") && literalEnd(e, 0) == e.length()) {
            String body = e.substring(1, e.length() - 1);
            if (!body.contains("\\")) {
                return Optional.of(body);
            }
        }
        return Optional.empty();
    }
}

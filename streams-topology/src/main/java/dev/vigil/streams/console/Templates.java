package dev.vigil.streams.console;

import com.samskivert.mustache.Mustache;
import com.samskivert.mustache.Template;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The console's server-rendered pages (public status pages, badges) as Mustache templates under
 * {@code templates/}: every value is HTML-escaped unless a template says otherwise, so a monitor or page name can
 * never become markup; a field the view does not have is an error, not an empty string, so a renamed field cannot
 * vanish silently (a null value is shown as nothing).
 * Values are stripped of control characters first ({@link #text}): they have no business in a page or an SVG, and
 * some are not valid XML.
 */
final class Templates {
    private static final Mustache.Compiler COMPILER = Mustache.compiler().escapeHTML(true).strictSections(true)
            .nullValue("");

    private Templates() {
    }

    /** The template {@code templates/<name>} from the class path, compiled once by its caller. */
    static Template load(String name) {
        try (InputStream in = Templates.class.getClassLoader().getResourceAsStream("templates/" + name)) {
            if (in == null) {
                throw new IllegalStateException("template " + name + " is not on the class path");
            }
            return COMPILER.compile(new String(in.readAllBytes(), StandardCharsets.UTF_8).strip());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code s} with every control character but tab and line feed replaced by a space; null stays null. */
    static String text(String s) {
        if (s == null) {
            return null;
        }
        StringBuilder out = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 && c != '\n' && c != '\t') {
                if (out == null) {
                    out = new StringBuilder(s);
                }
                out.setCharAt(i, ' ');
            }
        }
        return out == null ? s : out.toString();
    }
}

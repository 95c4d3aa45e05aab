package dev.vigil.kit.template;

import com.samskivert.mustache.Escapers;
import com.samskivert.mustache.Mustache;
import com.samskivert.mustache.Template;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The one way a Vigil service renders text for people (e-mail bodies, public status pages, badges): Mustache templates
 * on the class path (JMustache). An HTML template escapes every value by default (no template uses triple braces), a
 * text template escapes nothing; a name the model does not have is an error, never an empty string, so a renamed field
 * cannot vanish silently.
 */
public final class Templates {
    /** The five characters that matter in element content and quoted attribute values; nothing else is touched. */
    public static final Mustache.Escaper HTML_ESCAPER = Escapers.simple(
            new String[][] {{"&", "&amp;"}, {"<", "&lt;"}, {">", "&gt;"}, {"\"", "&quot;"}, {"'", "&#39;"}});

    private Templates() {}

    /** An HTML (or SVG) template at {@code resource} (a class-path path), every value escaped. */
    public static Template html(String resource) {
        return compile(Mustache.compiler().withEscaper(HTML_ESCAPER), resource);
    }

    /** A plain-text template at {@code resource}: values as they are. */
    public static Template text(String resource) {
        return compile(Mustache.compiler().escapeHTML(false), resource);
    }

    /** {@code s} HTML-escaped as the templates escape it (for text a caller puts into a value of its own). */
    public static String escape(String s) {
        return s == null ? "" : HTML_ESCAPER.escape(s);
    }

    private static Template compile(Mustache.Compiler compiler, String resource) {
        String path = resource.startsWith("/") ? resource.substring(1) : resource;
        try (InputStream in = Templates.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("template missing from the class path: " + path);
            }
            return compiler.strictSections(true).compile(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

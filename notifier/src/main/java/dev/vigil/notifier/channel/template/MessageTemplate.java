package dev.vigil.notifier.channel.template;

import com.samskivert.mustache.Mustache;
import com.samskivert.mustache.MustacheException;
import com.samskivert.mustache.Template;
import dev.vigil.schemas.contract.AlertEvent;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A channel's message template (Mustache, JMustache) over a {@link MessageModel}, bound to its vendor's escaper.
 *
 * <p>Every value the template shows goes through the escaper, whatever braces it uses: the escaper is installed as
 * the compiler's formatter, which JMustache applies to {@code {{x}}}, {@code {{{x}}}} and {@code {{& x}}} alike, and
 * no further HTML escaping is done. So a template cannot opt out of escaping for event text; the template's own
 * text (the operator's) is written as it is. Partials ({@code {{> name}}}) load nothing. A name the model does not
 * have is an error, in a variable or a section, never an empty string; {@link #problem} finds such names before the
 * service starts by rendering against {@link MessageModel#samples()}.
 */
public final class MessageTemplate {
    private static final Logger LOG = LoggerFactory.getLogger(MessageTemplate.class);
    private final Template template;

    private MessageTemplate(Template template) {
        this.template = template;
    }

    /**
     * {@code source} compiled with {@code escaper} for every value; throws {@link IllegalArgumentException} with
     * {@link #problem}'s text when it is not a valid template over the model.
     */
    public static MessageTemplate compile(String source, UnaryOperator<String> escaper) {
        Optional<String> problem = problem(source);
        if (problem.isPresent()) {
            throw new IllegalArgumentException(problem.get());
        }
        return new MessageTemplate(compiler(escaper).compile(source));
    }

    /** {@code template} compiled with {@code escaper}, or empty when there is none. */
    public static Optional<MessageTemplate> of(String template, UnaryOperator<String> escaper) {
        return template == null ? Optional.empty() : Optional.of(compile(template, escaper));
    }

    /** The text for {@code model}, every value escaped. */
    public String render(MessageModel model) {
        return template.execute(model);
    }

    /**
     * The text of {@code template} for {@code event}, or null when there is no template or it renders nothing but
     * whitespace for this event (a template may say nothing about, say, acknowledgements): the caller then shows its
     * default text, so no vendor receives an empty message. Leading and trailing whitespace (a template file's last
     * line break, the line break of a section that rendered nothing) is not part of the text.
     */
    public static String renderOrNull(MessageTemplate template, AlertEvent event) {
        if (template == null) {
            return null;
        }
        String text;
        try {
            text = template.render(MessageModel.of(event));
        } catch (RuntimeException e) {
            // validated at start, so this is a bug, not a bad template: the page still goes out, with today's text
            LOG.warn(
                    "message template failed for event {} ({}); the default text is sent",
                    event.eventId(),
                    e.getClass().getSimpleName());
            return null;
        }
        return text.isBlank() ? null : text.strip();
    }

    /**
     * What is wrong with {@code source} as a template over the model, e.g. {@code line 2: unknown variable 'sumary'},
     * or empty when nothing is. Renders it against every sample model, so every section is entered once.
     */
    public static Optional<String> problem(String source) {
        if (source == null || source.isBlank()) {
            return Optional.of("is empty; leave it out to keep the default message");
        }
        Template t;
        try {
            t = compiler(UnaryOperator.identity()).compile(source);
        } catch (MustacheException e) {
            return Optional.of("not a valid template: " + e.getMessage());
        }
        List<MessageModel> samples = MessageModel.samples();
        for (MessageModel m : samples) {
            try {
                t.execute(m);
            } catch (MustacheException.Context e) {
                return Optional.of("line " + e.lineNo + ": unknown variable '" + e.key + "'");
            } catch (MustacheException e) {
                return Optional.of("not a valid template: " + e.getMessage());
            } catch (UnsupportedOperationException e) {
                return Optional.of("partials ({{> name}}) are not supported: write the text in the template");
            }
        }
        return Optional.empty();
    }

    private static Mustache.Compiler compiler(UnaryOperator<String> escaper) {
        return Mustache.compiler()
                .escapeHTML(false)
                .strictSections(true)
                .emptyStringIsFalse(true)
                .withFormatter(new Mustache.Formatter() {
                    @Override
                    public String format(Object value) {
                        return escaper.apply(String.valueOf(value));
                    }
                });
    }
}

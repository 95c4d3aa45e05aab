package dev.vigil.schemas.contract;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonNodePath;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import com.networknt.schema.regex.RegularExpression;
import com.networknt.schema.regex.RegularExpressionFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Validates documents against the published contract schemas (networknt json-schema-validator, draft 2020-12)
 * and names the offending fields the way {@link ContractViolation#field()} does: {@code expect.statusCodes[1]},
 * {@code regions.us-east.outcome}.
 *
 * <p>Patterns are evaluated with ECMA-262 semantics for {@code $}: in a JSON Schema pattern {@code $} matches only
 * at the end of the string, while in {@code java.util.regex} it also matches before a final line terminator, so
 * the validator's default (JDK) engine would accept {@code "api\n"} as a slug. {@link EcmaDollarRegexFactory}
 * rewrites {@code $} to {@code \z}; the schemas use only syntax on which the two engines otherwise agree (explicit
 * {@code \\uXXXX} classes instead of {@code \s}, no {@code .}).
 */
final class ContractSchemaValidator {
    private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
    private static final SchemaValidatorsConfig CONFIG = SchemaValidatorsConfig.builder()
            .regularExpressionFactory(new EcmaDollarRegexFactory())
            .build();
    private static final Map<Class<?>, JsonSchema> SCHEMAS = new ConcurrentHashMap<>();

    private ContractSchemaValidator() {}

    static JsonSchema schema(Class<?> type) {
        return SCHEMAS.computeIfAbsent(type, t -> load(ContractSchemas.of(t)));
    }

    static JsonSchema load(ContractSchemas.Contract contract) {
        try (InputStream in = contract.open()) {
            return FACTORY.getSchema(in, CONFIG);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Set<ValidationMessage> validate(Class<?> type, JsonNode document) {
        return schema(type).validate(document);
    }

    /** The distinct fields the messages name, in record notation. */
    static Set<String> fields(Set<ValidationMessage> messages) {
        return messages.stream().map(ContractSchemaValidator::field).collect(Collectors.toCollection(TreeSet::new));
    }

    /**
     * The field a message is about: its instance location, plus the missing property for {@code required}. A bad
     * key of a map ({@code propertyNames}) names the map, as the records do.
     */
    static String field(ValidationMessage m) {
        StringBuilder sb = new StringBuilder();
        JsonNodePath location = m.getInstanceLocation();
        for (int i = 0; i < location.getNameCount(); i++) {
            append(sb, location.getElement(i));
        }
        if ("required".equals(m.getType()) && m.getProperty() != null) {
            append(sb, m.getProperty());
        }
        return sb.length() == 0 ? "$" : sb.toString();
    }

    private static void append(StringBuilder sb, Object element) {
        if (element instanceof Integer index) {
            sb.append('[').append(index).append(']');
        } else {
            if (sb.length() > 0) {
                sb.append('.');
            }
            sb.append(element);
        }
    }

    static String describe(Set<ValidationMessage> messages) {
        List<String> lines = messages.stream()
                .map(m -> field(m) + " <- " + m.getType() + " " + m.getMessage())
                .sorted()
                .toList();
        return String.join("\n  ", lines);
    }

    /** {@code java.util.regex} with ECMA-262's end-of-input {@code $}; search semantics, as JSON Schema wants. */
    static final class EcmaDollarRegexFactory implements RegularExpressionFactory {
        @Override
        public RegularExpression getRegularExpression(String regex) {
            Pattern pattern = Pattern.compile(translate(regex));
            return value -> pattern.matcher(value).find();
        }

        static String translate(String regex) {
            StringBuilder out = new StringBuilder(regex.length() + 8);
            boolean inClass = false;
            for (int i = 0; i < regex.length(); i++) {
                char c = regex.charAt(i);
                if (c == '\\' && i + 1 < regex.length()) {
                    out.append(c).append(regex.charAt(++i));
                } else if (inClass) {
                    out.append(c);
                    if (c == ']') {
                        inClass = false;
                    }
                } else if (c == '[') {
                    inClass = true;
                    out.append(c);
                    if (i + 1 < regex.length() && regex.charAt(i + 1) == '^') {
                        out.append(regex.charAt(++i));
                    }
                } else if (c == '$') {
                    out.append("\\z");
                } else {
                    out.append(c);
                }
            }
            return out.toString();
        }
    }
}

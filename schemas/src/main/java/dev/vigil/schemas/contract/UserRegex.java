package dev.vigil.schemas.contract;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Regular expressions written by users (a monitor's {@code re:} header expectations), run with RE2/J: matching takes
 * time linear in the input whatever the pattern, because RE2 has no backtracking. A pattern such as
 * {@code .*a.*a.*a.*a.*a.*a.*a.*a.*a.*a.*b} against a long run of {@code a} is as cheap as any other, so one hostile
 * target cannot stall the event loop that runs every probe. The price is RE2's syntax: no backreferences
 * ({@code \1}), no lookahead or lookbehind, no possessive quantifiers or atomic groups; such patterns are refused when
 * the monitor is validated, never at probe time.
 *
 * <p>The input matched is bounded as well ({@value #MAX_INPUT_CHARS} characters): a longer value does not match.
 */
public final class UserRegex {
    /** Longer than any header value a well-behaved server sends; a longer one is a mismatch, not a slow match. */
    public static final int MAX_INPUT_CHARS = 8192;
    /** Compiled patterns by source; bounded because monitors come and go, and cleared rather than evicted one by one. */
    private static final int MAX_CACHED = 1024;

    private static final Map<String, Pattern> COMPILED = new ConcurrentHashMap<>();

    private UserRegex() {}

    /**
     * Checks that {@code regex} is a pattern RE2 runs.
     *
     * @throws ContractViolation naming {@code field}, with RE2's reason, when it is not
     */
    public static void validate(String field, String regex) {
        try {
            compile(regex);
        } catch (PatternSyntaxException e) {
            throw new ContractViolation(
                    field,
                    "is not a regular expression Vigil can run: " + e.getDescription()
                            + " (patterns use RE2 syntax, which has no backreferences or lookaround, so a match always takes "
                            + "linear time)");
        }
    }

    /**
     * True when all of {@code input} matches {@code regex}; false for a null input or one longer than
     * {@value #MAX_INPUT_CHARS} characters.
     *
     * @throws PatternSyntaxException when {@code regex} was never validated and RE2 cannot compile it
     */
    public static boolean matchesWhole(String regex, String input) {
        if (input == null || input.length() > MAX_INPUT_CHARS) {
            return false;
        }
        return compile(regex).matcher(input).matches();
    }

    private static Pattern compile(String regex) {
        Pattern p = COMPILED.get(regex);
        if (p == null) {
            p = Pattern.compile(regex);
            if (COMPILED.size() >= MAX_CACHED) {
                COMPILED.clear();
            }
            COMPILED.put(regex, p);
        }
        return p;
    }
}

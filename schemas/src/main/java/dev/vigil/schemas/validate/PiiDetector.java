package dev.vigil.schemas.validate;

import dev.vigil.schemas.validate.PrivacyViolation.Kind;
import java.util.Base64;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the first kind of forbidden data in one string value.
 *
 * <p>Runs on every ingested event, so a {@link ValueShape} first collects cheap facts (is there an {@code @},
 * a space, a {@code key=}, a {@code ?}; how long is the longest number-like run) and a detector's regex runs
 * only when those facts make a match possible. Ordinary values (status codes, slugs, paths, UUIDs, ISO
 * times) end after that pass without running any regex. Detectors are tried from the most specific kind to
 * the most general, so {@code ?token=eyJ...} reports a JWT rather than a query string.
 */
final class PiiDetector {
    // --- credentials -----------------------------------------------------------------------------------

    private static final Pattern BEARER =
            Pattern.compile("(?<![a-z0-9])bearer\\s+([a-z0-9._~+/-]+=*)", Pattern.CASE_INSENSITIVE);
    private static final Pattern BASIC =
            Pattern.compile("(?<![a-z0-9])basic\\s+([a-z0-9+/]{4,}={0,2})(?![a-z0-9+/=])", Pattern.CASE_INSENSITIVE);
    private static final Pattern JWT =
            Pattern.compile("(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{10,}\\.[A-Za-z0-9_-]{2,}\\.[A-Za-z0-9_-]*");
    /** Vendor tokens recognisable by their prefix alone. */
    private static final Pattern PREFIXED_API_KEY = Pattern.compile("(?<![A-Za-z0-9])(?:"
            + "(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}" // Stripe secret / restricted keys
            + "|whsec_[A-Za-z0-9+/=]{24,}" // Stripe webhook secrets
            + "|gh[pousr]_[A-Za-z0-9]{36,}" // GitHub tokens
            + "|github_pat_[A-Za-z0-9_]{40,}" // GitHub fine-grained tokens
            + "|xox[baprs]-[A-Za-z0-9-]{10,}" // Slack tokens
            + "|xapp-\\d-[A-Za-z0-9-]{10,}" // Slack app tokens
            + "|glpat-[A-Za-z0-9_-]{20,}" // GitLab personal access tokens
            + "|npm_[A-Za-z0-9]{36,}" // npm tokens
            + "|AIza[A-Za-z0-9_-]{35}" // Google API keys
            + "|(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])" // AWS access key ids
            + "|SG\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}" // SendGrid
            + ")");
    /** A literal every {@link #PREFIXED_API_KEY} match contains: most values skip that regex. */
    private static final String[] VENDOR_PREFIXES = {
        "sk_", "rk_", "whsec_", "gh", "github_pat_", "xox", "xapp-", "glpat-", "npm_", "AIza", "AKIA", "ASIA", "SG."
    };
    /** OpenAI/Anthropic style {@code sk-...}; only with mixed case and digits, so {@code sk-prod-gateway} is a name. */
    private static final Pattern SK_DASH_KEY = Pattern.compile("(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{20,}");

    private static final Pattern TOKEN_AFTER_KEY = Pattern.compile(
            "(?<![a-z0-9])(?:"
                    + "api[_-]?key|apikey|access[_-]?key|access[_-]?token|auth[_-]?token|id[_-]?token|refresh[_-]?token"
                    + "|bearer[_-]?token|client[_-]?secret|secret[_-]?key|private[_-]?key|session[_-]?(?:id|token|key)"
                    + "|sessionid|jsessionid|phpsessid|sid|token|signature|sig|authorization|credentials?"
                    + ")[\"']?\\s*[=:]\\s*[\"']?([^\\s\"'&,;<>]+)",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern PASSWORD_AFTER_KEY = Pattern.compile(
            "(?<![a-z0-9])(password|passwd|passphrase|pass|pwd|secret)[\"']?\\s*[=:]\\s*[\"']?([^\\s\"'&,;]*)",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern URL_CREDENTIALS =
            Pattern.compile("(?<![a-z0-9+.-])[a-z][a-z0-9+.-]*://[^\\s/?#@:]*:[^\\s/?#@]+@", Pattern.CASE_INSENSITIVE);
    /** Values after a password key that describe the password rather than being one. */
    private static final Set<String> NOT_A_SECRET = Set.of(
            "true",
            "false",
            "null",
            "nil",
            "none",
            "undefined",
            "empty",
            "blank",
            "missing",
            "required",
            "invalid",
            "incorrect",
            "wrong",
            "expired",
            "changed",
            "reset",
            "set",
            "unset",
            "ok",
            "yes",
            "no",
            "n/a",
            "redacted",
            "hidden",
            "masked",
            "omitted",
            "removed",
            "filtered");

    private static final int MIN_SECRET_LENGTH = 16;

    // --- personal data ---------------------------------------------------------------------------------

    private static final Pattern EMAIL = Pattern.compile("(?<![\\p{L}\\p{N}._%+-])[\\p{L}\\p{N}._%+-]{1,64}"
            + "@(?:[\\p{L}\\p{N}-]{1,63}\\.)+\\p{L}{2,24}(?![\\p{L}\\p{N}])");
    /** 13-19 digits, optionally grouped by single spaces or dashes, starting with an issuer digit 2-6. */
    private static final Pattern CARD =
            Pattern.compile("(?<![\\w.+-])(?<!\\d[ -])[2-6]\\d(?:[ -]?\\d){11,17}(?![A-Za-z0-9_])");

    private static final Pattern CARD_SEPARATOR = Pattern.compile("[ -]");
    /** {@code +CC ...}: a plus, then digits with optional separators and brackets. */
    private static final Pattern PHONE_INTERNATIONAL =
            Pattern.compile("(?<![\\w.+-])\\+[1-9][\\d ().-]{5,22}\\d(?!\\w)");
    /** North American {@code (415) 555-2671}, {@code 415-555-2671}, {@code 1 415 555 2671}. */
    private static final Pattern PHONE_NANP =
            Pattern.compile("(?<![\\w.+-])(?:1[ .-])?(?:\\([2-9]\\d{2}\\)[ .-]?|[2-9]\\d{2}[ .-])"
                    + "[2-9]\\d{2}[ .-]\\d{4}(?!\\w|[.-]\\d)");
    /** National numbers with a trunk 0: {@code 020 7946 0958}, {@code 07700 900123}, {@code 01 23 45 67 89}. */
    private static final Pattern PHONE_TRUNK = Pattern.compile(
            "(?<![\\w.+-])(?:\\(0\\d{1,4}\\)[ .-]?|0\\d{1,4}[ .-])\\d{2,8}(?:[ .-]\\d{2,8}){0,3}(?![\\w:]|[.-]\\d)");
    /** {@code 30.11.2026}, {@code 2026-11-30}: a date next to other numbers is not a phone number. */
    private static final Pattern DATE = Pattern.compile(
            "(?<!\\d)(?:\\d{1,2}[./-]\\d{1,2}[./-](?:19|20)\\d{2}|(?:19|20)\\d{2}[./-]\\d{1,2}[./-]\\d{1,2})(?!\\d)");

    private static final Pattern PHONE_AFTER_KEY = Pattern.compile(
            "(?<![a-z0-9])(?:phone|telephone|tel|mobile|cell|msisdn|fax|whatsapp)(?:[_-]?(?:number|num|no))?"
                    + "[\"']?\\s*[=:]\\s*[\"']?(\\+?[\\d(][\\d ().-]{4,}\\d)",
            Pattern.CASE_INSENSITIVE);

    // --- query strings ---------------------------------------------------------------------------------

    /** {@code ?key=} anywhere. */
    private static final Pattern QUERY_PARAMETER = Pattern.compile("[?][^\\s?#=&/]{1,128}=");
    /** {@code #key=} in a URL or path: fragment parameters carry OAuth implicit-flow tokens. */
    private static final Pattern FRAGMENT_PARAMETER = Pattern.compile("#[^\\s?#=&/]{1,128}=");
    /**
     * A form-encoded body or a query without its {@code ?} ({@code user=ann&ref=x}). Pairs whose values are all numbers
     * ({@code ratio=0.05&count=30}, a rule's description) carry no personal data and pass.
     */
    private static final Pattern FORM_PARAMETERS =
            Pattern.compile("[^\\s?#=&/]{1,128}=[^\\s&]{0,512}&[^\\s?#=&/]{1,128}=");

    private static final Pattern FORM_PAIR = Pattern.compile("[^\\s?#=&/]{1,128}=([^\\s&]{0,512})");
    private static final Pattern NUMBER = Pattern.compile("[+-]?\\d{1,18}(?:\\.\\d{1,18})?%?");

    private PiiDetector() {}

    /** The first kind of forbidden data in {@code value}, or null when it is clean. */
    static Kind detect(String value) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        Kind kind = detectLiteral(value);
        if (kind == null && value.indexOf('%') >= 0) {
            String decoded = PercentDecoding.decode(value);
            if (decoded == null) {
                return Kind.NESTED_ENCODING;
            }
            if (!decoded.equals(value)) {
                kind = detectLiteral(decoded);
            }
        }
        return kind;
    }

    private static Kind detectLiteral(String v) {
        ValueShape shape = ValueShape.of(v);
        if (shape.whitespace && shape.length >= 15 && ValueShape.containsWord(v, "bearer") && hasBearerToken(v)) {
            return Kind.BEARER_TOKEN;
        }
        if (shape.length >= 17 && v.contains("eyJ") && JWT.matcher(v).find()) {
            return Kind.JWT;
        }
        if (shape.length >= 15 && hasPrefixedApiKey(v)) {
            return Kind.API_KEY;
        }
        boolean keyed = shape.assignment && ValueShape.hasKnownKeyBeforeAssignment(v);
        if (keyed && hasSecretAfterKey(v)) {
            return Kind.API_KEY;
        }
        if (keyed && hasPasswordAfterKey(v)
                || shape.whitespace
                        && shape.length >= 10
                        && ValueShape.containsWord(v, "basic")
                        && hasBasicCredentials(v)
                || shape.at && v.contains("://") && URL_CREDENTIALS.matcher(v).find()) {
            return Kind.PASSWORD;
        }
        if (shape.at && v.indexOf('.', v.indexOf('@')) > 0 && EMAIL.matcher(v).find()) {
            return Kind.EMAIL;
        }
        if (shape.longestNumber >= 13 && hasCardNumber(v)) {
            return Kind.CARD_NUMBER;
        }
        if (shape.longestNumber >= 8 && v.indexOf('+') >= 0 && matchesPhone(PHONE_INTERNATIONAL, v, 8, 15, true)
                || shape.longestGroupedNumber >= 10 && matchesPhone(PHONE_NANP, v, 10, 11, false)
                || shape.longestGroupedNumber >= 9 && matchesPhone(PHONE_TRUNK, v, 9, 12, false)
                || keyed && shape.digits >= 7 && hasPhoneAfterKey(v)) {
            return Kind.PHONE_NUMBER;
        }
        if (shape.query && hasQueryString(v)) {
            return Kind.QUERY_STRING;
        }
        return null;
    }

    private static boolean hasBearerToken(String v) {
        Matcher m = BEARER.matcher(v);
        while (m.find()) {
            String token = m.group(1);
            // "Bearer authentication failed" is prose; a token has digits or is long.
            if (token.length() >= 8 && (countDigits(token) > 0 || token.length() >= 24)) {
                return true;
            }
        }
        return false;
    }

    /** {@code Basic <base64(user:password)>}: decoded, it must be printable and hold the colon. */
    private static boolean hasBasicCredentials(String v) {
        Matcher m = BASIC.matcher(v);
        while (m.find()) {
            byte[] decoded;
            try {
                decoded = Base64.getDecoder().decode(m.group(1));
            } catch (IllegalArgumentException notBase64) {
                continue;
            }
            int colon = -1;
            boolean printable = true;
            for (int i = 0; i < decoded.length && printable; i++) {
                printable = decoded[i] >= 0x20 && decoded[i] < 0x7f;
                if (decoded[i] == ':' && colon < 0) {
                    colon = i;
                }
            }
            if (printable && colon > 0) {
                return true;
            }
        }
        return false;
    }

    private static boolean hasPrefixedApiKey(String v) {
        if (containsAny(v, VENDOR_PREFIXES) && PREFIXED_API_KEY.matcher(v).find()) {
            return true;
        }
        if (v.contains("sk-")) {
            Matcher m = SK_DASH_KEY.matcher(v);
            while (m.find()) {
                if (characterClasses(m.group()) == 3) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean hasSecretAfterKey(String v) {
        Matcher m = TOKEN_AFTER_KEY.matcher(v);
        while (m.find()) {
            String value = m.group(1);
            if (value.length() >= MIN_SECRET_LENGTH && characterClasses(value) >= 2 && !isPlaceholder(value)) {
                return true;
            }
        }
        return false;
    }

    private static boolean hasPasswordAfterKey(String v) {
        Matcher m = PASSWORD_AFTER_KEY.matcher(v);
        while (m.find()) {
            String key = m.group(1);
            String value = m.group(2);
            if (value.isEmpty() || isPlaceholder(value) || value.charAt(0) == '/') {
                continue; // "/..." is a path (pwd=/srv/app), not a password
            }
            if (key.equalsIgnoreCase("pass") && countDigits(value) == value.length()) {
                continue; // "pass: 12" counts passed checks
            }
            return true;
        }
        return false;
    }

    /** Masks ({@code ***}), templates ({@code ${DB_PASSWORD}}, {@code <token>}) and status words. */
    private static boolean isPlaceholder(String value) {
        char first = value.charAt(0);
        char last = value.charAt(value.length() - 1);
        if (first == '<' && last == '>'
                || first == '[' && last == ']'
                || first == '{' && last == '}'
                || first == '$' && value.length() > 1 && value.charAt(1) == '{' && last == '}') {
            return true;
        }
        boolean masked = true;
        for (int i = 0; i < value.length() && masked; i++) {
            char c = value.charAt(i);
            masked = c == '*' || c == 'x' || c == 'X' || c == '\u2022' || c == '.' || c == '-' || c == '_' || c == '#';
        }
        return masked || NOT_A_SECRET.contains(value.toLowerCase(Locale.ROOT));
    }

    private static boolean hasCardNumber(String v) {
        Matcher m = CARD.matcher(v);
        while (m.find()) {
            String match = m.group();
            String digits = CARD_SEPARATOR.matcher(match).replaceAll("");
            if ((digits.length() == match.length() || isCardGrouping(match))
                    && !isCompactTimestamp(digits)
                    && CardNumbers.isPlausible(digits)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Cards are printed in groups of four (the last may be shorter) or 4-6-5 / 4-6-4 (Amex, Diners), so a
     * spaced list such as {@code 300 400 500 600 700} is not read as one.
     */
    private static boolean isCardGrouping(String match) {
        String[] groups = CARD_SEPARATOR.split(match);
        if (groups.length == 3
                && groups[0].length() == 4
                && groups[1].length() == 6
                && (groups[2].length() == 4 || groups[2].length() == 5)) {
            return true;
        }
        for (int i = 0; i < groups.length - 1; i++) {
            if (groups[i].length() != 4) {
                return false;
            }
        }
        return groups.length > 1 && groups[groups.length - 1].length() <= 4;
    }

    /** {@code yyyyMMddHHmmss} and {@code yyyyMMddHHmmssSSS}: build stamps, not cards. */
    private static boolean isCompactTimestamp(String digits) {
        if (digits.length() != 14 && digits.length() != 17) {
            return false;
        }
        return inRange(digits, 0, 4, 1970, 2099)
                && inRange(digits, 4, 6, 1, 12)
                && inRange(digits, 6, 8, 1, 31)
                && inRange(digits, 8, 10, 0, 23)
                && inRange(digits, 10, 12, 0, 59)
                && inRange(digits, 12, 14, 0, 59);
    }

    private static boolean inRange(String digits, int from, int to, int min, int max) {
        int n = Integer.parseInt(digits, from, to, 10);
        return n >= min && n <= max;
    }

    private static boolean hasPhoneAfterKey(String v) {
        Matcher m = PHONE_AFTER_KEY.matcher(v);
        while (m.find()) {
            int n = countDigits(m.group(1));
            if (n >= 7 && n <= 15) {
                return true;
            }
        }
        return false;
    }

    private static boolean matchesPhone(
            Pattern pattern, String v, int minDigits, int maxDigits, boolean international) {
        Matcher m = pattern.matcher(v);
        while (m.find()) {
            String match = m.group();
            int n = countDigits(match);
            // A bare "+12345678" is more likely a signed count than a number; bare E.164 has 10+ digits.
            int min = international && n == match.length() - 1 ? Math.max(minDigits, 10) : minDigits;
            if (n >= min && n <= maxDigits && !DATE.matcher(match).find()) {
                return true;
            }
        }
        return false;
    }

    private static boolean hasQueryString(String v) {
        int question = v.indexOf('?');
        if (question >= 0
                && question + 1 < v.length()
                && !Character.isWhitespace(v.charAt(question + 1))
                && (v.charAt(0) == '/' || v.contains("://"))) {
            return true; // a path or URL with anything after its '?'
        }
        if (QUERY_PARAMETER.matcher(v).find()) {
            return true;
        }
        if ((v.charAt(0) == '/' || v.contains("://"))
                && FRAGMENT_PARAMETER.matcher(v).find()) {
            return true;
        }
        return v.indexOf('&') >= 0 && FORM_PARAMETERS.matcher(v).find() && !allNumericPairs(v);
    }

    private static boolean allNumericPairs(String v) {
        Matcher m = FORM_PAIR.matcher(v);
        while (m.find()) {
            if (!NUMBER.matcher(m.group(1)).matches()) {
                return false;
            }
        }
        return true;
    }

    private static boolean containsAny(String v, String[] literals) {
        for (String literal : literals) {
            if (v.contains(literal)) {
                return true;
            }
        }
        return false;
    }

    private static int countDigits(String s) {
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= '0' && c <= '9') {
                n++;
            }
        }
        return n;
    }

    /** How many of lower case, upper case and digits occur: random secrets mix them, words do not. */
    private static int characterClasses(String s) {
        boolean lower = false;
        boolean upper = false;
        boolean digit = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            lower |= c >= 'a' && c <= 'z';
            upper |= c >= 'A' && c <= 'Z';
            digit |= c >= '0' && c <= '9';
        }
        return (lower ? 1 : 0) + (upper ? 1 : 0) + (digit ? 1 : 0);
    }
}

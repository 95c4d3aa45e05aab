package dev.vigil.schemas.validate;

/**
 * Cheap facts about one value, gathered in a single pass, that tell {@link PiiDetector} which detectors can
 * possibly match. Each fact is conservative: when it says a detector cannot match, its regex would not have
 * matched either, so skipping it changes only the cost.
 */
final class ValueShape {
    /** Last words of every key the key=value detectors know (api_key, id_token, session_id, phone_no, ...). */
    private static final String[] KEY_ENDINGS = {
        "key",
        "token",
        "secret",
        "id",
        "sig",
        "signature",
        "authorization",
        "credential",
        "credentials",
        "password",
        "passwd",
        "passphrase",
        "pass",
        "pwd",
        "phone",
        "tel",
        "mobile",
        "cell",
        "msisdn",
        "fax",
        "whatsapp",
        "number",
        "num",
        "no"
    };

    final int length;
    final int digits;
    final boolean at;
    final boolean whitespace;
    final boolean assignment;
    final boolean query;
    /** Digits in the longest run of digits and {@code ( ) + - .} or spaces that starts at a word boundary. */
    final int longestNumber;
    /** The same for runs that contain a separator ({@code 415-555-2671} but not {@code 4155552671}). */
    final int longestGroupedNumber;

    private ValueShape(String v) {
        length = v.length();
        int digitCount = 0;
        boolean hasAt = false;
        boolean hasWhitespace = false;
        boolean hasAssignment = false;
        boolean hasQuery = false;
        for (int i = 0; i < length; i++) {
            char c = v.charAt(i);
            if (c >= '0' && c <= '9') {
                digitCount++;
            } else if (c == '@') {
                hasAt = true;
            } else if (c == ' ' || c == '\t') {
                hasWhitespace = true;
            } else if (c == '=' || c == ':') {
                hasAssignment = true;
            } else if (c == '?' || c == '#' || c == '&') {
                hasQuery = true;
            }
        }
        digits = digitCount;
        at = hasAt;
        whitespace = hasWhitespace;
        assignment = hasAssignment;
        query = hasQuery;

        int longest = 0;
        int longestGrouped = 0;
        if (digitCount >= 7) {
            int i = 0;
            while (i < length) {
                if (!isNumberChar(v.charAt(i))) {
                    i++;
                    continue;
                }
                int end = i;
                while (end < length && isNumberChar(v.charAt(end))) {
                    end++;
                }
                // Detectors only start a number where it is not glued to a word, a dot, a dash or a plus.
                int start = i;
                while (start < end && !startsNumber(v, start)) {
                    start++;
                }
                int runDigits = 0;
                boolean grouped = false;
                for (int k = start; k < end; k++) {
                    char c = v.charAt(k);
                    if (c >= '0' && c <= '9') {
                        runDigits++;
                    } else if (runDigits > 0) {
                        grouped = true;
                    }
                }
                longest = Math.max(longest, runDigits);
                if (grouped) {
                    longestGrouped = Math.max(longestGrouped, runDigits);
                }
                i = end;
            }
        }
        longestNumber = longest;
        longestGroupedNumber = longestGrouped;
    }

    static ValueShape of(String value) {
        return new ValueShape(value);
    }

    /** True when some {@code =} or {@code :} follows a word ending like a known key ({@code X-Api-Key:}). */
    static boolean hasKnownKeyBeforeAssignment(String v) {
        for (int i = 1; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c != '=' && c != ':') {
                continue;
            }
            int end = i;
            while (end > 0 && isSpaceOrQuote(v.charAt(end - 1))) {
                end--;
            }
            if (end == 0 || !Character.isLetter(v.charAt(end - 1))) {
                continue; // 19:35, 8080=..., every key ends in a letter
            }
            for (String ending : KEY_ENDINGS) {
                int from = end - ending.length();
                if (from >= 0 && v.regionMatches(true, from, ending, 0, ending.length())) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Case-insensitive {@code contains} for an ASCII lower-case word, without allocating. */
    static boolean containsWord(String v, String lowerCaseWord) {
        int last = v.length() - lowerCaseWord.length();
        char first = lowerCaseWord.charAt(0);
        for (int i = 0; i <= last; i++) {
            if ((v.charAt(i) | 0x20) == first && v.regionMatches(true, i, lowerCaseWord, 0, lowerCaseWord.length())) {
                return true;
            }
        }
        return false;
    }

    private static boolean isSpaceOrQuote(char c) {
        return Character.isWhitespace(c) || c == '"' || c == '\'';
    }

    private static boolean isNumberChar(char c) {
        return c >= '0' && c <= '9' || c == ' ' || c == '-' || c == '.' || c == '(' || c == ')' || c == '+';
    }

    private static boolean startsNumber(String v, int i) {
        char c = v.charAt(i);
        return (c >= '0' && c <= '9' || c == '+' || c == '(') && (i == 0 || !isGlue(v.charAt(i - 1)));
    }

    private static boolean isGlue(char c) {
        return c >= '0' && c <= '9'
                || c >= 'a' && c <= 'z'
                || c >= 'A' && c <= 'Z'
                || c == '_'
                || c == '.'
                || c == '-'
                || c == '+';
    }
}

package dev.vigil.schemas.validate;

/**
 * Whether a run of digits can be a payment card number: a length of 13-19, an issuer prefix and length that
 * a card scheme actually uses, and a valid Luhn check digit. Luhn alone passes one random id in ten; the
 * issuer check removes about two fifths of those. The ranges are the broad, long-standing ones.
 */
final class CardNumbers {
    private CardNumbers() {}

    /** {@code digits} holds ASCII digits only. */
    static boolean isPlausible(String digits) {
        int length = digits.length();
        return length >= 13 && length <= 19 && hasKnownIssuer(digits, length) && isLuhnValid(digits);
    }

    private static boolean hasKnownIssuer(String d, int length) {
        int two = Integer.parseInt(d, 0, 2, 10);
        int four = Integer.parseInt(d, 0, 4, 10);
        return switch (d.charAt(0)) {
            case '2' -> four >= 2221 && four <= 2720 && length == 16 // Mastercard 2-series
                    || four >= 2200 && four <= 2204 && length >= 16; // Mir
            case '3' -> (two == 34 || two == 37) && length == 15 // American Express
                    || (two == 36 || two == 38 || two == 39 || four >= 3000 && four <= 3059) && length >= 14 // Diners
                    || four >= 3528 && four <= 3589 && length >= 16; // JCB
            case '4' -> length == 13 || length == 16 || length == 19; // Visa
            case '5' -> two >= 51 && two <= 55 && length == 16 // Mastercard
                    || two == 50
                    || two >= 56; // Maestro
            case '6' -> true; // Discover, UnionPay, Maestro, RuPay
            default -> false;
        };
    }

    static boolean isLuhnValid(CharSequence digits) {
        int sum = 0;
        boolean doubled = false;
        for (int i = digits.length() - 1; i >= 0; i--) {
            int d = digits.charAt(i) - '0';
            if (doubled) {
                d *= 2;
                if (d > 9) {
                    d -= 9;
                }
            }
            sum += d;
            doubled = !doubled;
        }
        return sum % 10 == 0;
    }
}

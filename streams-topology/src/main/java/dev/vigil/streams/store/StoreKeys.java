package dev.vigil.streams.store;

/**
 * Keys of stores scanned by prefix and range: {@code <id>|<number zero-padded to a fixed width>}, so that one id's
 * entries are contiguous and sort by number. {@code |} sorts after every slug character.
 */
public final class StoreKeys {
    public static final char SEPARATOR = '|';

    private StoreKeys() {}

    /** The prefix every key of {@code id} starts with. */
    public static String prefix(String id) {
        return id + SEPARATOR;
    }

    /**
     * {@code id + "|" + String.format("%0<width>d", number)}, without the formatter: these keys are built for every
     * probe result and verdict, and {@code String.format} costs more than the rest of building them.
     */
    public static String of(String id, long number, int width) {
        if (number < 0) {
            return prefix(id) + String.format("%0" + width + "d", number);
        }
        String digits = Long.toString(number);
        StringBuilder sb = new StringBuilder(id.length() + 1 + Math.max(width, digits.length()))
                .append(id)
                .append(SEPARATOR);
        for (int i = digits.length(); i < width; i++) {
            sb.append('0');
        }
        return sb.append(digits).toString();
    }
}

package dev.vigil.streams.query;

import dev.vigil.schemas.contract.Require;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The {@code cursor} of a {@code GET /v1/status} page: the base64url (no padding) of the last monitor id the page
 * held. Clients treat it as opaque; it is only a position in the id order, so a forged one moves its caller around
 * the list that caller may read anyway, never into another store or another key space.
 *
 * <p>{@link #decode} accepts exactly what {@link #encode} gives out for a monitor id (a slug, the only keys the
 * status stores hold): anything else is an {@link IllegalArgumentException}, a 400. What goes on to the stores and
 * to the peers is the decoded id, re-encoded, never the client's text. A later format can be told apart by a first
 * character that base64url of a slug never starts with, so these cursors stay readable after a change.
 */
public final class StatusCursor {
    /** base64url of the longest slug (63 characters) without padding. */
    static final int MAX_LENGTH = 84;

    private StatusCursor() {}

    public static String encode(String monitorId) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(monitorId.getBytes(StandardCharsets.US_ASCII));
    }

    /** The monitor id a cursor continues after. */
    public static String decode(String cursor) {
        if (cursor == null || cursor.isEmpty() || cursor.length() > MAX_LENGTH) {
            throw invalid();
        }
        byte[] bytes;
        try {
            bytes = Base64.getUrlDecoder().decode(cursor);
        } catch (IllegalArgumentException e) {
            throw invalid();
        }
        // ISO-8859-1 maps every byte to one char, so a non-ASCII byte becomes a char no slug holds
        String id = new String(bytes, StandardCharsets.ISO_8859_1);
        // the canonical form only: padding, or non-zero bits after the last character, would give a second
        // spelling of the same position
        if (!Require.SLUG.matcher(id).matches() || !encode(id).equals(cursor)) {
            throw invalid();
        }
        return id;
    }

    private static IllegalArgumentException invalid() {
        return new IllegalArgumentException(
                "'cursor' is not a cursor this API gave out: pass the 'next' of the previous "
                        + "page as it is, or leave 'cursor' out for the first page");
    }
}

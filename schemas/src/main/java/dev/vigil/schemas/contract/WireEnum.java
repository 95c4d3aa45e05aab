package dev.vigil.schemas.contract;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Locale;

/** An enum whose wire form is its lower-case constant name ({@code HTTP_FAILURE} ↔ {@code http_failure}). */
public interface WireEnum {
    String name();

    @JsonValue
    default String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The constant whose wire form is {@code value}; the error lists the accepted values, never the value. */
    static <E extends Enum<E> & WireEnum> E parse(Class<E> type, String value) {
        for (E e : type.getEnumConstants()) {
            if (e.wire().equals(value)) {
                return e;
            }
        }
        throw new IllegalArgumentException("unknown value; expected one of "
                + Arrays.stream(type.getEnumConstants()).map(WireEnum::wire).toList());
    }
}

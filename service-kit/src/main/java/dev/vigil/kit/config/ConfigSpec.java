package dev.vigil.kit.config;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * What {@link ConfigLoader#load} needs to know about one service's configuration: the record the YAML binds to,
 * its built-in defaults (every key a {@code VIGIL_*} variable may override must be present in them), and the table
 * of keys the previous shape used.
 *
 * @param type       the configuration record; its constructor checks every setting through {@link Problems}
 * @param defaults   a valid instance with every default filled in
 * @param deprecated old key → new key, read for one release with a warning
 */
public record ConfigSpec<T>(Class<T> type, Supplier<T> defaults, List<DeprecatedKey> deprecated) {

    public ConfigSpec {
        deprecated = List.copyOf(deprecated);
        Set<String> old = new HashSet<>();
        for (DeprecatedKey d : deprecated) {
            if (!old.add(d.oldKey())) {
                throw new IllegalArgumentException(d.oldKey() + " is listed twice");
            }
        }
    }

    public static <T> ConfigSpec<T> of(Class<T> type, Supplier<T> defaults, DeprecatedKey... deprecated) {
        return new ConfigSpec<>(type, defaults, List.of(deprecated));
    }
}

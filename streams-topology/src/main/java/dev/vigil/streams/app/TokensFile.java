package dev.vigil.streams.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.kit.auth.TokenSpec;
import dev.vigil.kit.config.ConfigLoader;
import dev.vigil.schemas.json.Json;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The tokens file named by {@code auth.tokensFile}: YAML with a list under {@code tokens:}, each entry {@code name},
 * {@code sha256}, {@code scopes} — the same shape as {@code auth.tokens}. Every problem is reported at once with its
 * position in the file.
 */
public final class TokensFile {
    private TokensFile() {}

    public static List<TokenSpec> read(Path file) {
        JsonNode root = ConfigLoader.readYaml(file);
        JsonNode list = root == null ? null : root.get("tokens");
        List<String> problems = new ArrayList<>();
        List<TokenSpec> out = new ArrayList<>();
        if (list == null || !list.isArray()) {
            problems.add(file + ": tokens: must be a list of {name, sha256, scopes}");
        } else {
            for (int i = 0; i < list.size(); i++) {
                try {
                    TokenSpec t = Json.convert(list.get(i), TokenSpec.class);
                    List<String> p = t.problems(file + ": tokens[" + i + "]");
                    if (p.isEmpty()) {
                        out.add(t);
                    }
                    problems.addAll(p);
                } catch (RuntimeException e) {
                    problems.add(file + ": tokens[" + i + "]: must be an object with name, sha256 and scopes");
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new ConfigLoader.ConfigException(problems);
        }
        return out;
    }
}

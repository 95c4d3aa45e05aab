package dev.vigil.notifier.config;

import dev.vigil.kit.config.ConfigLoader;
import java.nio.file.Path;
import java.util.Map;

/**
 * Loads {@code vigil-notifier.yaml} (defaults → file → {@code VIGIL_*} environment) and its routing (inline, a
 * separate file, or the built-in standard), and validates both. Every start-up problem surfaces here as a
 * {@link ConfigLoader.ConfigException} listing each problem with its file and key path.
 */
public final class NotifierSettings {
    private NotifierSettings() {}

    /** A configuration ready to run: the service settings and the validated channels and routes. */
    public record Loaded(
            NotifierConfig config, RoutingValidator.Validated routing, java.util.Optional<java.net.URI> deadManUrl) {
        public Loaded(NotifierConfig config, RoutingValidator.Validated routing) {
            this(config, routing, java.util.Optional.empty());
        }
    }

    public static Loaded load(Path file, Map<String, String> env) {
        NotifierConfig config = NotifierConfig.load(file, env);
        return resolve(config, file == null ? null : file.toAbsolutePath().getParent(), env);
    }

    /**
     * Validates an already-built configuration (the programmatic API).
     *
     * @param baseDir where a relative {@code routingFile} is looked up (null = working directory)
     */
    public static Loaded resolve(NotifierConfig config, Path baseDir, Map<String, String> env) {
        RoutingSpec spec;
        String source;
        Path templatesDir = baseDir;
        if (config.routingFile() != null) {
            Path p = Path.of(config.routingFile());
            if (!p.isAbsolute() && baseDir != null) {
                p = baseDir.resolve(p);
            }
            source = p.toString();
            templatesDir = p.toAbsolutePath().getParent();
            spec = ConfigLoader.bind(ConfigLoader.readYaml(p), RoutingSpec.class, source);
        } else if (config.routing() != null) {
            spec = config.routing();
            source = "routing";
        } else {
            spec = RoutingSpec.standard();
            source = "built-in routing";
        }
        RoutingValidator.Validated routing = RoutingValidator.validate(spec, env, source, templatesDir);
        dev.vigil.kit.config.Problems p = new dev.vigil.kit.config.Problems();
        if (spec.digest() != null && spec.digest().enabled()) {
            // the routing file may carry the digest beside its channels (the standalone reads only that file)
            if (config.digest().enabled()) {
                p.add("digest", "the daily digest is configured both here and in " + source + "; keep one");
            } else {
                config = config.withDigest(spec.digest());
            }
        }
        java.util.Optional<java.net.URI> deadMan = config.deadMan().url(env, p);
        DigestSettings.check(config.digest(), routing.channels(), source, p);
        if (!p.isEmpty()) {
            throw new ConfigLoader.ConfigException(
                    p.list().stream().map(Object::toString).toList());
        }
        return new Loaded(config, routing, deadMan);
    }
}

package dev.vigil.streams.console;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The console's static files, read once from the classpath at start: every file of the flat {@code console/}
 * resource folder whose name is a plain {@code name.ext}, plus uPlot from its WebJar under {@code vendor/}. Nothing
 * is read from the classpath per request, so no request path can name a resource outside this set.
 *
 * <p>{@link #version()} is a hash of every byte served: {@code index.html} names each asset as
 * {@code /console/<name>?v={{v}}}, {@code {{v}}} is replaced by the version, and an asset requested with the
 * current version may be cached for good (a new release changes the version, hence every URL).
 */
public final class ConsoleAssets {
    static final String FOLDER = "console/";
    static final String INDEX = "index.html";
    static final String VERSION_PLACEHOLDER = "{{v}}";
    static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,63}\\.(html|js|css|svg)");
    private static final String UPLOT = "META-INF/resources/webjars/uplot/";
    private static final Map<String, String> VENDOR = Map.of(
            "uplot.js", "dist/uPlot.iife.min.js",
            "uplot.css", "dist/uPlot.min.css");

    /** One file: its bytes and content type. */
    public record Asset(String name, byte[] bytes, String contentType) {}

    private final Map<String, Asset> files;
    private final Map<String, Asset> vendor;
    private final String version;
    private final Asset index;

    private ConsoleAssets(Map<String, Asset> files, Map<String, Asset> vendor) {
        MessageDigest sha = sha256();
        files.values().forEach(a -> sha.update(a.bytes()));
        vendor.values().forEach(a -> sha.update(a.bytes()));
        this.version = HexFormat.of().formatHex(sha.digest()).substring(0, 16);
        Asset rawIndex = files.get(INDEX);
        if (rawIndex == null) {
            throw new IllegalStateException("the console's " + FOLDER + INDEX + " is missing from the classpath");
        }
        this.index = new Asset(
                INDEX,
                new String(rawIndex.bytes(), StandardCharsets.UTF_8)
                        .replace(VERSION_PLACEHOLDER, version)
                        .getBytes(StandardCharsets.UTF_8),
                rawIndex.contentType());
        this.files = Map.copyOf(files);
        this.vendor = Map.copyOf(vendor);
    }

    /** Loads the console from the classpath (a folder in development and tests, the service jar in production). */
    public static ConsoleAssets load() {
        ClassLoader loader = ConsoleAssets.class.getClassLoader();
        Map<String, Asset> files = new TreeMap<>();
        for (String name : listFolder(loader)) {
            if (NAME.matcher(name).matches()) {
                files.put(name, new Asset(name, read(loader, FOLDER + name), contentType(name)));
            }
        }
        Map<String, Asset> vendor = new TreeMap<>();
        String uplotVersion = webJarVersion(loader);
        VENDOR.forEach((name, path) ->
                vendor.put(name, new Asset(name, read(loader, UPLOT + uplotVersion + "/" + path), contentType(name))));
        return new ConsoleAssets(files, vendor);
    }

    public String version() {
        return version;
    }

    /** {@code index.html} with the version filled in. */
    public Asset index() {
        return index;
    }

    public Optional<Asset> file(String name) {
        return Optional.ofNullable(name == null ? null : files.get(name));
    }

    public Optional<Asset> vendor(String name) {
        return Optional.ofNullable(name == null ? null : vendor.get(name));
    }

    static String contentType(String name) {
        String ext = name.substring(name.lastIndexOf('.') + 1);
        return switch (ext) {
            case "html" -> "text/html; charset=utf-8";
            case "js" -> "text/javascript; charset=utf-8";
            case "css" -> "text/css; charset=utf-8";
            case "svg" -> "image/svg+xml";
            default -> "application/octet-stream";
        };
    }

    private static Iterable<String> listFolder(ClassLoader loader) {
        URL url = loader.getResource(FOLDER + INDEX);
        if (url == null) {
            throw new IllegalStateException("the console's " + FOLDER + INDEX + " is missing from the classpath");
        }
        try {
            if ("jar".equals(url.getProtocol())) {
                JarURLConnection connection = (JarURLConnection) url.openConnection();
                connection.setUseCaches(false);
                try (JarFile jar = connection.getJarFile()) {
                    return jar.stream()
                            .map(e -> e.getName())
                            .filter(n -> n.startsWith(FOLDER) && n.indexOf('/', FOLDER.length()) < 0)
                            .map(n -> n.substring(FOLDER.length()))
                            .filter(n -> !n.isEmpty())
                            .toList();
                }
            }
            Path dir = Path.of(url.toURI()).getParent();
            try (Stream<Path> list = Files.list(dir)) {
                return list.filter(Files::isRegularFile)
                        .map(p -> p.getFileName().toString())
                        .toList();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the console's files", e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot list the console's files: " + url, e);
        }
    }

    /** The uPlot WebJar's version folder, from its Maven metadata (one copy on the classpath). */
    private static String webJarVersion(ClassLoader loader) {
        String props = "META-INF/maven/org.webjars.npm/uplot/pom.properties";
        try (InputStream in = loader.getResourceAsStream(props)) {
            if (in == null) {
                throw new IllegalStateException(
                        "the uPlot WebJar (org.webjars.npm:uplot) is missing from the classpath");
            }
            java.util.Properties p = new java.util.Properties();
            p.load(in);
            return p.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] read(ClassLoader loader, String resource) {
        try (InputStream in = loader.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing console resource " + resource);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

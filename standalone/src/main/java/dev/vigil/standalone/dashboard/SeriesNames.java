package dev.vigil.standalone.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The series names one source has: a service's {@code /metrics} (the Prometheus text exposition format, every
 * sample line's name: {@code _total}, {@code _bucket}, {@code _count}, {@code _sum} ... as exposed) or a Prometheus
 * server ({@code GET /api/v1/label/__name__/values}, every name it holds).
 *
 * @param source the URL asked
 * @param names  the series names it gave
 */
public record SeriesNames(URI source, Set<String> names) {
    private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final String VALUES_PATH = "/api/v1/label/__name__/values";

    public SeriesNames {
        names = Set.copyOf(names);
    }

    /** A source that could not be read: unreachable, an answer other than 200, or a body in another format. */
    public static final class Unavailable extends Exception {
        private static final long serialVersionUID = 1L;

        Unavailable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * The URL to scrape for a {@code --scrape} argument: as given, or with {@code /metrics} when it names no path
     * ({@code http://host:8083} is {@code http://host:8083/metrics}).
     */
    public static URI scrapeUrl(String arg) {
        URI u = URI.create(arg.strip());
        if (u.getScheme() == null || u.getHost() == null) {
            throw new IllegalArgumentException(
                    "'" + arg + "' is not an http(s) URL with a host (e.g. http://127.0.0.1:8083/metrics)");
        }
        String path = u.getRawPath();
        return path == null || path.isEmpty() || path.equals("/")
                ? URI.create(stripSlash(u.toString()) + "/metrics")
                : u;
    }

    /**
     * The label-values URL of a Prometheus base URL (which may carry a path prefix, e.g. behind a proxy), asking for
     * the names of series with samples since {@code since} (null: every name Prometheus still holds).
     */
    public static URI prometheusUrl(String base, Instant since) {
        URI u = URI.create(base.strip());
        if (u.getScheme() == null || u.getHost() == null) {
            throw new IllegalArgumentException(
                    "'" + base + "' is not an http(s) URL with a host (e.g. http://127.0.0.1:9090)");
        }
        String query = since == null ? "" : "?start=" + since.getEpochSecond();
        return URI.create(stripSlash(u.toString()) + VALUES_PATH + query);
    }

    private static String stripSlash(String s) {
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }

    /** The names of every sample line of a Prometheus text exposition; a line that is not one is an error. */
    public static Set<String> parseExposition(String text) {
        Set<String> names = new TreeSet<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int end = 0;
            while (end < line.length() && line.charAt(end) != '{' && !Character.isWhitespace(line.charAt(end))) {
                end++;
            }
            String name = line.substring(0, end);
            if (!NAME.matcher(name).matches() || end == line.length()) {
                throw new IllegalArgumentException(
                        "line " + (i + 1) + " is not a sample of the Prometheus text format: "
                                + (line.length() > 80 ? line.substring(0, 80) + "..." : line));
            }
            names.add(name);
        }
        return names;
    }

    /** GETs {@code url} (a service's {@code /metrics}) and reads its sample names. */
    public static SeriesNames scrape(HttpClient http, URI url, Duration timeout) throws Unavailable {
        String body = get(http, url, "text/plain;version=0.0.4", timeout);
        try {
            return new SeriesNames(url, parseExposition(body));
        } catch (IllegalArgumentException e) {
            throw new Unavailable(url + ": " + e.getMessage(), e);
        }
    }

    /** GETs {@code url} (a Prometheus label-values URL, see {@link #prometheusUrl}) and reads the names it lists. */
    public static SeriesNames prometheus(HttpClient http, URI url, Duration timeout) throws Unavailable {
        String body = get(http, url, "application/json", timeout);
        JsonNode json;
        try {
            json = new ObjectMapper().readTree(body);
        } catch (IOException e) {
            throw new Unavailable(url + ": the answer is not JSON (is this a Prometheus server?)", e);
        }
        if (json == null
                || !"success".equals(json.path("status").asText())
                || !json.path("data").isArray()) {
            throw new Unavailable(
                    url + ": not a Prometheus API answer with status success and a data array: " + abbreviate(body),
                    null);
        }
        Set<String> names = new TreeSet<>();
        json.path("data").forEach(n -> names.add(n.asText()));
        return new SeriesNames(url, names);
    }

    private static String get(HttpClient http, URI url, String accept, Duration timeout) throws Unavailable {
        HttpRequest request = HttpRequest.newBuilder(url)
                .timeout(timeout)
                .header("Accept", accept)
                .GET()
                .build();
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new Unavailable(
                    url + ": " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Unavailable(url + ": interrupted", e);
        }
        if (response.statusCode() != 200) {
            throw new Unavailable(url + ": HTTP " + response.statusCode() + " " + abbreviate(response.body()), null);
        }
        return response.body();
    }

    private static String abbreviate(String body) {
        String b = body == null ? "" : body.strip().replaceAll("\\s+", " ");
        return b.length() > 200 ? b.substring(0, 200) + "..." : b;
    }
}

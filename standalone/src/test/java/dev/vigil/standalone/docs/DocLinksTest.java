package dev.vigil.standalone.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The front page and the documentation hold together: every relative link in {@code README.md}, {@code docs/} and
 * {@code bench/} (README and results pages) names a file that exists, and an anchor names a heading of the page it
 * points to (GitHub's heading ids). The README stays a front page: at most 150 lines, opening with the two commands
 * CI and newcomers rely on ({@code .ci/run} runs the second).
 */
class DocLinksTest {
    /** {@code [text](target)} and {@code ![alt](target)}; the target ends at the first space or closing parenthesis. */
    private static final Pattern LINK = Pattern.compile("!?\\[[^\\]]*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");

    private static final Pattern HEADING = Pattern.compile("^(#{1,6})\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:");

    private static final Path ROOT = repoRoot();

    private static Path repoRoot() {
        Path dir = Path.of("").toAbsolutePath();
        for (Path p = dir; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("README.md"))
                    && Files.isDirectory(p.resolve("docs"))
                    && Files.isDirectory(p.resolve("standalone"))) {
                return p;
            }
        }
        throw new IllegalStateException("no repository root above " + dir);
    }

    @Test
    void readmeIsAFrontPage() throws IOException {
        List<String> lines = Files.readAllLines(ROOT.resolve("README.md"), StandardCharsets.UTF_8);
        assertThat(lines).as("README.md lines").hasSizeLessThanOrEqualTo(150);
        List<String> blocks = codeBlocks(lines);
        assertThat(blocks).as("README.md code blocks").hasSizeGreaterThanOrEqualTo(2);
        assertThat(blocks.get(0)).as("the first code block: the demo").isEqualTo("./vigil demo");
        assertThat(blocks.get(1))
                .as("the second code block: the test command .ci/run runs")
                .isEqualTo("mvn -B verify");
    }

    @Test
    void ciRunsTheReadmeTestCommand() throws IOException {
        String ci = Files.readString(ROOT.resolve(".ci/run"), StandardCharsets.UTF_8);
        List<String> blocks = codeBlocks(Files.readAllLines(ROOT.resolve("README.md"), StandardCharsets.UTF_8));
        assertThat(ci.lines().map(String::strip))
                .as(".ci/run runs the README's test command")
                .contains(blocks.get(1));
    }

    @Test
    void everyRelativeLinkResolves() throws IOException {
        List<String> broken = new ArrayList<>();
        Map<Path, Set<String>> anchorCache = new HashMap<>();
        List<Path> pages = pages();
        assertThat(pages).as("pages checked").contains(ROOT.resolve("README.md"), ROOT.resolve("docs/design.md"));
        for (Path page : pages) {
            List<String> lines = Files.readAllLines(page, StandardCharsets.UTF_8);
            boolean fenced = false;
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (line.strip().startsWith("```")) {
                    fenced = !fenced;
                    continue;
                }
                if (fenced) {
                    continue;
                }
                Matcher m = LINK.matcher(withoutInlineCode(line));
                while (m.find()) {
                    String problem = check(page, m.group(1), anchorCache);
                    if (problem != null) {
                        broken.add(ROOT.relativize(page) + ":" + (i + 1) + ": " + m.group(1) + ": " + problem);
                    }
                }
            }
        }
        assertThat(broken).as("broken links").isEmpty();
    }

    /**
     * Comments point at the design in the repository ({@code docs/}), never at a document a reader of the repository
     * does not have: no comment cites the specification by name (an identifier such as {@code ConfigSpec} or a
     * constant named so is not a citation).
     */
    @Test
    void noCommentCitesADocumentOutsideTheRepository() throws IOException {
        Pattern citation = Pattern.compile("(//|^\\s*\\*|/\\*|#).*(?<![A-Za-z_.\"])S" + "PEC(?![A-Za-z_])");
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(ROOT)) {
            for (Path f : files.filter(Files::isRegularFile)
                    .filter(f -> !ROOT.relativize(f).toString().contains("target")
                            && !ROOT.relativize(f).startsWith(".git"))
                    .filter(f -> f.toString().endsWith(".java")
                            || f.toString().endsWith(".yaml")
                            || f.toString().endsWith(".sh"))
                    .toList()) {
                List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
                for (int i = 0; i < lines.size(); i++) {
                    if (citation.matcher(lines.get(i)).find()) {
                        found.add(ROOT.relativize(f) + ":" + (i + 1) + ": "
                                + lines.get(i).strip());
                    }
                }
            }
        }
        assertThat(found)
                .as("comments citing SPEC; point at docs/design.md or another docs/ page")
                .isEmpty();
    }

    @Test
    void slugsFollowGitHub() {
        assertThat(slug("Vigil on a cluster (`vigil cluster`)")).isEqualTo("vigil-on-a-cluster-vigil-cluster");
        assertThat(slug("Restart after kill -9")).isEqualTo("restart-after-kill--9");
        assertThat(slug("Vigil's own blind spots page as Vigil's, never as your service's"))
                .isEqualTo("vigils-own-blind-spots-page-as-vigils-never-as-your-services");
        assertThat(slug("Dead-man's switch (watching Vigil itself)"))
                .isEqualTo("dead-mans-switch-watching-vigil-itself");
    }

    private static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>();
        pages.add(ROOT.resolve("README.md"));
        for (String dir : List.of("docs", "bench/results")) {
            try (Stream<Path> s = Files.walk(ROOT.resolve(dir))) {
                s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
            }
        }
        pages.add(ROOT.resolve("bench/README.md"));
        return pages;
    }

    /** Null when the link resolves, else what is wrong. */
    private static String check(Path page, String target, Map<Path, Set<String>> anchorCache) {
        if (SCHEME.matcher(target).find() || target.startsWith("//")) {
            return null; // absolute URLs are not checked here
        }
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        Path resolved = file.isEmpty()
                ? page
                : page.getParent()
                        .resolve(URLDecoder.decode(file, StandardCharsets.UTF_8))
                        .normalize();
        if (!resolved.startsWith(ROOT)) {
            return "points outside the repository";
        }
        if (!Files.exists(resolved)) {
            return "no such file " + ROOT.relativize(resolved);
        }
        if (anchor == null || anchor.isEmpty()) {
            return null;
        }
        if (!resolved.toString().endsWith(".md")) {
            return "an anchor into a file that is not Markdown";
        }
        Set<String> anchors = anchorCache.computeIfAbsent(resolved, DocLinksTest::anchors);
        return anchors.contains(anchor) ? null : "no heading #" + anchor + " in " + ROOT.relativize(resolved);
    }

    /** The ids GitHub gives a page's headings, duplicates numbered {@code -1}, {@code -2}, … */
    private static Set<String> anchors(Path page) {
        List<String> lines;
        try {
            lines = Files.readAllLines(page, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Set<String> ids = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        for (String line : lines) {
            if (line.strip().startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            Matcher m = HEADING.matcher(line);
            if (fenced || !m.matches()) {
                continue;
            }
            String base = slug(m.group(2));
            int n = seen.merge(base, 1, Integer::sum) - 1;
            ids.add(n == 0 ? base : base + "-" + n);
        }
        return ids;
    }

    /** GitHub's heading id: lower case, punctuation dropped (hyphens and underscores kept), spaces to hyphens. */
    static String slug(String heading) {
        String text = heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1"); // a link in a heading keeps its text
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            i += Character.charCount(c);
            if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                out.appendCodePoint(c);
            } else if (c == ' ') {
                out.append('-');
            }
        }
        return out.toString().toLowerCase(Locale.ROOT);
    }

    /** The contents of the fenced code blocks, in order, stripped. */
    private static List<String> codeBlocks(List<String> lines) {
        List<String> blocks = new ArrayList<>();
        StringBuilder current = null;
        for (String line : lines) {
            if (line.strip().startsWith("```")) {
                if (current == null) {
                    current = new StringBuilder();
                } else {
                    blocks.add(current.toString().strip());
                    current = null;
                }
            } else if (current != null) {
                current.append(line).append('\n');
            }
        }
        return blocks;
    }

    /** Inline code spans hold examples, not links. */
    private static String withoutInlineCode(String line) {
        return line.replaceAll("`[^`]*`", "``");
    }
}

package dev.vigil.standalone.architecture;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The package graph of one module ({@code dev.vigil.<module>.<package>}, sub-packages folded into their top
 * package) and the edges of it that lie on a cycle: both ends in one strongly connected component (Tarjan).
 */
final class PackageCycles {
    /** Class-path resource listing the known cyclic edges, one {@code <module>: <from> -> <to>} per line. */
    static final String KNOWN = "architecture/known-package-cycles.txt";

    record Report(Set<String> cyclicEdges, Set<String> newEdges, Set<String> resolvedEdges) {
    }

    private PackageCycles() {
    }

    static Report check(JavaClasses classes, String module) {
        Set<String> cyclic = cyclicEdges(classes, module);
        Set<String> known = known(module);
        Set<String> added = new TreeSet<>(cyclic);
        added.removeAll(known);
        Set<String> resolved = new TreeSet<>(known);
        resolved.removeAll(cyclic);
        return new Report(cyclic, added, resolved);
    }

    /** Edges {@code "<module>: a -> b"} between packages of the module that lie on a cycle. */
    static Set<String> cyclicEdges(JavaClasses classes, String module) {
        String prefix = "dev.vigil." + module + ".";
        Map<String, Set<String>> graph = new TreeMap<>();
        for (JavaClass c : classes) {
            String from = topPackage(c.getPackageName(), prefix);
            if (from == null) {
                continue;
            }
            graph.computeIfAbsent(from, k -> new TreeSet<>());
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                String to = topPackage(d.getTargetClass().getPackageName(), prefix);
                if (to != null && !to.equals(from)) {
                    graph.get(from).add(to);
                    graph.computeIfAbsent(to, k -> new TreeSet<>());
                }
            }
        }
        Map<String, Integer> component = new Tarjan(graph).run();
        Set<String> out = new TreeSet<>();
        graph.forEach((from, tos) -> tos.forEach(to -> {
            if (component.get(from).equals(component.get(to))) {
                out.add(module + ": " + from + " -> " + to);
            }
        }));
        return out;
    }

    private static String topPackage(String pkg, String prefix) {
        if (!pkg.startsWith(prefix)) {
            return null;
        }
        String rest = pkg.substring(prefix.length());
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }

    private static Set<String> known(String module) {
        Set<String> out = new TreeSet<>();
        try (InputStream in = PackageCycles.class.getClassLoader().getResourceAsStream(KNOWN)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + KNOWN);
            }
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String l = line.strip();
                if (!l.isEmpty() && !l.startsWith("#") && l.startsWith(module + ":")) {
                    out.add(l);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** Tarjan's strongly connected components, iterative enough for a few dozen packages (recursion depth ≤ nodes). */
    private static final class Tarjan {
        private final Map<String, Set<String>> graph;
        private final Map<String, Integer> index = new HashMap<>();
        private final Map<String, Integer> low = new HashMap<>();
        private final Map<String, Integer> component = new HashMap<>();
        private final Deque<String> stack = new ArrayDeque<>();
        private final Set<String> onStack = new java.util.HashSet<>();
        private int next;
        private int components;

        Tarjan(Map<String, Set<String>> graph) {
            this.graph = graph;
        }

        Map<String, Integer> run() {
            for (String v : graph.keySet()) {
                if (!index.containsKey(v)) {
                    visit(v);
                }
            }
            return component;
        }

        private void visit(String v) {
            index.put(v, next);
            low.put(v, next);
            next++;
            stack.push(v);
            onStack.add(v);
            for (String w : graph.get(v)) {
                if (!index.containsKey(w)) {
                    visit(w);
                    low.put(v, Math.min(low.get(v), low.get(w)));
                } else if (onStack.contains(w)) {
                    low.put(v, Math.min(low.get(v), index.get(w)));
                }
            }
            if (low.get(v).equals(index.get(v))) {
                String w;
                do {
                    w = stack.pop();
                    onStack.remove(w);
                    component.put(w, components);
                } while (!w.equals(v));
                components++;
            }
        }
    }
}

package dev.vigil.notifier.config;

import dev.vigil.kit.config.ConfigLoader.ConfigException;
import dev.vigil.kit.config.DurationText;
import dev.vigil.notifier.channel.PlainTransport;
import dev.vigil.notifier.channel.betterstack.OnCallReach;
import dev.vigil.notifier.channel.email.EmailSettings;
import dev.vigil.notifier.channel.template.MessageTemplate;
import dev.vigil.notifier.core.Grouping;
import dev.vigil.notifier.core.Route;
import dev.vigil.notifier.core.Routes;
import dev.vigil.notifier.core.Tier;
import dev.vigil.schemas.contract.Require;
import dev.vigil.schemas.contract.Severity;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks a {@link RoutingSpec} against itself and the environment and reports every problem at once, one line
 * each with its key path: an unknown channel in a route, a default or an app's allowed channels, a missing or
 * empty secret, a bad URL, an inline secret, a service name (of a route or an app) that no event can carry.
 */
public final class RoutingValidator {
    public static final URI BETTERSTACK_DEFAULT_URL = URI.create("https://uptime.betterstack.com");
    public static final int MIN_WEBHOOK_SECRET_BYTES = 32;
    public static final URI PAGERDUTY_DEFAULT_URL = URI.create("https://events.pagerduty.com/v2/enqueue");
    /** The longest {@code service} an alert event may carry (the contract's limit). */
    static final int SERVICE_MAX_LENGTH = 100;
    /** The longest escalation climb a route may have, beyond its own channels. */
    static final int MAX_TIERS = 5;
    /** The latest a tier may wait: past a day an unacknowledged page is no longer on-call work. */
    static final java.time.Duration MAX_TIER_DELAY = java.time.Duration.ofDays(1);
    /** Channels whose people-facing text a template may replace; webhook bodies are the event's JSON, for machines. */
    static final Set<ChannelType> TEMPLATED = EnumSet.of(
            ChannelType.SLACK,
            ChannelType.DISCORD,
            ChannelType.TEAMS,
            ChannelType.PAGERDUTY,
            ChannelType.BETTERSTACK,
            ChannelType.EMAIL);
    /** Far above any vendor's message limit: a longer template is a mistake (or not a template). */
    static final int TEMPLATE_MAX_CHARS = 16_384;

    private RoutingValidator() {}

    /** The validated channels and the routing table built from them. */
    public record Validated(Map<String, ResolvedChannel> channels, Routes routes) {}

    public static Validated validate(RoutingSpec spec, Map<String, String> env, String source) {
        return validate(spec, env, source, null);
    }

    /**
     * @param baseDir where a channel's relative {@code templateFile} is looked up: the directory of the file that
     *                configures the channel (null = working directory)
     */
    public static Validated validate(RoutingSpec spec, Map<String, String> env, String source, Path baseDir) {
        List<String> problems = new ArrayList<>();
        Map<String, ResolvedChannel> channels = new LinkedHashMap<>();
        for (var e : spec.channels().entrySet()) {
            String name = e.getKey();
            String path = source + ": channels." + name;
            if (name == null || !Require.SLUG.matcher(name).matches()) {
                problems.add(path + ": channel names must be slugs [a-z0-9-]");
                continue;
            }
            ResolvedChannel rc = resolve(name, e.getValue(), env, path, baseDir, problems);
            if (rc != null) {
                channels.put(name, rc);
            }
        }
        if (spec.channels().isEmpty()) {
            problems.add(source + ": channels: at least one channel is required");
        }
        List<Route> routes = new ArrayList<>();
        for (int i = 0; i < spec.routes().size(); i++) {
            RouteSpec r = spec.routes().get(i);
            String path = source + ": routes[" + i + "]" + (r.name() == null ? "" : " (" + r.name() + ")");
            Set<Severity> severities = new LinkedHashSet<>();
            for (String s : r.severities()) {
                try {
                    severities.add(Severity.parseStrict(s));
                } catch (IllegalArgumentException ex) {
                    problems.add(path + ".severities: unknown severity '" + s
                            + "'; expected critical, warning, info (or P1, P2, P3)");
                }
            }
            if (r.channels().isEmpty()) {
                problems.add(path + ".channels: a route must name at least one channel");
            }
            checkKnown(path + ".channels", r.channels(), spec.channels().keySet(), problems);
            checkServices(path + ".services", r.services(), problems);
            List<Tier> tiers = tiers(
                    path + ".escalation",
                    r.escalation(),
                    r.channels(),
                    spec.channels().keySet(),
                    problems);
            Grouping group = group(path + ".group", r.group(), problems);
            routes.add(new Route(
                    r.name() == null ? "route-" + i : r.name(),
                    severities,
                    Set.copyOf(r.services()),
                    r.attributes(),
                    r.channels(),
                    tiers,
                    group));
        }
        Map<Severity, List<String>> defaults = new EnumMap<>(Severity.class);
        for (var e : spec.defaults().entrySet()) {
            String path = source + ": defaults." + e.getKey();
            Severity sev;
            try {
                sev = Severity.parseStrict(e.getKey());
            } catch (IllegalArgumentException ex) {
                problems.add(path + ": unknown severity; expected critical, warning or info");
                continue;
            }
            List<String> list = e.getValue() == null ? List.of() : e.getValue();
            checkKnown(path, list, spec.channels().keySet(), problems);
            defaults.put(sev, List.copyOf(list));
        }
        for (Severity s : Severity.values()) {
            if (defaults.getOrDefault(s, List.of()).isEmpty()) {
                problems.add(source + ": defaults." + s.wire()
                        + ": a default route for every severity is required (an event must never route nowhere)");
            }
        }
        Map<Severity, List<Tier>> defaultTiers = new EnumMap<>(Severity.class);
        for (var e : spec.escalation().entrySet()) {
            String path = source + ": escalation." + e.getKey();
            Severity sev;
            try {
                sev = Severity.parseStrict(e.getKey());
            } catch (IllegalArgumentException ex) {
                problems.add(path + ": unknown severity; expected critical, warning or info (the default route whose"
                        + " pages climb)");
                continue;
            }
            List<TierSpec> written = e.getValue() == null ? List.of() : e.getValue();
            defaultTiers.put(
                    sev,
                    tiers(
                            path,
                            written,
                            defaults.getOrDefault(sev, List.of()),
                            spec.channels().keySet(),
                            problems));
        }
        Map<String, Set<String>> apps = new LinkedHashMap<>();
        Map<String, Set<String>> appServices = new LinkedHashMap<>();
        Map<String, Set<String>> appMonitors = new LinkedHashMap<>();
        for (var e : spec.apps().entrySet()) {
            String path = source + ": apps." + e.getKey();
            if (e.getKey() == null || !Require.SLUG.matcher(e.getKey()).matches()) {
                problems.add(path + ": app ids are slugs [a-z0-9-], as in ingest's apiKeys");
                continue;
            }
            if (e.getValue() == null) {
                problems.add(path + ": give the channels this app may name in an override, e.g. channels: [slack]"
                        + " (channels: [] allows none)");
                continue;
            }
            checkKnown(
                    path + ".channels", e.getValue().channels(), spec.channels().keySet(), problems);
            apps.put(e.getKey(), new LinkedHashSet<>(e.getValue().channels()));
            checkServices(path + ".services", e.getValue().services(), problems);
            appServices.put(e.getKey(), new LinkedHashSet<>(e.getValue().services()));
            List<String> monitors = e.getValue().monitors();
            for (int i = 0; i < monitors.size(); i++) {
                if (monitors.get(i) == null
                        || !Require.SLUG.matcher(monitors.get(i)).matches()) {
                    problems.add(path + ".monitors[" + i + "]: a monitor id, a slug [a-z0-9-] (e.g. checkout-api)");
                }
            }
            appMonitors.put(e.getKey(), new LinkedHashSet<>(monitors));
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return new Validated(
                Map.copyOf(channels),
                new Routes(routes, defaults, channels.keySet(), apps, appServices, defaultTiers, appMonitors));
    }

    /**
     * The escalation tiers written at {@code path}, numbered from 2 (tier 1 is {@code first}, the route's own
     * channels). Each waits longer than the one before and pages channels no earlier tier pages: a tier that repeats a
     * channel would page the same people twice and read as if it reached someone new.
     */
    private static List<Tier> tiers(
            String path, List<TierSpec> written, List<String> first, Set<String> known, List<String> problems) {
        List<Tier> tiers = new ArrayList<>();
        if (written.size() > MAX_TIERS) {
            problems.add(path + ": at most " + MAX_TIERS + " escalation tiers");
            return List.of();
        }
        Map<String, String> pagedBy = new LinkedHashMap<>();
        first.forEach(c -> pagedBy.putIfAbsent(c, "the route's own channels"));
        java.time.Duration previous = java.time.Duration.ZERO;
        for (int i = 0; i < written.size(); i++) {
            String at = path + "[" + i + "]";
            TierSpec t = written.get(i);
            int number = i + 2;
            if (t == null) {
                problems.add(at + ": give after (e.g. 10m) and channels");
                continue;
            }
            int before = problems.size();
            java.time.Duration after = null;
            if (t.after() == null) {
                problems.add(at + ".after: required: how long the incident stays unacknowledged before this tier is"
                        + " paged (e.g. 10m)");
            } else {
                after = duration(at + ".after", t.after(), problems);
                if (after != null && (after.isNegative() || after.isZero())) {
                    problems.add(at + ".after: must be positive");
                } else if (after != null && after.compareTo(previous) <= 0) {
                    problems.add(at + ".after: must be later than the tier before it (" + DurationText.format(previous)
                            + ")");
                } else if (after != null && after.compareTo(MAX_TIER_DELAY) > 0) {
                    problems.add(at + ".after: at most " + DurationText.format(MAX_TIER_DELAY));
                }
            }
            if (t.channels().isEmpty()) {
                problems.add(at + ".channels: a tier must page at least one channel");
            }
            checkKnown(at + ".channels", t.channels(), known, problems);
            String here = "escalation[" + i + "]";
            for (String c : t.channels()) {
                String earlier = pagedBy.putIfAbsent(c, here);
                if (earlier != null && !earlier.equals(here)) {
                    problems.add(at + ".channels: " + c + " is already paged by " + earlier);
                }
            }
            if (problems.size() == before) {
                tiers.add(new Tier(number, after, new ArrayList<>(new LinkedHashSet<>(t.channels()))));
                previous = after;
            }
        }
        return tiers;
    }

    private static void checkKnown(String path, List<String> names, Set<String> known, List<String> problems) {
        for (String n : names) {
            if (!known.contains(n)) {
                problems.add(path + ": unknown channel '" + n + "'; configured channels are " + known);
            }
        }
    }

    /**
     * Service names as an event's {@code service} must be (the contract's rule: non-blank, at most 100 characters,
     * no control characters); one that breaks it could never match. The message never echoes the value.
     */
    private static void checkServices(String path, List<String> services, List<String> problems) {
        for (int i = 0; i < services.size(); i++) {
            try {
                Require.text("service", services.get(i), SERVICE_MAX_LENGTH);
            } catch (IllegalArgumentException ex) {
                problems.add(path + "[" + i + "]: must be a service name (not blank, at most " + SERVICE_MAX_LENGTH
                        + " characters, no control characters), as in the events' service");
            }
        }
    }

    private static ResolvedChannel resolve(
            String name, ChannelSpec c, Map<String, String> env, String path, Path baseDir, List<String> problems) {
        if (c == null) {
            problems.add(path + ": channel definition is empty; give at least its type");
            return null;
        }
        int before = problems.size();
        URI url = null;
        String secret = null;
        EmailSettings email = null;
        if (c.email() != null && c.type() != ChannelType.EMAIL) {
            problems.add(path + ".email: only email channels take an email block");
        }
        OnCallReach reach = null;
        if (c.reach() != null && c.type() != ChannelType.BETTERSTACK) {
            problems.add(path + ".reach: only betterstack channels take reach (how BetterStack reaches the on-call"
                    + " person per severity)");
        } else if (c.reach() != null) {
            reach = reach(path + ".reach", c.reach(), problems);
        }
        switch (c.type()) {
            case BETTERSTACK -> {
                url = c.url() == null ? BETTERSTACK_DEFAULT_URL : url(path + ".url", c.url(), problems);
                noUrlEnv(c, path, problems);
                secret = secret(path + ".secretEnv", c.secretEnv(), env, "the BetterStack API token", problems);
            }
            case PAGERDUTY -> {
                url = c.url() == null ? PAGERDUTY_DEFAULT_URL : url(path + ".url", c.url(), problems);
                noUrlEnv(c, path, problems);
                secret = secret(
                        path + ".secretEnv", c.secretEnv(), env, "the PagerDuty integration (routing) key", problems);
                if (secret != null && !secret.matches("[A-Za-z0-9]{20,64}")) {
                    problems.add(path + ".secretEnv: the value of " + c.secretEnv() + " is not a PagerDuty integration"
                            + " key (32 letters and digits, from the service's Events API v2 integration)");
                }
            }
            case SLACK, DISCORD, TEAMS -> {
                if (c.url() != null) {
                    problems.add(
                            path + ".url: " + c.type().wire() + " webhook URLs carry their token; put the URL in an"
                                    + " environment variable and name it in urlEnv");
                }
                String text = secret(path + ".urlEnv", c.urlEnv(), env, "the webhook URL", problems);
                if (text != null) {
                    url = url(path + ".urlEnv (value of " + c.urlEnv() + ")", text, problems);
                }
                if (c.secretEnv() != null) {
                    problems.add(path + ".secretEnv: not used by " + c.type().wire() + " channels");
                }
            }
            case WEBHOOK -> {
                if ((c.url() == null) == (c.urlEnv() == null)) {
                    problems.add(path + ": a webhook channel needs exactly one of url or urlEnv");
                } else if (c.url() != null) {
                    url = url(path + ".url", c.url(), problems);
                } else {
                    String text = secret(path + ".urlEnv", c.urlEnv(), env, "the webhook URL", problems);
                    if (text != null) {
                        url = url(path + ".urlEnv (value of " + c.urlEnv() + ")", text, problems);
                    }
                }
                secret = secret(path + ".secretEnv", c.secretEnv(), env, "the webhook signing secret", problems);
                if (secret != null && secret.getBytes(StandardCharsets.UTF_8).length < MIN_WEBHOOK_SECRET_BYTES) {
                    problems.add(path + ".secretEnv: the signing secret in " + c.secretEnv() + " must be at least "
                            + MIN_WEBHOOK_SECRET_BYTES + " bytes");
                }
            }
            case EMAIL -> {
                if (c.url() != null || c.urlEnv() != null) {
                    problems.add(
                            path + ": an email channel takes its relay under email: (host, port), not url or urlEnv");
                }
                String password = c.secretEnv() == null
                        ? null
                        : secret(path + ".secretEnv", c.secretEnv(), env, "the SMTP password", problems);
                email = email(path, c.email(), password, problems);
            }
            case LOG, DIGEST -> {
                if (c.url() != null || c.urlEnv() != null || c.secretEnv() != null) {
                    problems.add(path + ": a " + c.type().wire() + " channel takes no url, urlEnv or secretEnv");
                }
            }
        }
        String template = template(path, c, baseDir, problems);
        if (problems.size() > before) {
            return null;
        }
        return new ResolvedChannel(
                name, c.type(), url, secret, c.ratePerSecond(), c.concurrency(), email, reach, template);
    }

    /**
     * The channel's template text (inline, or read from {@code templateFile}), checked against the message model:
     * a template that does not compile or names a variable the model lacks is a problem naming its key (and file).
     */
    private static String template(String path, ChannelSpec c, Path baseDir, List<String> problems) {
        if (c.template() == null && c.templateFile() == null) {
            return null;
        }
        if (!TEMPLATED.contains(c.type())) {
            problems.add(path + (c.template() != null ? ".template" : ".templateFile") + ": "
                    + c.type().wire() + " channels take no template ("
                    + (c.type() == ChannelType.WEBHOOK
                            ? "a webhook's body is the alert event's JSON, for machines"
                            : "a log line keeps one format, for searching")
                    + ")");
            return null;
        }
        if (c.template() != null && c.templateFile() != null) {
            problems.add(path + ": give template or templateFile, not both");
            return null;
        }
        String key;
        String text;
        if (c.template() != null) {
            key = path + ".template";
            text = c.template();
        } else {
            Path file = Path.of(c.templateFile());
            if (!file.isAbsolute() && baseDir != null) {
                file = baseDir.resolve(file);
            }
            key = path + ".templateFile (" + file + ")";
            try {
                text = Files.readString(file, StandardCharsets.UTF_8);
            } catch (IOException | RuntimeException e) {
                problems.add(key + ": cannot be read (" + e.getClass().getSimpleName() + ")");
                return null;
            }
        }
        if (text.length() > TEMPLATE_MAX_CHARS) {
            problems.add(key + ": longer than " + TEMPLATE_MAX_CHARS + " characters");
            return null;
        }
        int before = problems.size();
        MessageTemplate.problem(text).ifPresent(m -> problems.add(key + ": " + m));
        return problems.size() > before ? null : text;
    }

    /** A betterstack channel's {@code reach:} over the defaults, every problem added with its key path. */
    private static OnCallReach reach(String path, Map<String, List<String>> byName, List<String> problems) {
        OnCallReach reach = OnCallReach.defaults();
        for (Map.Entry<String, List<String>> e : byName.entrySet()) {
            Severity severity = java.util.Arrays.stream(Severity.values())
                    .filter(s -> s.wire().equals(e.getKey()))
                    .findFirst()
                    .orElse(null);
            if (severity == null) {
                problems.add(path + "." + e.getKey() + ": not a severity (critical, warning or info)");
                continue;
            }
            if (e.getValue() == null) {
                problems.add(path + "." + e.getKey() + ": a list of mediums, [] for none (" + OnCallReach.Medium.names()
                        + ")");
                continue;
            }
            EnumSet<OnCallReach.Medium> mediums = EnumSet.noneOf(OnCallReach.Medium.class);
            for (int i = 0; i < e.getValue().size(); i++) {
                OnCallReach.Medium m = OnCallReach.Medium.of(e.getValue().get(i));
                if (m == null) {
                    problems.add(path + "." + e.getKey() + "[" + i + "]: "
                            + e.getValue().get(i) + " is not one of " + OnCallReach.Medium.names());
                } else {
                    mediums.add(m);
                }
            }
            reach = reach.with(severity, mediums);
        }
        return reach;
    }

    /** The e-mail settings of {@code spec} with the password, every problem added with its key path; null if any. */
    private static EmailSettings email(String path, EmailSpec spec, String password, List<String> problems) {
        if (spec == null) {
            problems.add(path + ".email: required: the SMTP relay (host, port), from and to");
            return null;
        }
        int before = problems.size();
        EmailSettings.StartTls startTls = null;
        if (spec.startTls() != null) {
            try {
                startTls = EmailSettings.StartTls.fromWire(spec.startTls());
            } catch (RuntimeException e) {
                problems.add(path + ".email.startTls: must be required or none");
            }
        }
        java.time.Duration connect = duration(path + ".email.connectTimeout", spec.connectTimeout(), problems);
        java.time.Duration read = duration(path + ".email.readTimeout", spec.readTimeout(), problems);
        java.time.Duration send = duration(path + ".email.sendTimeout", spec.sendTimeout(), problems);
        EmailSettings settings = new EmailSettings(
                spec.host(),
                spec.port(),
                startTls,
                spec.username(),
                password,
                spec.from(),
                spec.to(),
                spec.subjectPrefix(),
                connect,
                read,
                send);
        problems.addAll(settings.problems(path + ".email"));
        return problems.size() > before ? null : settings;
    }

    /**
     * A route's grouping, or null when it has none (or a problem was found). {@code by} names the event's service or
     * an attribute; {@code wait} must be positive and at most {@link Grouping#MAX_WAIT}.
     */
    static Grouping group(String path, GroupSpec spec, List<String> problems) {
        if (spec == null) {
            return null;
        }
        int before = problems.size();
        List<String> by = new ArrayList<>();
        for (int i = 0; i < spec.by().size(); i++) {
            String b = spec.by().get(i);
            if (b == null || b.isBlank() || b.length() > 100 || !b.strip().equals(b)) {
                problems.add(path + ".by[" + i + "]: must be service or an attribute name (not blank, at most 100"
                        + " characters, no surrounding spaces)");
            } else if (by.contains(b)) {
                problems.add(path + ".by[" + i + "]: '" + b + "' is named twice");
            } else {
                by.add(b);
            }
        }
        java.time.Duration wait = Grouping.DEFAULT_WAIT;
        if (spec.waitFor() != null) {
            wait = duration(path + ".wait", spec.waitFor(), problems);
            if (wait != null && (wait.isNegative() || wait.isZero())) {
                problems.add(path + ".wait: must be positive");
            } else if (wait != null && wait.compareTo(Grouping.MAX_WAIT) > 0) {
                problems.add(path + ".wait: at most " + DurationText.format(Grouping.MAX_WAIT)
                        + " (a longer wait holds pages back)");
            }
        }
        return problems.size() > before ? null : new Grouping(by, wait);
    }

    private static java.time.Duration duration(String path, String text, List<String> problems) {
        if (text == null) {
            return null;
        }
        try {
            return DurationText.parse(text);
        } catch (IllegalArgumentException e) {
            problems.add(path + ": " + e.getMessage());
            return null;
        }
    }

    private static void noUrlEnv(ChannelSpec c, String path, List<String> problems) {
        if (c.urlEnv() != null) {
            problems.add(path + ".urlEnv: not used by " + c.type().wire() + " channels (set url for the API base)");
        }
    }

    private static String secret(
            String path, String envName, Map<String, String> env, String what, List<String> problems) {
        if (envName == null || envName.isBlank()) {
            problems.add(path + ": required: the name of the environment variable holding " + what);
            return null;
        }
        String value = env.get(envName);
        if (value == null) {
            problems.add(path + ": environment variable " + envName + " (" + what + ") is not set");
            return null;
        }
        if (value.isBlank()) {
            problems.add(path + ": environment variable " + envName + " (" + what + ") is empty");
            return null;
        }
        return value.strip();
    }

    /**
     * Absolute https URL (http only to a loopback stand-in) with a host and no user-info; the message never echoes
     * the value (it may be secret).
     */
    private static URI url(String path, String text, List<String> problems) {
        try {
            URI u = new URI(text.strip());
            String scheme = u.getScheme();
            if (scheme == null || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))) {
                problems.add(path + ": must be an absolute http or https URL");
                return null;
            }
            if (u.getHost() == null || u.getHost().isBlank()) {
                problems.add(path + ": the URL must name a host");
                return null;
            }
            if (u.getRawUserInfo() != null) {
                problems.add(path + ": the URL must not contain user-info");
                return null;
            }
            if (!PlainTransport.allows(u)) {
                problems.add(path + ": " + PlainTransport.HTTPS_RULE);
                return null;
            }
            return u;
        } catch (java.net.URISyntaxException e) {
            problems.add(path + ": is not a valid URL");
            return null;
        }
    }
}

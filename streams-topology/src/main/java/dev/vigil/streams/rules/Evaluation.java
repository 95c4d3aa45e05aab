package dev.vigil.streams.rules;

import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.contract.Require;
import dev.vigil.schemas.contract.Severity;
import java.util.Map;

/**
 * One rule's judgement of one fingerprint at one event time: a breach (at a severity) or a healthy
 * evaluation. Rules that can say neither ("unknown" verdicts) produce no evaluation at all.
 *
 * @param at event time of the evaluated input (epoch ms); the state machine's "now"
 * @param severity the breach severity; ignored (and normalised to {@code null}) for healthy evaluations
 * @param summary one line, used as the event summary (a healthy evaluation's summary goes on {@code resolved})
 */
public record Evaluation(
        String fingerprint,
        long at,
        boolean breach,
        Severity severity,
        String service,
        String componentType,
        String summary,
        Map<String, String> links,
        Map<String, String> attributes,
        AlertSource source) {

    public Evaluation {
        Require.matches("fingerprint", fingerprint, Require.FINGERPRINT, "<rule-or-service>/<subject>");
        Require.atLeast("at", at, 0);
        if (breach) {
            Require.present("severity", severity);
        } else {
            severity = null;
        }
        Require.text("service", service, 100);
        Require.optionalText("componentType", componentType, 64);
        summary = oneLine(Require.present("summary", summary));
        Require.text("summary", summary, 300);
        links = Require.stringMap("links", links, 8, 32, 2048);
        attributes = Require.stringMap("attributes", attributes, 16, 64, 256);
        Require.present("source", source);
        if (source == AlertSource.APP) {
            throw new ContractViolation("source", "app events are not evaluated by the topology");
        }
    }

    public static Evaluation breach(
            String fingerprint,
            long at,
            Severity severity,
            String service,
            String componentType,
            String summary,
            Map<String, String> links,
            Map<String, String> attributes,
            AlertSource source) {
        return new Evaluation(
                fingerprint, at, true, severity, service, componentType, summary, links, attributes, source);
    }

    public static Evaluation healthy(
            String fingerprint,
            long at,
            String service,
            String componentType,
            String summary,
            Map<String, String> links,
            Map<String, String> attributes,
            AlertSource source) {
        return new Evaluation(fingerprint, at, false, null, service, componentType, summary, links, attributes, source);
    }

    /** Summaries are one line of at most 300 characters; longer rendered templates are cut, never refused. */
    public static String oneLine(String s) {
        String line = s.replace('\r', ' ').replace('\n', ' ');
        return line.length() <= 300 ? line : line.substring(0, 299) + "…";
    }
}

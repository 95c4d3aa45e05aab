package dev.vigil.notifier.channel.log;

import dev.vigil.notifier.channel.Presentation;
import dev.vigil.notifier.core.DeliveryOutcome;
import dev.vigil.notifier.core.Notification;
import dev.vigil.notifier.core.Notifier;
import dev.vigil.schemas.contract.AlertSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * Writes the notification as one log line (the info channel; the demo's console). A page Vigil raised itself ends with
 * {@code open=<its incident in the console>}, so a person reading the terminal has one link to follow; an application's
 * links are its own and are not written here.
 */
public final class LogNotifier implements Notifier {
    /** The link Vigil's own pages carry to the incident's view in the console. */
    static final String INCIDENT_LINK = "incident";

    private static final Logger LOG = LoggerFactory.getLogger("vigil.notifications");

    @Override
    public Mono<DeliveryOutcome> send(Notification n) {
        var e = Presentation.clean(n.event());
        String incident = e.source() == AlertSource.APP ? null : e.links().get(INCIDENT_LINK);
        LOG.info(
                "{} fingerprint={} incident={} occurrences={} eventId={}{}",
                Presentation.title(e),
                e.fingerprint(),
                e.incidentId(),
                e.occurrences(),
                e.eventId(),
                incident != null && Presentation.isSafeLink(incident) ? " open=" + incident : "");
        return Mono.just(DeliveryOutcome.delivered(null));
    }
}

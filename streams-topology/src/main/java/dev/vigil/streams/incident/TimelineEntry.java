package dev.vigil.streams.incident;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One line of an incident's timeline.
 *
 * @param at when it happened (epoch ms: the event's time, or the notifier's when it settled a page)
 * @param kind {@code opened}, {@code reminder}, {@code escalated}, {@code resolved}, {@code acknowledged} (an alert
 *             event of that state), {@code page} (one channel's delivery of one of them), {@code unacknowledged} or
 *             {@code folded} (an application's linked event counted in the incident)
 * @param state for a {@code page}, the state of the event it carried
 * @param eventId the alert event this line is about
 * @param channel for a {@code page}, its channel
 * @param outcome for a {@code page}: {@code delivered}, {@code deduplicated}, {@code silenced} or
 *                {@code dead_lettered}
 * @param attempts for a {@code page}, how many sends it took
 * @param by who acknowledged or unacknowledged
 * @param detail why a page was silenced or failed; an event's summary
 * @param silenced for an alert event, whether it went out under a silence or an acknowledgement (recorded, not paged)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TimelineEntry(
        long at,
        String kind,
        String state,
        String eventId,
        String channel,
        String outcome,
        Integer attempts,
        String by,
        String detail,
        Boolean silenced) {}

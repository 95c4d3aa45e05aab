/*
 * Vigil console — one incident (#/incident/<fingerprint, percent-encoded>): where every page links. Its state,
 * severity and summary with the acknowledge / silence actions of the Alerts view, its facts (incident id, source,
 * first and last seen, occurrences, attributes), its escalation climb (which tier it is at, when the next pages) and
 * its links (the monitor's view, its runbook, …), from GET /v1/alerts?state=all&fingerprint=<fp>; and its timeline
 * (every event, every page per channel with its outcome, acknowledgements) from GET /v1/alerts/<fp>/timeline.
 */
'use strict';

(function (V) {
  const { h, setText } = V;

  /** Links a person may follow from here: absolute http(s) only, never javascript: or data:. */
  function safeHref(url) {
    try {
      const u = new URL(String(url));
      return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password ? u.href : null;
    } catch (e) {
      return null;
    }
  }

  /** An attribute as a person reads it: epoch milliseconds under a time-like name as a date. */
  function attrText(name, value) {
    const v = String(value);
    return /(At|Start|Seen)$/.test(name) && /^\d{12,14}$/.test(v) ? V.dateTime(Number(v)) : v;
  }

  /**
   * The climb as a person reads it: "Tier 1 (the route's channels) paged", then each tier paged, due or cancelled,
   * and one line saying where it stands now. Channel names are configuration, set as text.
   */
  function escalationItems(tiers, open) {
    const items = [h('li', { dataset: { tier: '1' } }, h('strong', null, 'Tier 1'), ' — the route\'s channels, paged at once')];
    let next = null;
    let at = 1;
    for (const t of tiers) {
      if (!t || typeof t !== 'object') continue;
      const channels = Array.isArray(t.channels) ? t.channels.join(', ') : '';
      let what;
      if (t.state === 'fired') {
        at = Math.max(at, Number(t.tier) || at);
        what = 'paged ' + V.dateTime(t.firedAt) + ' (' + V.relative(t.firedAt) + ')';
      } else if (t.state === 'cancelled') {
        what = 'not paged: ' + (t.cancelledBy === 'resolved' ? 'resolved first' : 'acknowledged first');
      } else {
        if (!next) next = t;
        what = open ? 'pages ' + V.dateTime(t.dueAt) + ' (' + V.relative(t.dueAt) + ') unless acknowledged' : 'not paged';
      }
      items.push(h('li', { dataset: { tier: String(t.tier), state: String(t.state) } },
        h('strong', null, 'Tier ' + t.tier), ' → ' + channels + ': ' + what));
    }
    const last = tiers.length ? Number(tiers[tiers.length - 1].tier) || tiers.length + 1 : 1;
    const summary = 'At tier ' + at + ' of ' + last
      + (next && open ? '; tier ' + next.tier + ' pages ' + V.relative(next.dueAt) + ' unless someone acknowledges.'
        : '.');
    return { items, summary };
  }

  /** One timeline line as a person reads it; every value from the API is set as text. */
  function timelineText(e) {
    const attempts = Number(e.attempts) > 1 ? ' after ' + e.attempts + ' attempts' : '';
    const quiet = e.silenced ? ' (silenced: recorded, not paged)' : '';
    const detail = e.detail ? ' — ' + e.detail : '';
    switch (e.kind) {
      case 'opened': return 'Opened' + quiet + detail;
      case 'reminder': return 'Reminder' + quiet;
      case 'escalated': return 'Escalated' + quiet + detail;
      case 'acknowledged': return 'Acknowledged by ' + (e.by || 'someone') + quiet;
      case 'unacknowledged': return 'Unacknowledged by ' + (e.by || 'someone');
      case 'resolved': return 'Resolved' + quiet;
      case 'page': {
        const outcome = { delivered: 'delivered', deduplicated: 'already delivered', silenced: 'not paged', dead_lettered: 'failed' }[e.outcome] || String(e.outcome);
        return (e.state ? e.state[0].toUpperCase() + e.state.slice(1) : 'Page') + ' → ' + e.channel + ': ' + outcome + attempts + detail;
      }
      case 'tier': return 'Escalation: ' + (e.detail || 'a tier paged');
      case 'folded': return 'Linked app event counted here' + detail;
      default: return String(e.kind) + detail;
    }
  }

  function create(params) {
    const fp = params.rest.join('/');
    const title = h('h1', { id: 'incident-title' }, fp || 'Incident');
    const status = h('p', { class: 'muted', id: 'incident-status' }, 'Loading the incident…');
    const t = V.table('Incident', V.alertColumns, { id: 'incident-table', cls: 'alerts-table', captionHidden: true });
    const facts = h('dl', { class: 'kv', id: 'incident-facts' });
    const linkList = h('ul', { class: 'incident-links', id: 'incident-links' });
    const climbSummary = h('p', { id: 'incident-escalation-summary' });
    const climbList = h('ul', { class: 'incident-links', id: 'incident-escalation' });
    const climb = h('div', { hidden: true },
      h('h2', { class: 'incident-links-title', id: 'incident-escalation-title' }, 'Escalation'), climbSummary, climbList);
    const timelineList = h('ol', { class: 'incident-timeline', id: 'incident-timeline' });
    const timelineNote = h('p', { class: 'muted small', id: 'incident-timeline-note' });
    const timeline = h('section', { class: 'panel', 'aria-labelledby': 'incident-timeline-title', hidden: true },
      h('h2', { id: 'incident-timeline-title' }, 'Timeline'), timelineNote, timelineList);
    const details = h('section', { class: 'panel', 'aria-labelledby': 'incident-facts-title', hidden: true },
      h('h2', { id: 'incident-facts-title' }, 'Details'), facts, climb,
      h('h2', { class: 'incident-links-title' }, 'Links'), linkList);
    const el = h('section', { id: 'incident', class: 'view-section', 'aria-labelledby': 'incident-title', dataset: { fingerprint: fp } },
      h('p', { class: 'breadcrumb' }, h('a', { href: '#/alerts' }, '← Alerts')),
      h('div', { class: 'view-header' }, title),
      status, t.wrap, timeline, details);
    const rows = new Map();
    t.wrap.hidden = true;

    function fact(label, value, title) {
      return [h('div', { class: 'kv-item' }, h('dt', null, label), h('dd', title ? { title } : null, value))];
    }

    function render(a) {
      setText(title, a.summary || fp);
      V.syncAlertRows(t.tbody, rows, [a]);
      t.wrap.hidden = false;
      const phase = V.alertPhase(a);
      setText(status, V.alertIsOpen(a) ? 'Open since ' + V.dateTime(a.firstSeen) + '.'
        : 'Resolved; it was first seen ' + V.dateTime(a.firstSeen) + '.');
      status.className = phase === 'firing' ? 'incident-firing' : 'muted';
      const attrs = a.attributes && typeof a.attributes === 'object' ? a.attributes : {};
      facts.replaceChildren(
        ...fact('Fingerprint', h('code', null, fp)),
        ...fact('Incident', h('code', null, a.incidentId || '—')),
        ...fact('Source', a.source || '—'),
        ...fact('Service', a.service || '—'),
        ...fact('First seen', V.relative(a.firstSeen), V.dateTime(a.firstSeen)),
        ...fact('Last seen', a.lastSeen ? V.relative(a.lastSeen) : '—', a.lastSeen ? V.dateTime(a.lastSeen) : ''),
        ...fact('Occurrences', V.num(a.occurrences)),
        ...Object.keys(attrs).sort().flatMap((k) => fact(k, attrText(k, attrs[k]))));
      const tiers = Array.isArray(a.escalation) ? a.escalation : [];
      if (tiers.length) {
        const c = escalationItems(tiers, V.alertIsOpen(a) && !a.acknowledgedBy);
        setText(climbSummary, c.summary);
        climbList.replaceChildren(...c.items);
      }
      climb.hidden = !tiers.length;
      const links = a.links && typeof a.links === 'object' ? a.links : {};
      const items = [];
      const monitorId = attrs.monitorId;
      if (monitorId) items.push(h('li', null, h('a', { href: '#/monitors/' + encodeURIComponent(monitorId), class: 'incident-monitor-link' }, 'Monitor ' + monitorId)));
      for (const k of Object.keys(links).sort((x, y) => (x === 'runbook' ? -1 : y === 'runbook' ? 1 : x.localeCompare(y)))) {
        if (k === 'incident' || k === 'monitor') continue; // this page, and the monitor link above
        const href = safeHref(links[k]);
        if (!href) continue;
        items.push(h('li', { dataset: { link: k } }, h('a', { href, rel: 'noopener noreferrer', target: '_blank' }, k), ' ', h('span', { class: 'muted small' }, href)));
      }
      linkList.replaceChildren(...(items.length ? items : [h('li', { class: 'muted' }, 'No links.')]));
      details.hidden = false;
    }

    function renderTimeline(data) {
      const entries = data && Array.isArray(data.entries) ? data.entries.filter((e) => e && typeof e === 'object') : [];
      timelineList.replaceChildren(...entries.map((e) => h('li', { dataset: { kind: String(e.kind), channel: e.channel ? String(e.channel) : '', outcome: e.outcome ? String(e.outcome) : '' }, class: e.outcome === 'dead_lettered' ? 'timeline-failed' : null },
        h('time', { datetime: new Date(Number(e.at)).toISOString() }, V.dateTime(e.at)), ' ', timelineText(e))));
      setText(timelineNote, entries.length
        ? (data.droppedEntries ? V.num(data.droppedEntries) + ' older lines not kept. ' : '') + 'Oldest first; each page per channel with its outcome.'
        : 'Nothing recorded for this incident yet.');
      timeline.hidden = false;
    }

    async function refreshTimeline(signal) {
      try {
        renderTimeline(await V.api('/v1/alerts/' + encodeURIComponent(fp) + '/timeline', { signal }));
      } catch (e) {
        if (e && e.name === 'AbortError') throw e;
        if (e && e.status === 404) {
          timeline.hidden = true;
          return;
        }
        throw e;
      }
    }

    async function refresh(signal) {
      if (!fp) {
        setText(status, 'No incident named in the address.');
        return;
      }
      const data = await V.api('/v1/alerts?state=all&fingerprint=' + encodeURIComponent(fp), { signal });
      const found = (data && Array.isArray(data.alerts) ? data.alerts : []).find((a) => a && a.fingerprint === fp);
      if (!found) {
        t.wrap.hidden = true;
        details.hidden = true;
        setText(status, 'No incident ' + fp + ' is known here: it may have expired, or it was never raised by Vigil.');
        status.className = 'muted';
        return;
      }
      render(found);
      await refreshTimeline(signal);
    }

    return { el, title: 'Incident', refresh, destroy() { rows.clear(); } };
  }

  V.views.incident = { create };
})(window.Vigil);

/*
 * Vigil console — one alert as a table row with its acknowledge / unacknowledge / silence actions, shared by the
 * Alerts view and the monitor detail. A row is created once per fingerprint and updated in place on every poll, so
 * an open form (and what the user typed in it) survives live updates.
 */
'use strict';

(function (V) {
  const { h, setText } = V;

  const UNTIL_OPTIONS = [['', 'End of incident'], ['30m', '30 minutes'], ['2h', '2 hours'], ['8h', '8 hours']];
  const SILENCE_OPTIONS = [['15', '15 minutes'], ['60', '1 hour'], ['240', '4 hours'], ['1440', '24 hours']];

  const COLUMNS = [
    { label: 'Severity' }, { label: 'State' }, { label: 'Alert' }, { label: 'Service' }, { label: 'Since' },
    { label: 'Last seen' }, { label: 'Count', cls: 'num' }, { label: 'Marks' }, { label: 'Actions' },
  ];

  function phaseOf(a) {
    return a.phase || a.state || 'unknown';
  }

  function isOpen(a) {
    const p = phaseOf(a);
    return p === 'firing' || p === 'resolving';
  }

  function phaseBadge(p) {
    const label = p === 'healthy' ? 'resolved' : p;
    return h('span', { class: 'badge phase phase-' + V.cssToken(p) }, label);
  }

  /** Where an incident comes from, as the API names it (its fingerprint's namespace). */
  const ORIGINS = [['monitor', 'monitor'], ['metric', 'metric rule'], ['worker', 'probe worker'], ['vigil', 'Vigil itself'],
    ['app', 'app'], ['alertmanager', 'Alertmanager'], ['notifier', 'notifier']];

  function originLabel(origin) {
    const found = ORIGINS.find(([v]) => v === origin);
    return found ? found[1] : String(origin || 'other');
  }

  /** createAlertRow(alert) → {tr, update(alert), fingerprint} */
  function createAlertRow(initial) {
    const fp = initial.fingerprint;
    let alert = initial;
    let busy = false;
    let pendingFocus = null; // the button to focus once a refresh shows it (after an action hid the one in focus)

    const sevCell = h('td');
    const phaseCell = h('td');
    const summaryEl = h('span', { class: 'alert-summary' });
    const fpEl = h('code', { class: 'fingerprint' });
    const monitorLink = h('a', { class: 'alert-monitor-link', hidden: true }, 'monitor');
    const originEl = h('span', { class: 'origin-tag tag' });
    const incidentLink = h('a', { class: 'alert-incident-link', href: '#/incident/' + encodeURIComponent(fp) }, 'timeline');
    const alertCell = h('th', { scope: 'row', class: 'alert-cell' }, summaryEl, originEl, h('br'), fpEl, ' ', incidentLink, ' ', monitorLink);
    const serviceCell = h('td');
    const sinceCell = h('td');
    const lastCell = h('td');
    const countCell = h('td', { class: 'num' });
    const ackMark = h('span', { class: 'ack-mark mark', hidden: true });
    const silenceMark = h('span', { class: 'silence-mark mark', hidden: true }, 'Silenced');
    // its pages wait for a parent that is down (dependsOn); they go out if it is still failing when the parent recovers
    const heldMark = h('span', { class: 'held-mark mark', hidden: true });
    const marksCell = h('td', { class: 'marks' }, ackMark, silenceMark, heldMark);

    // buttons
    const ackButton = h('button', { type: 'button', class: 'btn btn-small ack-button', 'aria-expanded': 'false' }, 'Acknowledge');
    const unackButton = h('button', { type: 'button', class: 'btn btn-small unack-button' }, 'Unacknowledge');
    const silenceButton = h('button', { type: 'button', class: 'btn btn-small silence-button', 'aria-expanded': 'false' }, 'Silence for…');
    const buttons = h('div', { class: 'action-buttons' }, ackButton, unackButton, silenceButton);

    // acknowledge form
    const ackComment = h('input', { type: 'text', class: 'ack-comment', maxlength: '300', autocomplete: 'off', placeholder: 'optional' });
    const ackUntil = V.select({ class: 'ack-until' }, UNTIL_OPTIONS, '');
    const ackConfirm = h('button', { type: 'submit', class: 'btn btn-small btn-primary ack-confirm' }, 'Acknowledge');
    const ackCancel = h('button', { type: 'button', class: 'btn btn-small btn-quiet' }, 'Cancel');
    const ackForm = h('form', { class: 'inline-form ack-form', hidden: true, novalidate: true, 'aria-label': 'Acknowledge ' + fp },
      V.field('Comment', ackComment), V.field('Until', ackUntil), h('div', { class: 'form-buttons' }, ackConfirm, ackCancel));

    // silence form
    const silDuration = V.select({ class: 'silence-duration' }, SILENCE_OPTIONS, '60');
    const silReason = h('input', { type: 'text', class: 'silence-reason', maxlength: '300', required: true, autocomplete: 'off' });
    const silConfirm = h('button', { type: 'submit', class: 'btn btn-small btn-primary silence-confirm' }, 'Silence');
    const silCancel = h('button', { type: 'button', class: 'btn btn-small btn-quiet' }, 'Cancel');
    const silError = h('p', { class: 'form-error', role: 'alert' });
    const silForm = h('form', { class: 'inline-form silence-form', hidden: true, novalidate: true, 'aria-label': 'Silence ' + fp },
      V.field('For', silDuration), V.field('Reason (required)', silReason), silError,
      h('div', { class: 'form-buttons' }, silConfirm, silCancel));

    const actionsCell = h('td', { class: 'actions' }, buttons, ackForm, silForm);
    const tr = h('tr', { dataset: { fingerprint: fp } },
      sevCell, phaseCell, alertCell, serviceCell, sinceCell, lastCell, countCell, marksCell, actionsCell);

    function showForm(which) {
      ackForm.hidden = which !== 'ack';
      silForm.hidden = which !== 'silence';
      ackButton.setAttribute('aria-expanded', String(which === 'ack'));
      silenceButton.setAttribute('aria-expanded', String(which === 'silence'));
      if (which === 'ack') ackComment.focus();
      if (which === 'silence') silReason.focus();
    }

    ackButton.addEventListener('click', () => showForm(ackForm.hidden ? 'ack' : null));
    silenceButton.addEventListener('click', () => showForm(silForm.hidden ? 'silence' : null));
    ackCancel.addEventListener('click', () => {
      showForm(null);
      ackButton.focus();
    });
    silCancel.addEventListener('click', () => {
      showForm(null);
      silenceButton.focus();
    });

    async function run(label, fn, form) {
      if (busy) return;
      busy = true;
      const controls = form ? form.querySelectorAll('button, input, select') : [];
      controls.forEach((c) => { c.disabled = true; });
      try {
        await fn();
        V.notice(label, 'success');
        if (form) form.reset();
        showForm(null);
        V.refreshNow();
        return true;
      } catch (e) {
        if (e && e.status !== 401) V.notice(label.replace(/\.$/, '') + ' failed: ' + (e.detail || e.message), 'error');
        return false;
      } finally {
        busy = false;
        controls.forEach((c) => { c.disabled = false; });
      }
    }

    ackForm.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const body = {};
      const comment = ackComment.value.trim();
      if (comment) body.comment = comment;
      if (ackUntil.value) body.until = ackUntil.value;
      run('Acknowledged ' + fp + '.', () => V.api('/v1/alerts/' + V.enc(fp) + '/ack', { method: 'POST', body }), ackForm)
        .then((ok) => { if (ok) pendingFocus = unackButton; });
    });

    unackButton.addEventListener('click', () => {
      run('Removed the acknowledgement of ' + fp + '.', () => V.api('/v1/alerts/' + V.enc(fp) + '/ack', { method: 'DELETE' }), null)
        .then((ok) => { if (ok) pendingFocus = ackButton; });
    });

    silForm.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const reason = silReason.value.trim();
      if (!reason) {
        silError.textContent = 'A reason is required.';
        silReason.setAttribute('aria-invalid', 'true');
        silReason.focus();
        return;
      }
      silError.textContent = '';
      silReason.removeAttribute('aria-invalid');
      const minutes = Number(silDuration.value);
      const label = silDuration.options[silDuration.selectedIndex].textContent;
      run('Silenced ' + fp + ' for ' + label + '.', () => V.api('/v1/silences', {
        method: 'POST',
        body: { fingerprint: fp, durationMinutes: minutes, reason },
      }), silForm).then((ok) => { if (ok) silenceButton.focus(); });
    });

    function update(a) {
      alert = a;
      const phase = phaseOf(a);
      sevCell.replaceChildren(V.severityBadge(a.severity));
      phaseCell.replaceChildren(phaseBadge(phase));
      setText(summaryEl, a.summary || fp);
      setText(originEl, originLabel(a.origin));
      originEl.title = 'Source: ' + originLabel(a.origin);
      setText(fpEl, fp);
      const m = /^monitor\/([a-z0-9][a-z0-9-]*)(\/.*)?$/.exec(fp);
      monitorLink.hidden = !m;
      if (m) {
        monitorLink.href = '#/monitors/' + m[1];
        setText(monitorLink, 'view monitor');
      }
      setText(serviceCell, a.service || '—');
      const since = a.firstSeen || a.since;
      setText(sinceCell, V.relative(since));
      sinceCell.title = V.dateTime(since);
      setText(lastCell, a.lastSeen ? V.relative(a.lastSeen) : '—');
      lastCell.title = a.lastSeen ? V.dateTime(a.lastSeen) : '';
      setText(countCell, V.num(a.occurrences));

      const acked = !!a.acknowledgedBy;
      ackMark.hidden = !acked;
      if (acked) {
        let t = 'Acknowledged by ' + a.acknowledgedBy;
        if (a.acknowledgedAt) t += ' ' + V.relative(a.acknowledgedAt);
        t += a.acknowledgedUntil ? ', until ' + V.shortTime(a.acknowledgedUntil) : ', until the incident ends';
        if (a.acknowledgedComment) t += ' — “' + a.acknowledgedComment + '”';
        setText(ackMark, t);
      }
      silenceMark.hidden = !a.silenced;
      const held = a.held && typeof a.held.dependsOn === 'string' ? a.held : null;
      heldMark.hidden = !held || !isOpen(a);
      if (held) {
        setText(heldMark, 'held: ' + (held.reason || 'depends on ' + held.dependsOn + ', which is down'));
        heldMark.title = 'Its pages wait until ' + held.dependsOn + ' recovers; a resolution is never held.';
      }

      const open = isOpen(a);
      ackButton.hidden = !(open && !acked && V.can('ack'));
      unackButton.hidden = !(open && acked && V.can('ack'));
      silenceButton.hidden = !(open && V.can('silence'));
      if (ackButton.hidden && !ackForm.hidden) showForm(null);
      if (silenceButton.hidden && !silForm.hidden) showForm(null);
      tr.classList.toggle('row-open', open);
      if (pendingFocus && !pendingFocus.hidden && tr.isConnected) {
        pendingFocus.focus();
        pendingFocus = null;
      }
    }

    update(initial);
    return { tr, update, fingerprint: fp, get alert() { return alert; } };
  }

  /**
   * Keeps one row per fingerprint in tbody, in the order of `alerts`, creating and dropping rows as needed.
   * rows: a Map fingerprint → row, owned by the caller.
   */
  function syncAlertRows(tbody, rows, alerts, emptyText) {
    const seen = new Set();
    const ordered = [];
    for (const a of alerts) {
      if (!a || typeof a.fingerprint !== 'string') continue;
      seen.add(a.fingerprint);
      let row = rows.get(a.fingerprint);
      if (row) row.update(a);
      else {
        row = createAlertRow(a);
        rows.set(a.fingerprint, row);
      }
      ordered.push(row.tr);
    }
    for (const k of Array.from(rows.keys())) if (!seen.has(k)) rows.delete(k);
    if (!ordered.length) {
      tbody.replaceChildren(V.messageRow(COLUMNS.length, emptyText || 'No alerts.'));
      return;
    }
    // only move nodes when the order changed, so focus and open forms stay put
    const current = Array.from(tbody.children);
    const same = current.length === ordered.length && current.every((n, i) => n === ordered[i]);
    if (!same) tbody.replaceChildren(...ordered);
  }

  const SEVERITY_ORDER = { critical: 0, warning: 1, info: 2 };
  const PHASE_ORDER = { firing: 0, resolving: 1, healthy: 2 };

  function compareAlerts(a, b) {
    return (PHASE_ORDER[phaseOf(a)] ?? 3) - (PHASE_ORDER[phaseOf(b)] ?? 3)
      || (SEVERITY_ORDER[a.severity] ?? 3) - (SEVERITY_ORDER[b.severity] ?? 3)
      || (b.firstSeen || b.since || 0) - (a.firstSeen || a.since || 0)
      || String(a.fingerprint).localeCompare(String(b.fingerprint));
  }

  V.alertColumns = COLUMNS;
  V.alertOrigins = ORIGINS;
  V.originLabel = originLabel;
  V.createAlertRow = createAlertRow;
  V.syncAlertRows = syncAlertRows;
  V.compareAlerts = compareAlerts;
  V.alertPhase = phaseOf;
  V.alertIsOpen = isOpen;
})(window.Vigil);

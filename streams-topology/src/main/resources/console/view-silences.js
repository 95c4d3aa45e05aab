/*
 * Vigil console — silences and maintenance windows (#/silences): the list (state filter, expire), and a form to create
 * a one-off silence or a weekly maintenance window with a live "would match" preview of the fingerprint glob.
 */
'use strict';

(function (V) {
  const { h, setText } = V;
  const STATES = [['active', 'Active'], ['pending', 'Pending'], ['expired', 'Expired'], ['all', 'All']];
  const DAYS = [['mon', 'Mon'], ['tue', 'Tue'], ['wed', 'Wed'], ['thu', 'Thu'], ['fri', 'Fri'], ['sat', 'Sat'], ['sun', 'Sun']];
  const SERIES = [['10080', '1 week'], ['40320', '4 weeks'], ['131040', '13 weeks'], ['262080', '26 weeks'], ['524160', '52 weeks']];
  const QUICK = [[15, '15 min'], [60, '1 h'], [240, '4 h'], [1440, '24 h']];
  const PREVIEW_LIMIT = 200;
  const PREVIEW_DATA_EVERY_MS = 60000;
  const memory = { state: 'active' };

  function browserZone() {
    try {
      return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
    } catch (e) {
      return 'UTC';
    }
  }

  function scheduleText(s) {
    if (!s || typeof s !== 'object') return '—';
    const days = Array.isArray(s.days) ? s.days.join(', ') : '';
    return 'weekly ' + days + ' at ' + (s.at || '?') + ' for ' + V.minutesText(s.durationMinutes) + ' (' + (s.zone || 'UTC') + ')';
  }

  function matcherNodes(s) {
    const parts = [];
    if (s.fingerprint) parts.push(h('code', { class: 'fingerprint' }, s.fingerprint));
    if (s.service) parts.push(h('span', { class: 'matcher' }, 'service = ' + s.service));
    if (s.attributes && typeof s.attributes === 'object') {
      for (const [k, v] of Object.entries(s.attributes)) parts.push(h('span', { class: 'matcher' }, k + ' = ' + v));
    }
    if (!parts.length) parts.push(h('span', { class: 'muted' }, '—'));
    return h('span', { class: 'matchers' }, parts);
  }

  function create(params) {
    // ---- list ----
    const filter = V.select({ id: 'silence-filter' }, STATES, memory.state);
    const listSummary = h('p', { class: 'muted small' });
    const t = V.table('Silences', [
      { label: 'State' }, { label: 'Matches' }, { label: 'Starts' }, { label: 'Ends' }, { label: 'Author' },
      { label: 'Reason' }, { label: 'Schedule' }, { label: 'Actions' },
    ], { id: 'silences-table', cls: 'silences-table', captionHidden: true });
    t.tbody.appendChild(V.messageRow(8, 'Loading silences…'));
    const cache = new Map();

    // ---- form ----
    const canSilence = V.can('silence');
    const fp = h('input', { id: 'silence-fingerprint', type: 'text', placeholder: 'monitor/checkout-*', autocomplete: 'off', spellcheck: 'false', maxlength: '300', value: params.query.get('fingerprint') || '' });
    const service = h('input', { id: 'silence-service', type: 'text', autocomplete: 'off', spellcheck: 'false', maxlength: '100', value: params.query.get('service') || '' });
    const recurring = h('input', { id: 'silence-recurring', type: 'checkbox' });
    const duration = h('input', { id: 'silence-duration', type: 'number', min: '1', max: '527040', step: '1', value: '60', inputmode: 'numeric' });
    const quick = h('div', { class: 'quick', role: 'group', 'aria-label': 'Quick durations' }, QUICK.map(([m, label]) => {
      const b = h('button', { type: 'button', class: 'btn btn-small btn-quiet', dataset: { minutes: String(m) } }, label);
      b.addEventListener('click', () => {
        duration.value = String(m);
        duration.focus();
      });
      return b;
    }));
    const oneOff = h('div', { class: 'one-off' }, V.field('Duration (minutes)', duration), quick);

    const dayBoxes = DAYS.map(([v, label]) => h('input', { type: 'checkbox', name: 'silence-day', value: v, id: 'silence-day-' + v }));
    const daysSet = h('fieldset', { class: 'days' }, h('legend', null, 'Days'),
      DAYS.map(([v, label], i) => h('label', { class: 'check', for: 'silence-day-' + v }, dayBoxes[i], ' ' + label)));
    const at = h('input', { id: 'silence-at', type: 'time', value: '02:00', step: '60' });
    const windowMin = h('input', { id: 'silence-window', type: 'number', min: '1', max: '1440', step: '1', value: '60', inputmode: 'numeric' });
    const zone = h('input', { id: 'silence-zone', type: 'text', list: 'silence-zones', autocomplete: 'off', spellcheck: 'false', value: browserZone() });
    const zones = h('datalist', { id: 'silence-zones' });
    try {
      if (Intl.supportedValuesOf) for (const z of Intl.supportedValuesOf('timeZone')) zones.appendChild(h('option', { value: z }));
    } catch (e) {
      /* older browsers: free text */
    }
    const series = V.select({ id: 'silence-series' }, SERIES, '40320');
    const scheduleSet = h('fieldset', { class: 'schedule', hidden: true }, h('legend', null, 'Weekly maintenance window'),
      daysSet,
      h('div', { class: 'field-row' }, V.field('Starts at (local time)', at), V.field('Lasts (minutes)', windowMin),
        V.field('Time zone', zone, 'IANA id, e.g. Europe/Paris'), V.field('Repeat for', series)),
      zones);

    const reason = h('input', { id: 'silence-reason', type: 'text', required: true, maxlength: '300', autocomplete: 'off' });
    const comment = h('input', { id: 'silence-comment', type: 'text', maxlength: '300', autocomplete: 'off' });
    const submit = h('button', { id: 'silence-submit', type: 'submit', class: 'btn btn-primary' }, 'Create silence');
    const formError = h('p', { id: 'silence-form-error', class: 'form-error', role: 'alert' });
    const preview = h('ul', { id: 'silence-preview', class: 'preview-list', 'aria-describedby': 'silence-preview-summary' });
    const previewSummary = h('p', { id: 'silence-preview-summary', class: 'small', 'aria-live': 'polite' });

    const form = h('form', { id: 'silence-form', class: 'silence-form-main', novalidate: true, 'aria-labelledby': 'silence-form-title' },
      h('h2', { id: 'silence-form-title' }, 'New silence'),
      h('div', { class: 'field-row' },
        V.field('Fingerprint (glob)', fp, '* matches any run of characters, e.g. monitor/demo-*'),
        V.field('Service (optional)', service, 'exact service name')),
      h('label', { class: 'check', for: 'silence-recurring' }, recurring, ' Recurring weekly maintenance window'),
      oneOff, scheduleSet,
      h('div', { class: 'field-row' }, V.field('Reason (required)', reason), V.field('Comment (optional)', comment)),
      formError,
      h('div', { class: 'form-buttons' }, submit),
      h('div', { class: 'preview', 'aria-labelledby': 'silence-preview-title' },
        h('h3', { id: 'silence-preview-title' }, 'Would match'), previewSummary, preview));
    form.hidden = !canSilence;

    const listToolbar = h('form', { class: 'toolbar', novalidate: true }, V.field('State', filter));
    listToolbar.addEventListener('submit', (e) => e.preventDefault());

    const el = h('section', { id: 'silences', class: 'view-section', 'aria-labelledby': 'silences-title' },
      h('div', { class: 'view-header' }, h('h1', { id: 'silences-title' }, 'Silences and maintenance windows'), listSummary),
      h('div', { class: 'panel' }, listToolbar, t.wrap),
      canSilence ? h('div', { class: 'panel' }, form) : h('p', { class: 'muted' }, 'This token may read silences but not create or expire them.'));

    // ---- preview ----
    let previewItems = []; // [{fingerprint, service}]
    let previewLoaded = 0;

    function updatePreview() {
      const glob = fp.value.trim();
      const svc = service.value.trim();
      if (!glob && !svc) {
        preview.replaceChildren();
        setText(previewSummary, 'Enter a fingerprint glob or a service to see what the silence would match.');
        return;
      }
      if (!previewLoaded) {
        setText(previewSummary, 'Loading monitors and open alerts…');
        return;
      }
      let re = null;
      if (glob) {
        try {
          re = V.globToRegExp(glob);
        } catch (e) {
          re = null;
        }
      }
      const matched = previewItems.filter((it) => (!glob || (re && re.test(it.fingerprint))) && (!svc || it.service === svc));
      const shown = matched.slice(0, PREVIEW_LIMIT);
      preview.replaceChildren(...shown.map((it) => h('li', { dataset: { fingerprint: it.fingerprint } },
        h('code', null, it.fingerprint), it.alert ? h('span', { class: 'tag tag-alert' }, 'open alert') : null)));
      let text = matched.length === 0 ? 'Matches no current monitor or open alert (it would still apply to future ones).'
        : 'Would match ' + V.num(matched.length) + ' fingerprint' + (matched.length === 1 ? '' : 's')
          + (matched.length > shown.length ? ' (showing the first ' + shown.length + ')' : '') + '.';
      if (glob === '*') text += ' This silences everything.';
      setText(previewSummary, text);
    }

    async function loadPreview(signal) {
      const [status, open] = await Promise.all([
        V.api('/v1/status', { signal }),
        V.api('/v1/alerts?state=open', { signal }),
      ]);
      const byFp = new Map();
      for (const m of (status && Array.isArray(status.monitors) ? status.monitors : [])) {
        if (m && typeof m.monitorId === 'string') byFp.set('monitor/' + m.monitorId, { fingerprint: 'monitor/' + m.monitorId, service: m.service || null, alert: false });
      }
      for (const a of (open && Array.isArray(open.alerts) ? open.alerts : [])) {
        if (a && typeof a.fingerprint === 'string') byFp.set(a.fingerprint, { fingerprint: a.fingerprint, service: a.service || null, alert: true });
      }
      previewItems = Array.from(byFp.values()).sort((a, b) => (a.fingerprint < b.fingerprint ? -1 : 1));
      previewLoaded = Date.now();
      updatePreview();
    }

    const onMatcherInput = V.debounce(updatePreview, 80);
    fp.addEventListener('input', onMatcherInput);
    service.addEventListener('input', onMatcherInput);
    recurring.addEventListener('change', () => {
      scheduleSet.hidden = !recurring.checked;
      oneOff.hidden = recurring.checked;
      submit.textContent = recurring.checked ? 'Create maintenance window' : 'Create silence';
    });

    // ---- create ----
    const FIELD_INPUT = {
      fingerprint: fp, service, durationMinutes: duration, endsAt: duration, reason, comment,
      'schedule.days': dayBoxes[0], 'schedule.at': at, 'schedule.durationMinutes': windowMin, 'schedule.zone': zone, schedule: dayBoxes[0],
    };

    function invalid(input, message) {
      formError.textContent = message;
      if (input) {
        input.setAttribute('aria-invalid', 'true');
        input.focus();
      }
    }

    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      for (const i of form.querySelectorAll('[aria-invalid]')) i.removeAttribute('aria-invalid');
      formError.textContent = '';
      const body = {};
      const glob = fp.value.trim();
      const svc = service.value.trim();
      if (!glob && !svc) return invalid(fp, 'Enter a fingerprint glob (use * for everything) or a service.');
      if (glob) {
        if (!/^[A-Za-z0-9._:*/-]{1,300}$/.test(glob)) return invalid(fp, 'A fingerprint may use letters, digits, . _ : / - and *.');
        body.fingerprint = glob;
      }
      if (svc) body.service = svc;
      if (recurring.checked) {
        const days = dayBoxes.filter((b) => b.checked).map((b) => b.value);
        if (!days.length) return invalid(dayBoxes[0], 'Choose at least one day.');
        if (!/^([01][0-9]|2[0-3]):[0-5][0-9]$/.test(at.value)) return invalid(at, 'Enter the start time as HH:MM.');
        const w = Number(windowMin.value);
        if (!Number.isInteger(w) || w < 1 || w > 1440) return invalid(windowMin, 'A window lasts 1 to 1440 minutes.');
        if (!zone.value.trim()) return invalid(zone, 'Enter a time zone such as Europe/Paris.');
        body.schedule = { days, at: at.value, durationMinutes: w, zone: zone.value.trim() };
        body.durationMinutes = Number(series.value);
      } else {
        const d = Number(duration.value);
        if (!Number.isInteger(d) || d < 1) return invalid(duration, 'Enter the duration in whole minutes (at least 1).');
        body.durationMinutes = d;
      }
      const r = reason.value.trim();
      if (!r) return invalid(reason, 'A reason is required.');
      body.reason = r;
      if (comment.value.trim()) body.comment = comment.value.trim();

      submit.disabled = true;
      try {
        const created = await V.api('/v1/silences', { method: 'POST', body });
        const st = created && created.state ? created.state : 'active';
        V.notice((recurring.checked ? 'Maintenance window' : 'Silence') + ' created for ' + (glob || 'service ' + svc)
          + (st !== 'active' ? ' (' + st + ': shown under “' + st + '”)' : '') + '.', 'success');
        reason.value = '';
        comment.value = '';
        V.refreshNow();
      } catch (e) {
        if (e.status === 401) return;
        const field = e.body && typeof e.body.field === 'string' ? e.body.field : null;
        invalid(field ? FIELD_INPUT[field] : null, 'Could not create the silence: ' + (e.detail || e.message));
      } finally {
        submit.disabled = false;
      }
    });

    // ---- list rendering ----
    function buildRow(s, now) {
      const stateWord = s.state || 'active';
      const expire = h('button', { type: 'button', class: 'btn btn-small expire-button' }, stateWord === 'pending' ? 'Delete' : 'Expire');
      expire.hidden = !canSilence || stateWord === 'expired' || stateWord === 'deleted';
      expire.addEventListener('click', async () => {
        expire.disabled = true;
        try {
          const res = await V.api('/v1/silences/' + V.enc(s.id), { method: 'DELETE' });
          V.notice((res && res.state === 'deleted' ? 'Deleted the pending silence ' : 'Expired the silence ') + (s.fingerprint || s.service || s.id) + '.', 'success');
          V.refreshNow();
        } catch (e) {
          if (e.status !== 401) V.notice('Could not expire the silence: ' + (e.detail || e.message), 'error');
          expire.disabled = false;
        }
      });
      const reasonCell = h('td', { class: 'reason' }, s.reason || '—',
        s.comment ? h('span', { class: 'comment muted' }, s.comment) : null);
      return h('tr', { dataset: { silenceId: s.id }, class: 'row-' + V.cssToken(stateWord) },
        h('td', null, h('span', { class: 'badge silence-state state-' + V.cssToken(stateWord) }, stateWord)),
        h('th', { scope: 'row' }, matcherNodes(s)),
        h('td', { title: V.dateTime(s.startsAt) }, V.shortTime(s.startsAt), h('span', { class: 'rel muted' }, V.relative(s.startsAt, now))),
        h('td', { title: V.dateTime(s.endsAt) }, V.shortTime(s.endsAt), h('span', { class: 'rel muted' }, V.relative(s.endsAt, now))),
        h('td', null, s.author || '—'),
        reasonCell,
        h('td', null, scheduleText(s.schedule)),
        h('td', { class: 'actions' }, expire));
    }

    function renderList(silences) {
      const now = Date.now();
      const minuteKey = Math.floor(now / 60000);
      if (!silences.length) {
        t.tbody.replaceChildren(V.messageRow(8, memory.state === 'all' ? 'No silences.' : 'No ' + memory.state + ' silences.'));
        cache.clear();
        return;
      }
      const seen = new Set();
      const rows = silences.map((s) => {
        seen.add(s.id);
        const key = JSON.stringify(s) + '|' + minuteKey + '|' + canSilence;
        let entry = cache.get(s.id);
        if (!entry || entry.key !== key) {
          entry = { key, tr: buildRow(s, now) };
          cache.set(s.id, entry);
        }
        return entry.tr;
      });
      for (const k of Array.from(cache.keys())) if (!seen.has(k)) cache.delete(k);
      const cur = t.tbody.children;
      let same = cur.length === rows.length;
      for (let i = 0; same && i < rows.length; i++) if (cur[i] !== rows[i]) same = false;
      if (!same) t.tbody.replaceChildren(...rows);
    }

    filter.addEventListener('change', () => {
      memory.state = filter.value;
      t.tbody.replaceChildren(V.messageRow(8, 'Loading silences…'));
      cache.clear();
      V.refreshNow();
    });

    const ORDER = { active: 0, pending: 1, expired: 2, deleted: 3 };
    async function refresh(signal) {
      const state = memory.state;
      const jobs = [V.api('/v1/silences?state=' + encodeURIComponent(state), { signal })];
      if (canSilence && Date.now() - previewLoaded > PREVIEW_DATA_EVERY_MS) jobs.push(loadPreview(signal));
      const [data] = await Promise.all(jobs);
      if (state !== memory.state) return;
      const list = (data && Array.isArray(data.silences) ? data.silences : []).filter((s) => s && typeof s.id === 'string');
      list.sort((a, b) => (ORDER[a.state] ?? 4) - (ORDER[b.state] ?? 4) || (b.startsAt || 0) - (a.startsAt || 0));
      renderList(list);
      const counts = {};
      for (const s of list) counts[s.state] = (counts[s.state] || 0) + 1;
      setText(listSummary, V.num(list.length) + ' shown' + Object.entries(counts).map(([k, n]) => ' · ' + n + ' ' + k).join(''));
    }

    updatePreview();
    return {
      el,
      title: 'Silences',
      refresh,
      destroy() { cache.clear(); },
      mounted() {
        if (params.query.get('fingerprint') && canSilence) reason.focus();
      },
    };
  }

  V.views.silences = { create };
})(window.Vigil);

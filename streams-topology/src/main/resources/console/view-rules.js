/*
 * Vigil console — metric alert rules: the rules in force (#/rules) and a simple form for one (#/new-rule,
 * #/rules/<id>/edit). The rules in force are the shipped defaults, each replaced by a published rule of the same
 * id, plus the custom ones (GET /v1/rules). Every write is conditional, as in the monitor editor: a new rule with
 * If-None-Match: * (never overwrites one), a replace or a toggle with If-Match and the revision read, so two editors
 * never silently overwrite each other. A shipped rule cannot be deleted: its override can be (the default is back),
 * or it is switched off.
 */
'use strict';

(function (V) {
  const { h, setText } = V;
  const AGGREGATIONS = [
    ['count', 'count of events'], ['sum', 'sum of values'], ['ratio', 'ratio (filtered / all)'],
    ['p95', 'p95 of durations'], ['p99', 'p99 of durations'], ['spike', 'spike (vs the trailing hour)'],
  ];
  const COMPARATORS = [['gt', '> greater than'], ['gte', '≥ at least'], ['lt', '< less than'], ['lte', '≤ at most']];
  const SYMBOL = { gt: '>', gte: '≥', lt: '<', lte: '≤' };
  const SEVERITIES = ['critical', 'warning', 'info'];
  // the aggregations a status filter means something to: which events are counted, or the ratio's numerator
  const FILTERED = new Set(['count', 'ratio', 'spike']);
  const THRESHOLD_HINT = {
    count: 'a number of events', sum: 'a sum of the values', ratio: 'a fraction: 0.05 is 5 %',
    p95: 'in the metric’s unit (ms for http_request)', p99: 'in the metric’s unit (ms for http_request)',
    spike: 'a multiple of the trailing hour’s average, e.g. 3',
  };
  const SOURCE_LABEL = { default: 'shipped', override: 'overridden', custom: 'custom' };
  const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;
  const COLUMNS = [
    { label: 'Rule' }, { label: 'App' }, { label: 'Metric' }, { label: 'Condition' }, { label: 'Severity' },
    { label: 'Enabled' }, { label: 'Source' },
  ];

  function numText(n) {
    return typeof n === 'number' && Number.isFinite(n) ? String(n) : '?';
  }

  /** "p95 > 2500 over 5 min, at least 20 events" — the rule's condition in words. */
  function condition(r) {
    const filter = Array.isArray(r.filter) ? r.filter.join(', ') : '';
    const cmp = SYMBOL[r.comparator] || r.comparator || '?';
    const th = numText(r.threshold);
    let what;
    if (r.aggregation === 'ratio') {
      const pct = typeof r.threshold === 'number' ? ' (' + V.percent(r.threshold * 100, 1) + ')' : '';
      what = 'share of ' + (filter || 'events') + ' ' + cmp + ' ' + th + pct;
    } else if (r.aggregation === 'spike') {
      what = (filter ? filter + ' ' : '') + 'count ' + cmp + ' ' + th + '× the trailing hour’s average';
    } else if (r.aggregation === 'count') {
      what = 'count' + (filter ? ' of ' + filter : '') + ' ' + cmp + ' ' + th;
    } else {
      what = (r.aggregation || '?') + ' ' + cmp + ' ' + th;
    }
    let text = what + ' over ' + numText(r.windowMinutes) + ' min';
    if (typeof r.minEvents === 'number' && r.minEvents > 1) text += ', at least ' + V.num(r.minEvents) + ' events';
    return text;
  }

  function sourceBadge(source) {
    const s = SOURCE_LABEL[source] ? source : 'custom';
    return h('span', { class: 'badge rule-source source-' + s, title: s === 'default' ? 'ships with Vigil'
      : s === 'override' ? 'a shipped rule, changed here' : 'added here' }, SOURCE_LABEL[s]);
  }

  function enabledBadge(on) {
    return h('span', { class: 'badge rule-enabled ' + (on ? 'enabled-on' : 'enabled-off') }, on ? 'enabled' : 'disabled');
  }

  /** The members PUT takes: what GET answers without what the server derives (source, revision). */
  function body(r) {
    const out = {};
    for (const k of ['id', 'appId', 'metricName', 'filter', 'aggregation', 'windowMinutes', 'comparator', 'threshold', 'minEvents', 'severity', 'summary', 'enabled']) {
      if (r[k] !== undefined) out[k] = r[k];
    }
    return out;
  }

  /**
   * The confirmation for Delete (a custom rule) and Restore default (an override): a modal dialog element (no
   * window.confirm) that deletes with If-Match and the revision the list showed.
   */
  function deleteConfirmation(onDone) {
    let rule = null;
    let busy = false;
    const title = h('h2', { id: 'rule-delete-title' });
    const text = h('p', { id: 'rule-delete-text' });
    const error = h('p', { id: 'rule-delete-error', class: 'form-error', role: 'alert' });
    const confirm = h('button', { id: 'rule-delete-confirm', type: 'button', class: 'btn btn-danger' });
    const cancel = h('button', { id: 'rule-delete-cancel', type: 'button', class: 'btn' }, 'Cancel');
    const dialog = h('dialog', { id: 'rule-delete-dialog', class: 'confirm-dialog', 'aria-labelledby': 'rule-delete-title', 'aria-describedby': 'rule-delete-text' },
      title, text, error, h('div', { class: 'form-buttons' }, confirm, cancel));

    function open(r) {
      rule = r;
      const restore = r.source === 'override';
      error.textContent = '';
      setText(title, restore ? 'Restore the shipped rule?' : 'Delete this rule?');
      setText(text, restore
        ? 'Remove the changes made to ' + r.id + ': the rule as Vigil ships it applies again.'
        : 'Delete the rule ' + r.id + '? It stops raising alerts. This cannot be undone (but it can be created again).');
      setText(confirm, restore ? 'Restore default' : 'Delete');
      confirm.disabled = false;
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
      cancel.focus();
    }

    function close() {
      if (dialog.open) dialog.close();
    }

    cancel.addEventListener('click', close);
    confirm.addEventListener('click', async () => {
      if (busy || !rule) return;
      busy = true;
      confirm.disabled = true;
      error.textContent = '';
      const r = rule;
      try {
        await V.apiResponse('/v1/rules/' + V.enc(r.id), { method: 'DELETE', headers: r.revision ? { 'If-Match': r.revision } : {} });
        close();
        V.notice(r.source === 'override' ? 'Restored the shipped rule ' + r.id + '.' : 'Deleted rule ' + r.id + '.', 'success');
        onDone();
      } catch (e) {
        if (e.status === 401) return;
        if (e.status === 412 || e.status === 428 || e.status === 409) {
          error.textContent = 'The rule ' + r.id + ' changed meanwhile, so nothing was removed: the list is reloaded; check it, then try again.';
          onDone();
        } else if (e.status === 404) {
          close();
          V.notice('The rule ' + r.id + ' was already removed.', 'success');
          onDone();
        } else {
          error.textContent = 'Could not remove the rule: ' + (e.detail || e.message);
        }
      } finally {
        busy = false;
        confirm.disabled = false;
      }
    });

    return { el: dialog, open, close };
  }

  // ---- the list ----------------------------------------------------------------------------------------------
  function createList() {
    const canWrite = V.can('rules');
    const columns = canWrite ? COLUMNS.concat([{ label: 'Actions', cls: 'actions' }]) : COLUMNS;
    const summary = h('p', { class: 'muted small', id: 'rules-summary' });
    const t = V.table('Metric alert rules in force', columns, { id: 'rules-table', captionHidden: true });
    t.tbody.appendChild(V.messageRow(columns.length, 'Loading rules…'));
    const newLink = canWrite ? h('a', { id: 'rules-new', class: 'btn btn-primary', href: '#/new-rule' }, 'New rule') : null;
    const dialog = deleteConfirmation(() => V.refreshNow());
    const cache = new Map();
    const el = h('section', { id: 'rules', class: 'view-section', 'aria-labelledby': 'rules-title' },
      h('div', { class: 'view-header' },
        h('div', { class: 'title-block' }, h('h1', { id: 'rules-title' }, 'Rules'), summary),
        h('div', { class: 'header-actions' }, newLink)),
      h('p', { class: 'muted' }, 'Metric alert rules over the events applications report: the shipped rules, each as changed here, and the rules added here.'),
      canWrite ? null : h('p', { class: 'panel' }, 'This token may read rules but not change them (that needs the rules or admin scope).'),
      t.wrap, dialog.el);

    async function toggle(r, button) {
      button.disabled = true;
      const next = Object.assign(body(r), { enabled: r.enabled === false });
      try {
        await V.apiResponse('/v1/rules/' + V.enc(r.id), { method: 'PUT', body: next, headers: { 'If-Match': r.revision || '*' } });
        V.notice((next.enabled ? 'Enabled' : 'Disabled') + ' rule ' + r.id + '.', 'success');
      } catch (e) {
        if (e.status === 401) return;
        if (e.status === 412 || e.status === 428 || e.status === 409) {
          V.notice('The rule ' + r.id + ' changed meanwhile, so it was not switched: the list now shows its current version; check it, then try again.', 'error');
        } else {
          V.notice('Could not switch the rule ' + r.id + ': ' + (e.detail || e.message), 'error');
        }
      } finally {
        button.disabled = false;
        V.refreshNow();
      }
    }

    function row(r) {
      const on = r.enabled !== false;
      const cells = [
        h('th', { scope: 'row' }, h('code', { class: 'rule-id' }, r.id)),
        h('td', { class: 'rule-app' }, r.appId === '*' ? h('span', { title: 'appId *' }, 'every app') : r.appId),
        h('td', { class: 'rule-metric' }, h('code', null, r.metricName || '')),
        h('td', { class: 'rule-condition' }, condition(r)),
        h('td', null, V.severityBadge(r.severity)),
        h('td', null, enabledBadge(on)),
        h('td', null, sourceBadge(r.source)),
      ];
      if (canWrite) {
        const edit = h('a', { class: 'btn btn-small rule-edit', href: '#/rules/' + encodeURIComponent(r.id) + '/edit', 'aria-label': 'Edit ' + r.id }, 'Edit');
        const sw = h('button', { type: 'button', class: 'btn btn-small rule-toggle', 'aria-label': (on ? 'Disable ' : 'Enable ') + r.id }, on ? 'Disable' : 'Enable');
        sw.addEventListener('click', () => toggle(r, sw));
        let remove = null;
        if (r.source === 'custom' || r.source === 'override') {
          const restore = r.source === 'override';
          remove = h('button', { type: 'button', class: 'btn btn-small btn-danger ' + (restore ? 'rule-restore' : 'rule-delete'), 'aria-label': (restore ? 'Restore the shipped ' : 'Delete ') + r.id },
            restore ? 'Restore default…' : 'Delete…');
          remove.addEventListener('click', () => dialog.open(r));
        }
        cells.push(h('td', { class: 'actions' }, h('div', { class: 'row-actions' }, edit, sw, remove)));
      }
      return h('tr', { dataset: { rule: r.id, source: r.source || '' }, class: on ? null : 'rule-off' }, cells);
    }

    async function refresh(signal) {
      const data = await V.api('/v1/rules', { signal });
      const rules = (data && Array.isArray(data.rules) ? data.rules : []).filter((r) => r && typeof r.id === 'string');
      rules.sort((a, b) => a.id.localeCompare(b.id));
      if (!rules.length) {
        t.tbody.replaceChildren(V.messageRow(columns.length, 'No rule is in force.'));
        cache.clear();
      } else {
        const rows = rules.map((r) => {
          const key = JSON.stringify(r);
          let entry = cache.get(r.id);
          if (!entry || entry.key !== key) {
            entry = { key, tr: row(r) };
            cache.set(r.id, entry);
          }
          return entry.tr;
        });
        const cur = t.tbody.children;
        let same = cur.length === rows.length;
        for (let i = 0; same && i < rows.length; i++) if (cur[i] !== rows[i]) same = false;
        if (!same) t.tbody.replaceChildren(...rows);
      }
      const off = rules.filter((r) => r.enabled === false).length;
      const custom = rules.filter((r) => r.source === 'custom').length;
      setText(summary, V.num(rules.length) + ' rules · ' + V.num(off) + ' disabled · ' + V.num(custom) + ' custom');
    }

    return {
      el, title: 'Rules', refresh,
      destroy() {
        dialog.close();
        cache.clear();
      },
    };
  }

  // ---- the form ----------------------------------------------------------------------------------------------
  function createEditor(params) {
    const editId = params.rest[1] === 'edit' ? params.rest[0] || '' : '';
    const mode = editId ? 'edit' : 'new';
    const canWrite = V.can('rules');

    let original = null;
    let etag = null;
    let loaded = !editId;
    let saving = false;

    const titleEl = h('h1', { id: 'rule-editor-title' }, mode === 'edit' ? 'Edit rule' : 'New rule');
    const subtitle = h('p', { class: 'muted', id: 'rule-editor-subtitle' });
    const loading = h('p', { class: 'panel muted', hidden: loaded }, 'Loading the rule…');
    const stale = h('div', { id: 'rule-stale', class: 'stale-box', role: 'alert', hidden: true });
    const formError = h('p', { id: 'rule-form-error', class: 'form-error', role: 'alert' });
    const fieldProblems = V.formProblems(formError);
    const { slot } = fieldProblems;

    const idInput = h('input', { id: 'rule-id', type: 'text', autocomplete: 'off', spellcheck: 'false', maxlength: '63', required: true, pattern: '[a-z0-9][a-z0-9-]{0,62}' });
    const appId = h('input', { id: 'rule-app', type: 'text', autocomplete: 'off', spellcheck: 'false', maxlength: '63', value: '*' });
    const metric = h('input', { id: 'rule-metric', type: 'text', autocomplete: 'off', spellcheck: 'false', maxlength: '64', placeholder: 'http_request' });
    const aggregation = V.select({ id: 'rule-aggregation' }, AGGREGATIONS, 'count');
    const filter = h('input', { id: 'rule-filter', type: 'text', autocomplete: 'off', spellcheck: 'false', placeholder: '5xx, 429' });
    const windowInput = h('input', { id: 'rule-window', type: 'number', min: '1', max: '60', step: '1', inputmode: 'numeric', value: '5' });
    const comparator = V.select({ id: 'rule-comparator' }, COMPARATORS, 'gt');
    const threshold = h('input', { id: 'rule-threshold', type: 'number', step: 'any', inputmode: 'decimal' });
    const minEvents = h('input', { id: 'rule-min-events', type: 'number', min: '0', step: '1', inputmode: 'numeric', value: '1' });
    const severity = V.select({ id: 'rule-severity' }, SEVERITIES, 'warning');
    const summaryInput = h('input', { id: 'rule-summary', type: 'text', autocomplete: 'off', maxlength: '200', placeholder: '{app}: {events} failed checkouts in {window} min' });
    const enabled = h('input', { id: 'rule-enabled', type: 'checkbox', checked: true });
    const conditionLine = h('p', { id: 'rule-condition', class: 'checks-line', 'aria-live': 'polite' });

    const thresholdField = slot('threshold', 'Threshold', threshold, THRESHOLD_HINT.count);
    const filterField = slot('filter', 'Filter (statuses)', filter, 'comma-separated statuses or classes, e.g. 5xx, 429; a ratio needs one');
    const form = h('form', { id: 'rule-form', class: 'panel monitor-form rule-form', novalidate: true, 'aria-labelledby': 'rule-editor-title', hidden: !loaded },
      h('div', { class: 'field-row' },
        mode === 'edit' ? null : slot('id', 'Id', idInput, 'lower-case letters, digits and -; cannot be changed later'),
        slot('appId', 'App', appId, 'an application id, or * for every app'),
        slot('metricName', 'Metric', metric, 'e.g. http_request, dlq_routed'),
        slot('severity', 'Severity', severity)),
      h('fieldset', { class: 'type-set' }, h('legend', null, 'Condition'),
        h('div', { class: 'field-row' },
          slot('aggregation', 'Aggregation', aggregation),
          filterField,
          slot('windowMinutes', 'Window (minutes)', windowInput, '1 to 60'),
          slot('comparator', 'Comparison', comparator),
          thresholdField,
          slot('minEvents', 'At least (events)', minEvents, 'fewer events in the window never fire')),
        conditionLine),
      h('div', { class: 'field-row' },
        h('div', { class: 'field-wide' }, slot('summary', 'Summary', summaryInput, 'the alert’s text, up to 200 characters; {app} {events} {window} {value} {threshold} {percent} are filled in'))),
      h('label', { class: 'check', for: 'rule-enabled' }, enabled, ' Enabled (a disabled rule never fires)'),
      formError,
      h('div', { class: 'form-buttons' },
        h('button', { id: 'rule-save', type: 'submit', class: 'btn btn-primary' }, mode === 'edit' ? 'Save changes' : 'Create rule'),
        h('a', { id: 'rule-cancel', class: 'btn', href: '#/rules' }, 'Cancel')));
    const save = form.querySelector('#rule-save');

    const el = h('section', { id: 'rule-editor', class: 'view-section', dataset: { mode }, 'aria-labelledby': 'rule-editor-title' },
      h('p', { class: 'breadcrumb' }, h('a', { href: '#/rules' }, '← Rules')),
      h('div', { class: 'view-header' }, h('div', { class: 'title-block' }, titleEl, subtitle)),
      canWrite ? null : h('p', { class: 'panel' }, 'This token may read rules but not change them (that needs the rules or admin scope).'),
      stale, loading, canWrite ? form : null);
    if (mode === 'edit') setText(subtitle, editId);

    function showAggregation() {
      filterField.hidden = !FILTERED.has(aggregation.value);
      const hint = thresholdField.querySelector('.hint');
      if (hint) setText(hint, THRESHOLD_HINT[aggregation.value] || '');
      updateCondition();
    }

    function updateCondition() {
      const { m } = build();
      setText(conditionLine, 'Fires when ' + condition(m) + '.');
    }

    aggregation.addEventListener('change', showAggregation);
    form.addEventListener('input', updateCondition);
    form.addEventListener('change', updateCondition);

    function fill(r) {
      appId.value = r.appId || '*';
      metric.value = r.metricName || '';
      aggregation.value = r.aggregation || 'count';
      filter.value = Array.isArray(r.filter) ? r.filter.join(', ') : '';
      windowInput.value = typeof r.windowMinutes === 'number' ? String(r.windowMinutes) : '';
      comparator.value = r.comparator || 'gt';
      threshold.value = typeof r.threshold === 'number' ? String(r.threshold) : '';
      minEvents.value = typeof r.minEvents === 'number' ? String(r.minEvents) : '1';
      severity.value = SEVERITIES.includes(r.severity) ? r.severity : 'warning';
      summaryInput.value = r.summary || '';
      enabled.checked = r.enabled !== false;
      showAggregation();
    }

    async function loadRule(signal) {
      const res = await V.apiResponse('/v1/rules/' + V.enc(editId), { signal });
      original = res.data || {};
      etag = res.etag || original.revision || null;
      loaded = true;
      loading.hidden = true;
      form.hidden = false;
      fill(original);
      const src = original.source;
      setText(subtitle, editId + ' · ' + (src === 'default' ? 'a shipped rule: saving a change publishes an override, which “Restore default” on the list removes again'
        : src === 'override' ? 'a shipped rule, changed here (“Restore default” on the list brings the shipped one back)' : 'a custom rule'));
      V.setTitle('Edit rule ' + editId);
    }

    // ---- problems ----
    function clearProblems() {
      fieldProblems.clear(form);
    }

    /** Marks the input the field path names (windowMinutes, filter[0], threshold…); null if none. */
    function markField(field, problem) {
      return fieldProblems.mark(String(field || '').replace(/\[\d+\]$/, ''), problem);
    }

    function focusFirstProblem() {
      fieldProblems.focusFirst(form);
    }

    // ---- building the rule ----
    function numberOrNull(input, integer) {
      const t = input.value.trim();
      if (!t) return null;
      const n = Number(t);
      return Number.isFinite(n) && (!integer || Number.isInteger(n)) ? n : NaN;
    }

    /** The rule to PUT, and the problems the form can see itself ([[field, problem]]); the bounds are the server's. */
    function build() {
      const problems = [];
      const id = mode === 'edit' ? editId : idInput.value.trim();
      if (mode !== 'edit' && !SLUG.test(id)) problems.push(['id', 'must be 1 to 63 lower-case letters, digits and -, starting with a letter or digit']);
      const m = {
        id,
        appId: appId.value.trim(),
        metricName: metric.value.trim(),
        aggregation: aggregation.value,
        filter: FILTERED.has(aggregation.value) ? filter.value.split(',').map((s) => s.trim()).filter(Boolean) : [],
        windowMinutes: numberOrNull(windowInput, true),
        comparator: comparator.value,
        threshold: numberOrNull(threshold, false),
        minEvents: numberOrNull(minEvents, true),
        severity: severity.value,
        summary: summaryInput.value,
        enabled: enabled.checked,
      };
      if (Number.isNaN(m.windowMinutes)) problems.push(['windowMinutes', 'enter whole minutes']);
      if (Number.isNaN(m.threshold)) problems.push(['threshold', 'enter a number']);
      if (Number.isNaN(m.minEvents)) problems.push(['minEvents', 'enter a whole number of events']);
      return { m, problems };
    }

    // ---- saving ----
    function showStale(text) {
      V.staleBox(stale, {
        text,
        buttonId: 'rule-reload',
        what: 'rule',
        reload: () => loadRule(),
        reloaded: () => {
          clearProblems();
          V.notice('Reloaded ' + editId + ': the form shows its current version.', 'success');
        },
        goneText: 'The rule ' + editId + ' no longer exists.',
        backHref: '#/rules',
        backLabel: 'Back to the rules',
      });
    }

    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      if (saving) return;
      clearProblems();
      stale.hidden = true;
      const { m, problems } = build();
      if (problems.length) {
        const unplaced = [];
        for (const [f, p] of problems) if (!markField(f, p)) unplaced.push(p);
        formError.textContent = 'Check the highlighted field' + (problems.length === 1 ? '' : 's') + (unplaced.length ? ': ' + unplaced.join('; ') : '.');
        focusFirstProblem();
        return;
      }
      const headers = mode === 'edit' ? { 'If-Match': etag || '*' } : { 'If-None-Match': '*' };
      saving = true;
      save.disabled = true;
      try {
        const res = await V.apiResponse('/v1/rules/' + V.enc(m.id), { method: 'PUT', body: m, headers });
        const d = res.data || {};
        etag = res.etag || etag;
        if (res.status === 201) V.notice('Created rule ' + m.id + '.', 'success');
        else if (d.change === 'unchanged') V.notice('No change to save: ' + m.id + ' is as it was.', 'success');
        else V.notice('Saved ' + m.id + (original && original.source === 'default' ? ' (now an override of the shipped rule)' : '') + '.', 'success');
        location.hash = '#/rules';
      } catch (e) {
        if (e.status === 401) return;
        const b = e.body || {};
        if (e.status === 400) {
          const errors = Array.isArray(b.errors) && b.errors.length ? b.errors
            : [{ field: typeof b.field === 'string' ? b.field : '', problem: e.detail }];
          const unplaced = [];
          for (const er of errors) {
            const problem = typeof er.problem === 'string' ? er.problem : e.detail;
            if (!markField(er.field, problem)) unplaced.push((er.field ? er.field + ' ' : '') + problem);
          }
          formError.textContent = 'The server refused this rule' + (unplaced.length ? ': ' + unplaced.join('; ') : ': check the highlighted fields.');
          focusFirstProblem();
        } else if ((e.status === 412 || e.status === 428 || e.status === 409) && mode === 'edit') {
          showStale('Someone changed this rule meanwhile, so your save was not applied (' + (e.detail || e.title) + '). Reload it, then make your change again.');
        } else if (e.status === 412) {
          markField('id', 'a rule with this id already exists: choose another id (or edit that rule)');
          formError.textContent = 'Not created: ' + (e.detail || e.title);
          focusFirstProblem();
        } else {
          formError.textContent = 'Could not save the rule: ' + (e.detail || e.message);
        }
      } finally {
        saving = false;
        save.disabled = false;
      }
    });

    // the rule is read once: a live refresh would overwrite what is being typed
    let notFound = false;
    async function refresh(signal) {
      if (!canWrite || loaded || notFound) return;
      try {
        await loadRule(signal);
      } catch (e) {
        if (e.status !== 404) throw e;
        notFound = true;
        setText(loading, 'There is no rule with the id “' + editId + '”. ' + (e.detail || ''));
      }
    }

    showAggregation();
    return { el, title: mode === 'edit' ? 'Edit rule' : 'New rule', refresh };
  }

  V.views.rules = { create: createList };
  V.views.ruleEditor = { create: createEditor };
})(window.Vigil);

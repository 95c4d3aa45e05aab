/*
 * Vigil console — the monitor editor: a new monitor (#/new-monitor, or #/new-monitor?from=<id> to duplicate one) and
 * an existing monitor's edit (#/monitors/<id>/edit). Saves with PUT /v1/monitors/<id>: a new monitor with
 * If-None-Match: * (never overwrites one), an edit with If-Match and the revision it read, so two editors never
 * silently overwrite each other. Members of a definition the form does not show (links, component, JSON
 * assertions, a TCP banner…) are kept as they were read.
 */
'use strict';

(function (V) {
  const { h, setText } = V;
  const TYPES = [
    ['http', 'HTTP request'], ['tcp', 'TCP connect'], ['dns', 'DNS lookup'], ['tls', 'TLS certificate'],
    ['heartbeat', 'Heartbeat (a job pings Vigil)'],
  ];
  const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
  const SEVERITIES = ['critical', 'warning', 'info'];
  const RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS'];
  const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;
  const DAY_SECONDS = 86400;
  // the contract's bounds (MonitorDefinition): timeouts of 1 to 30 s, always shorter than the interval
  const MIN_TIMEOUT_MS = 1000;
  const MAX_TIMEOUT_MS = 30000;
  const DEFAULT_INTERVAL = 60;
  const DEFAULT_TIMEOUT_MS = 2500;
  const DEFAULT_STATUS_CODES = '200-399';

  /** 10, 20, 30 s; 1 to 15 min by minute; 20 to 60 min by 5 minutes (the contract allows 10 s to 1 h). */
  function intervalChoices() {
    const out = [10, 20, 30];
    for (let m = 1; m <= 15; m++) out.push(m * 60);
    for (let m = 20; m <= 60; m += 5) out.push(m * 60);
    return out;
  }

  function intervalLabel(s) {
    return s < 60 ? s + ' s' : s <= 3600 && s % 60 === 0 ? (s / 60) + ' min' : V.duration(s * 1000);
  }

  function clone(o) {
    return o === undefined ? undefined : JSON.parse(JSON.stringify(o));
  }

  function create(params) {
    const editId = params.rest[1] === 'edit' ? params.rest[0] || '' : '';
    const fromId = editId ? '' : params.query.get('from') || '';
    const mode = editId ? 'edit' : fromId ? 'duplicate' : 'new';
    const sourceId = editId || fromId;
    const canWrite = V.can('monitors');

    let original = null; // the definition read (edit, duplicate)
    let etag = null; // its revision, sent back in If-Match
    let loaded = !sourceId;
    let regionRows = new Map(); // region → {row, box, info, data}
    let regionDefaultsApplied = false;
    let lastSent = null;
    let saving = false;

    const title = mode === 'edit' ? 'Edit monitor' : mode === 'duplicate' ? 'Duplicate monitor' : 'New monitor';
    const titleEl = h('h1', { id: 'editor-title' }, title);
    const subtitle = h('p', { class: 'muted' });
    const loading = h('p', { class: 'panel muted', hidden: loaded }, 'Loading the monitor…');
    const stale = h('div', { id: 'me-stale', class: 'stale-box', role: 'alert', hidden: true });
    const formError = h('p', { id: 'me-form-error', class: 'form-error', role: 'alert' });

    // ---- fields (each with a slot for the problem the server or the form finds in it) ----
    const fieldProblems = V.formProblems(formError);
    const { slots, slot, describe, show } = fieldProblems;

    const idInput = h('input', { id: 'me-id', type: 'text', autocomplete: 'off', spellcheck: 'false', maxlength: '63', required: true, pattern: '[a-z0-9][a-z0-9-]{0,62}' });
    const name = h('input', { id: 'me-name', type: 'text', autocomplete: 'off', maxlength: '200' });
    const service = h('input', { id: 'me-service', type: 'text', autocomplete: 'off', spellcheck: 'false', maxlength: '100' });
    const severity = V.select({ id: 'me-severity' }, SEVERITIES, 'critical');
    const type = V.select({ id: 'me-type' }, TYPES, 'http');

    const url = h('input', { id: 'me-url', type: 'url', autocomplete: 'off', spellcheck: 'false', maxlength: '2048', placeholder: 'https://shop.example.com/health' });
    const method = V.select({ id: 'me-method' }, METHODS, 'GET');
    const body = h('textarea', { id: 'me-body', rows: '3', spellcheck: 'false', maxlength: '65536' });
    const statusCodes = h('input', { id: 'me-status-codes', type: 'text', autocomplete: 'off', spellcheck: 'false', value: DEFAULT_STATUS_CODES });
    const headerList = h('div', { id: 'me-headers', class: 'header-list' });
    const addHeader = h('button', { type: 'button', id: 'me-add-header', class: 'btn btn-small' }, 'Add header');
    const headerRows = []; // {row, nameInput, kind, value, msg}

    const tcpHost = h('input', { id: 'me-tcp-host', type: 'text', autocomplete: 'off', spellcheck: 'false' });
    const tcpPort = h('input', { id: 'me-tcp-port', type: 'number', min: '1', max: '65535', step: '1', inputmode: 'numeric' });
    const dnsQuery = h('input', { id: 'me-dns-query', type: 'text', autocomplete: 'off', spellcheck: 'false', placeholder: 'example.com' });
    const dnsType = V.select({ id: 'me-dns-type' }, RECORD_TYPES, 'A');
    const dnsResolver = h('input', { id: 'me-dns-resolver', type: 'text', autocomplete: 'off', spellcheck: 'false', placeholder: '9.9.9.9 or [2620:fe::fe]:53' });
    const tlsHost = h('input', { id: 'me-tls-host', type: 'text', autocomplete: 'off', spellcheck: 'false' });
    const tlsPort = h('input', { id: 'me-tls-port', type: 'number', min: '1', max: '65535', step: '1', inputmode: 'numeric', value: '443' });
    const hbSchedule = h('input', { id: 'me-hb-schedule', type: 'text', autocomplete: 'off', spellcheck: 'false', placeholder: '0 3 * * *' });
    const hbZone = h('input', { id: 'me-hb-zone', type: 'text', autocomplete: 'off', spellcheck: 'false', value: 'UTC', list: 'me-zones' });
    const hbGrace = h('input', { id: 'me-hb-grace', type: 'number', min: '0', max: '86400', step: '1', inputmode: 'numeric', value: '60' });
    const hbRotate = h('input', { id: 'me-hb-rotate', type: 'checkbox' });
    const zones = h('datalist', { id: 'me-zones' });
    try {
      if (Intl.supportedValuesOf) for (const z of Intl.supportedValuesOf('timeZone')) zones.appendChild(h('option', { value: z }));
    } catch (e) {
      /* older browsers: free text */
    }

    const interval = V.select({ id: 'me-interval' }, intervalChoices().map((s) => [String(s), intervalLabel(s)]), String(DEFAULT_INTERVAL));
    const timeout = h('input', { id: 'me-timeout', type: 'number', min: String(MIN_TIMEOUT_MS), max: String(MAX_TIMEOUT_MS), step: '100', inputmode: 'numeric', value: String(DEFAULT_TIMEOUT_MS) });
    const regionList = h('div', { id: 'me-regions', class: 'region-checks', role: 'group', 'aria-labelledby': 'me-regions-legend' },
      h('p', { class: 'muted small' }, 'Loading regions…'));
    const regionProblem = h('p', { class: 'field-problem', id: 'me-regions-problem', hidden: true });
    const regionSet = h('fieldset', { class: 'regions-set' }, h('legend', { id: 'me-regions-legend' }, 'Regions'), regionList, regionProblem);
    slots.set('regions', { wrap: regionSet, control: null, msg: regionProblem });
    const pushNote = h('p', { class: 'muted small', hidden: true },
      'A heartbeat monitor is pushed to by its job, not probed: it has no regions (its results come from pings).');
    const checks = h('p', { id: 'me-checks', class: 'checks-line', 'aria-live': 'polite' });

    const idField = slot('id', 'Id', idInput, 'lower-case letters, digits and -; cannot be changed later');
    const common = h('div', { class: 'field-row' },
      mode === 'edit' ? null : idField,
      slot('name', 'Name', name, 'shown in the fleet and in alerts (default: the id)'),
      slot('service', 'Service', service, 'groups monitors; routes and silences match it (default: the id)'),
      slot('severity', 'Severity', severity),
      slot('type', 'Check type', type));

    const httpSet = h('fieldset', { class: 'type-set', dataset: { type: 'http' } }, h('legend', null, 'HTTP request'),
      h('div', { class: 'field-row' }, h('div', { class: 'field-wide' }, slot('url', 'URL', url)), slot('method', 'Method', method),
        slot('statusCodes', 'Expected status codes', statusCodes, 'comma-separated codes or ranges, e.g. 200-299, 301')),
      h('div', { class: 'headers-block' }, h('h3', null, 'Request headers'),
        h('p', { class: 'hint' }, 'A credential is never typed here: choose “secret from env” and name the variable the probe worker reads it from (sent over https only).'),
        headerList, addHeader),
      slot('body', 'Request body (POST, PUT, PATCH, DELETE, OPTIONS)', body));
    const tcpSet = h('fieldset', { class: 'type-set', dataset: { type: 'tcp' } }, h('legend', null, 'TCP connect'),
      h('div', { class: 'field-row' }, slot('tcp.host', 'Host', tcpHost), slot('tcp.port', 'Port', tcpPort)));
    const dnsSet = h('fieldset', { class: 'type-set', dataset: { type: 'dns' } }, h('legend', null, 'DNS lookup'),
      h('div', { class: 'field-row' }, slot('dns.query', 'Query (name)', dnsQuery), slot('dns.recordType', 'Record type', dnsType),
        slot('dns.resolver', 'Resolver (optional)', dnsResolver, 'an IP address, optionally with :port; empty: the system’s')));
    const tlsSet = h('fieldset', { class: 'type-set', dataset: { type: 'tls' } }, h('legend', null, 'TLS certificate'),
      h('div', { class: 'field-row' }, slot('tls.host', 'Host', tlsHost), slot('tls.port', 'Port', tlsPort)));
    const hbSet = h('fieldset', { class: 'type-set', dataset: { type: 'heartbeat' } }, h('legend', null, 'Heartbeat'),
      h('div', { class: 'field-row' },
        slot('heartbeat.schedule', 'Schedule (cron, optional)', hbSchedule, 'five fields, e.g. 0 3 * * *; empty: one ping per interval'),
        slot('heartbeat.zone', 'Time zone', hbZone, 'IANA id, e.g. Europe/Paris'),
        slot('heartbeat.graceSeconds', 'Grace (seconds)', hbGrace, 'how late a ping may be')),
      mode === 'edit' ? h('label', { class: 'check', for: 'me-hb-rotate' }, hbRotate, ' Issue a new ping token (the old one stops working)') : null,
      zones);
    const typeSets = [httpSet, tcpSet, dnsSet, tlsSet, hbSet];

    const scheduleSet = h('fieldset', { class: 'schedule-set' }, h('legend', null, 'How often and from where'),
      h('div', { class: 'field-row' },
        slot('intervalSeconds', 'Interval', interval),
        slot('timeoutMs', 'Timeout (ms)', timeout, 'shorter than the interval; 1000 to 30000')),
      regionSet, pushNote, checks);

    const save = h('button', { id: 'me-save', type: 'submit', class: 'btn btn-primary' }, mode === 'edit' ? 'Save changes' : 'Create monitor');
    const cancel = h('a', { id: 'me-cancel', class: 'btn', href: mode === 'new' ? '#/fleet' : '#/monitors/' + encodeURIComponent(sourceId) }, 'Cancel');
    const form = h('form', { id: 'monitor-form', class: 'panel monitor-form', novalidate: true, 'aria-labelledby': 'editor-title', hidden: !loaded },
      common, typeSets, scheduleSet, formError, h('div', { class: 'form-buttons' }, save, cancel));

    const tokenPanel = h('section', { id: 'me-token', class: 'panel token-panel', hidden: true, 'aria-labelledby': 'me-token-title' });

    const el = h('section', { id: 'monitor-editor', class: 'view-section', dataset: { mode }, 'aria-labelledby': 'editor-title' },
      h('p', { class: 'breadcrumb' }, mode === 'new' ? h('a', { href: '#/fleet' }, '← Fleet')
        : h('a', { href: '#/monitors/' + encodeURIComponent(sourceId) }, '← ' + sourceId)),
      h('div', { class: 'view-header' }, h('div', { class: 'title-block' }, titleEl, subtitle)),
      canWrite ? null : h('p', { class: 'panel' }, 'This token may read monitors but not change them (that needs the monitors or admin scope).'),
      stale, loading, canWrite ? form : null, tokenPanel);
    if (mode === 'edit') setText(subtitle, sourceId);
    else if (mode === 'duplicate') setText(subtitle, 'A copy of ' + sourceId + ' under a new id');

    // ---- headers ----
    function addHeaderRow(headerName, value) {
      const isSecret = value && typeof value === 'object';
      const nameInput = h('input', { type: 'text', class: 'header-name', 'aria-label': 'Header name', autocomplete: 'off', spellcheck: 'false', maxlength: '64', value: headerName || '' });
      const kind = V.select({ class: 'header-kind', 'aria-label': 'Header value kind' },
        [['value', 'value'], ['secretEnv', 'secret from env']], isSecret ? 'secretEnv' : 'value');
      const valueInput = h('input', { type: 'text', class: 'header-value', 'aria-label': 'Header value', autocomplete: 'off', spellcheck: 'false', maxlength: '1024',
        value: isSecret ? (value.secretEnv || '') : (value || '') });
      const remove = h('button', { type: 'button', class: 'btn btn-small btn-quiet header-remove' }, 'Remove');
      const msg = h('p', { class: 'field-problem', hidden: true });
      const row = h('div', { class: 'header-row' }, nameInput, kind, valueInput, remove, msg);
      const entry = { row, nameInput, kind, valueInput, msg };
      function placeholder() {
        valueInput.placeholder = kind.value === 'secretEnv' ? 'HEALTH_TOKEN' : 'value';
        valueInput.setAttribute('aria-label', kind.value === 'secretEnv' ? 'Environment variable holding the value' : 'Header value');
      }
      placeholder();
      kind.addEventListener('change', placeholder);
      remove.addEventListener('click', () => {
        headerRows.splice(headerRows.indexOf(entry), 1);
        row.remove();
        addHeader.focus();
      });
      headerRows.push(entry);
      headerList.appendChild(row);
      return entry;
    }
    addHeader.addEventListener('click', () => addHeaderRow('', '').nameInput.focus());

    // ---- regions ----
    function regionInfo(r) {
      if (!r) return 'not reported by any worker';
      const live = typeof r.liveWorkers === 'number' ? r.liveWorkers : 0;
      return (r.state || 'unknown') + ' · ' + V.num(live) + ' live worker' + (live === 1 ? '' : 's');
    }

    function ensureRegionRow(region, data) {
      let entry = regionRows.get(region);
      if (!entry) {
        const boxId = 'me-region-' + V.cssToken(region);
        const box = h('input', { type: 'checkbox', name: 'me-region', value: region, id: boxId });
        const info = h('span', { class: 'region-info muted' });
        const state = h('span', { class: 'badge region-state' });
        const row = h('label', { class: 'check region-check', for: boxId, dataset: { region } }, box, h('span', { class: 'region-name' }, region), state, info);
        entry = { row, box, info, state, data: null };
        regionRows.set(region, entry);
        const sorted = Array.from(regionRows.keys()).sort();
        const next = sorted[sorted.indexOf(region) + 1];
        regionList.insertBefore(row, next ? regionRows.get(next).row : null);
      }
      entry.data = data || entry.data;
      const st = entry.data ? entry.data.state || 'unknown' : 'unknown';
      setText(entry.state, st);
      entry.state.className = 'badge region-state region-' + V.cssToken(st);
      const live = entry.data && typeof entry.data.liveWorkers === 'number' ? entry.data.liveWorkers : 0;
      setText(entry.info, V.num(live) + ' live worker' + (live === 1 ? '' : 's'));
      entry.row.title = region + ': ' + regionInfo(entry.data);
      return entry;
    }

    function renderRegions(list) {
      const first = regionList.querySelector('p');
      if (first) first.remove();
      for (const r of list) if (r && typeof r.region === 'string' && r.region !== 'push' && r.region !== 'drill') ensureRegionRow(r.region, r);
      if (!regionRows.size) regionList.replaceChildren(h('p', { class: 'muted small' }, 'No probe worker has reported a region yet.'));
      if (!regionDefaultsApplied && loaded) {
        regionDefaultsApplied = true;
        if (!original) for (const e of regionRows.values()) e.box.checked = !!(e.data && e.data.state === 'serving');
      }
      updateChecks();
    }

    function checkedRegions() {
      return Array.from(regionRows.values()).filter((e) => e.box.checked).map((e) => e.box.value);
    }

    // ---- type switching and the live checks-per-day line ----
    function showType() {
      const t = type.value;
      for (const s of typeSets) s.hidden = s.dataset.type !== t;
      regionSet.hidden = t === 'heartbeat';
      pushNote.hidden = t !== 'heartbeat';
      updateChecks();
    }

    function updateChecks() {
      const secs = Number(interval.value);
      if (type.value === 'heartbeat') {
        setText(checks, 'Expected target checks per day: 0 (a heartbeat monitor is not probed: its job pings Vigil; a window of '
          + intervalLabel(secs) + (hbSchedule.value.trim() ? ' or the cron schedule' : '') + ' without a ping is a failure).');
        return;
      }
      const n = secs > 0 ? Math.floor(checkedRegions().length * DAY_SECONDS / secs) : 0;
      setText(checks, 'Expected target checks per day: ' + V.num(n));
    }

    type.addEventListener('change', showType);
    form.addEventListener('input', updateChecks);
    form.addEventListener('change', updateChecks);

    // ---- filling from a definition ----
    function setIntervalValue(secs) {
      const v = String(secs || DEFAULT_INTERVAL);
      if (!Array.from(interval.options).some((o) => o.value === v)) {
        interval.appendChild(h('option', { value: v }, intervalLabel(Number(v)) + ' (current)'));
      }
      interval.value = v;
    }

    function fill(m, asCopy) {
      if (asCopy) {
        const copyId = (m.id + '-copy').slice(0, 63);
        idInput.value = copyId;
        name.value = (m.name && m.name !== m.id ? m.name : m.id) + ' (copy)';
      } else {
        name.value = m.name || '';
      }
      service.value = m.service || '';
      severity.value = SEVERITIES.includes(m.severity) ? m.severity : 'critical';
      type.value = m.type || 'http';
      url.value = m.url || '';
      method.value = m.method || 'GET';
      body.value = m.body || '';
      const codes = m.expect && Array.isArray(m.expect.statusCodes) ? m.expect.statusCodes : [];
      statusCodes.value = codes.length ? codes.join(', ') : DEFAULT_STATUS_CODES;
      headerRows.splice(0).forEach((r) => r.row.remove());
      for (const [k, v] of Object.entries(m.headers || {})) addHeaderRow(k, v);
      tcpHost.value = m.tcp ? m.tcp.host || '' : '';
      tcpPort.value = m.tcp && m.tcp.port ? String(m.tcp.port) : '';
      dnsQuery.value = m.dns ? m.dns.query || '' : '';
      dnsType.value = m.dns && m.dns.recordType ? m.dns.recordType : 'A';
      dnsResolver.value = m.dns ? m.dns.resolver || '' : '';
      tlsHost.value = m.tls ? m.tls.host || '' : '';
      tlsPort.value = m.tls && m.tls.port ? String(m.tls.port) : '443';
      hbSchedule.value = m.heartbeat ? m.heartbeat.schedule || '' : '';
      hbZone.value = m.heartbeat && m.heartbeat.zone ? m.heartbeat.zone : 'UTC';
      hbGrace.value = m.heartbeat && typeof m.heartbeat.graceSeconds === 'number' ? String(m.heartbeat.graceSeconds) : '60';
      hbRotate.checked = false;
      setIntervalValue(m.intervalSeconds);
      timeout.value = String(m.timeoutMs || DEFAULT_TIMEOUT_MS);
      const wanted = new Set(m.type === 'heartbeat' ? [] : (Array.isArray(m.regions) ? m.regions : []));
      for (const r of wanted) ensureRegionRow(r, null);
      for (const e of regionRows.values()) e.box.checked = wanted.has(e.box.value);
      regionDefaultsApplied = true;
      showType();
    }

    async function loadDefinition(signal) {
      const res = await V.apiResponse('/v1/monitors/' + V.enc(sourceId) + '/definition', { signal });
      original = res.data || {};
      etag = res.etag;
      loaded = true;
      loading.hidden = true;
      form.hidden = false;
      fill(original, mode === 'duplicate');
      if (mode === 'edit') {
        setText(titleEl, 'Edit ' + (original.name || sourceId));
        V.setTitle('Edit ' + (original.name || sourceId));
      }
    }

    // ---- problems ----
    function clearProblems() {
      fieldProblems.clear(form);
      for (const r of regionList.querySelectorAll('.check-invalid')) r.classList.remove('check-invalid');
      for (const r of headerRows) {
        r.row.classList.remove('field-invalid');
        r.msg.hidden = true;
        r.msg.textContent = '';
      }
    }

    /** Marks the input the field path names (id, url, timeoutMs, regions[0], headers.X-Y, tcp.host…); false if none. */
    function markField(field, problem, sent) {
      const f = String(field || '');
      let m = /^regions\[(\d+)\]$/.exec(f);
      if (m || f === 'regions') {
        const s = slots.get('regions');
        s.wrap.classList.add('field-invalid');
        const region = m && sent && Array.isArray(sent.regions) ? sent.regions[Number(m[1])] : null;
        const entry = region ? regionRows.get(region) : null;
        if (entry) {
          entry.row.classList.add('check-invalid');
          describe(entry.box, s.msg);
        }
        show(s.msg, (region ? region + ': ' : '') + problem);
        return s.msg;
      }
      if (f === 'headers' || f.startsWith('headers.')) {
        const rest = f.slice('headers.'.length);
        let best = null;
        for (const r of headerRows) {
          const n = r.nameInput.value.trim();
          if (n && (rest === n || rest.startsWith(n + '.')) && (!best || n.length > best.nameInput.value.trim().length)) best = r;
        }
        if (best) {
          best.row.classList.add('field-invalid');
          best.msg.id = best.msg.id || 'me-header-problem-' + headerRows.indexOf(best);
          describe(rest === best.nameInput.value.trim() && /name/.test(problem) ? best.nameInput : best.valueInput, best.msg);
          show(best.msg, problem);
          return best.msg;
        }
        return null;
      }
      let key = f;
      if (key.startsWith('expect.statusCodes') || key === 'expect') key = 'statusCodes';
      if (key === 'tcp') key = 'tcp.host';
      if (key === 'dns') key = 'dns.query';
      if (key === 'tls') key = 'tls.host';
      if (key === 'heartbeat') key = 'heartbeat.schedule';
      while (!slots.has(key) && key.includes('.')) key = key.slice(0, key.lastIndexOf('.'));
      if (key === 'tcp' || key === 'dns' || key === 'tls' || key === 'heartbeat') key += key === 'dns' ? '.query' : key === 'heartbeat' ? '.schedule' : '.host';
      if (mode === 'edit' && key === 'id') return null;
      return fieldProblems.mark(key, problem);
    }

    function focusFirstProblem() {
      fieldProblems.focusFirst(form);
    }

    // ---- building the definition ----
    function intOrNull(input) {
      const t = input.value.trim();
      if (!t) return null;
      const n = Number(t);
      return Number.isInteger(n) ? n : NaN;
    }

    /** The definition to PUT, and the problems the form can see itself ([[field, problem]]). */
    function build() {
      const problems = [];
      const t = type.value;
      // start from what was read so members the form does not show survive the edit (or the copy)
      const m = original ? clone(original) : {};
      for (const k of ['id', 'url', 'method', 'headers', 'body', 'tcp', 'dns', 'tls', 'heartbeat', 'regions', 'revision', 'checksPerDay']) delete m[k];
      const id = mode === 'edit' ? editId : idInput.value.trim();
      if (mode !== 'edit' && !SLUG.test(id)) problems.push(['id', 'must be 1 to 63 lower-case letters, digits and -, starting with a letter or digit']);
      m.id = id;
      const nm = name.value.trim();
      if (nm) m.name = nm;
      else delete m.name;
      const svc = service.value.trim();
      if (svc) m.service = svc;
      else delete m.service;
      m.severity = severity.value;
      m.type = t;
      const secs = Number(interval.value);
      m.intervalSeconds = secs;
      const tm = intOrNull(timeout);
      if (tm === null || Number.isNaN(tm)) problems.push(['timeoutMs', 'enter the timeout in whole milliseconds']);
      else if (tm < MIN_TIMEOUT_MS || tm > MAX_TIMEOUT_MS) problems.push(['timeoutMs', 'must be between ' + MIN_TIMEOUT_MS + ' and ' + MAX_TIMEOUT_MS]);
      else if (tm >= secs * 1000) problems.push(['timeoutMs', 'must be shorter than the interval (' + intervalLabel(secs) + ' = ' + V.num(secs * 1000) + ' ms)']);
      m.timeoutMs = tm;
      const expect = m.expect && typeof m.expect === 'object' ? m.expect : null;
      if (t === 'http') {
        const u = url.value.trim();
        if (!/^https?:\/\/[^/]/i.test(u)) problems.push(['url', 'enter an absolute http:// or https:// URL']);
        m.url = u;
        m.method = method.value;
        const headers = {};
        for (const r of headerRows) {
          const hn = r.nameInput.value.trim();
          const hv = r.valueInput.value;
          if (!hn && !hv.trim()) continue;
          if (!hn) {
            problems.push(['headers.', 'a header needs a name']);
            continue;
          }
          headers[hn] = r.kind.value === 'secretEnv' ? { secretEnv: hv.trim() } : hv;
        }
        if (Object.keys(headers).length) m.headers = headers;
        if (body.value) m.body = body.value;
        const codes = statusCodes.value.split(',').map((s) => s.trim()).filter(Boolean);
        const isDefault = codes.length === 0 || (codes.length === 1 && codes[0] === DEFAULT_STATUS_CODES);
        if (expect) {
          expect.statusCodes = codes.length ? codes : [DEFAULT_STATUS_CODES];
          m.expect = expect;
        } else if (!isDefault) {
          // without expect the server picks defaults for the URL (a /health path also checks its JSON status)
          m.expect = { statusCodes: codes };
        }
      } else {
        // only a response-time bound applies to the other types
        if (expect && typeof expect.maxResponseMs === 'number') m.expect = { maxResponseMs: expect.maxResponseMs };
        else delete m.expect;
        const prev = original && original.type === t ? original[t] || {} : {};
        if (t === 'tcp') {
          m.tcp = Object.assign({}, prev, { host: tcpHost.value.trim(), port: intOrNull(tcpPort) });
          if (!m.tcp.host) problems.push(['tcp.host', 'enter a host name or an IP address']);
          if (!Number.isInteger(m.tcp.port) || m.tcp.port < 1 || m.tcp.port > 65535) problems.push(['tcp.port', 'enter a port from 1 to 65535']);
        } else if (t === 'dns') {
          m.dns = Object.assign({}, prev, { query: dnsQuery.value.trim(), recordType: dnsType.value });
          if (dnsResolver.value.trim()) m.dns.resolver = dnsResolver.value.trim();
          else delete m.dns.resolver;
          if (!m.dns.query) problems.push(['dns.query', 'enter the name to resolve']);
        } else if (t === 'tls') {
          m.tls = Object.assign({}, prev, { host: tlsHost.value.trim(), port: intOrNull(tlsPort) === null ? 443 : intOrNull(tlsPort) });
          if (!m.tls.host) problems.push(['tls.host', 'enter a host name or an IP address']);
          if (!Number.isInteger(m.tls.port) || m.tls.port < 1 || m.tls.port > 65535) problems.push(['tls.port', 'enter a port from 1 to 65535']);
        } else if (t === 'heartbeat') {
          const hb = Object.assign({}, prev);
          delete hb.hasToken;
          delete hb.tokenSha256;
          if (hbSchedule.value.trim()) hb.schedule = hbSchedule.value.trim();
          else delete hb.schedule;
          hb.zone = hbZone.value.trim() || 'UTC';
          const g = intOrNull(hbGrace);
          hb.graceSeconds = g === null ? 60 : g;
          if (!Number.isInteger(hb.graceSeconds) || hb.graceSeconds < 0 || hb.graceSeconds > 86400) problems.push(['heartbeat.graceSeconds', 'enter 0 to 86400 seconds']);
          m.heartbeat = hb;
        }
      }
      if (t !== 'heartbeat') {
        m.regions = checkedRegions();
        if (!m.regions.length) problems.push(['regions', 'choose at least one region']);
      }
      return { m, problems };
    }

    // ---- saving ----
    function showStale(text) {
      V.staleBox(stale, {
        text,
        buttonId: 'me-reload',
        what: 'monitor',
        reload: () => loadDefinition(),
        reloaded: () => {
          clearProblems();
          V.notice('Reloaded ' + sourceId + ': the form shows its current version.', 'success');
        },
        goneText: 'The monitor ' + sourceId + ' no longer exists (it was deleted).',
        backHref: '#/fleet',
        backLabel: 'Back to the fleet',
      });
    }

    function showToken(id, hb) {
      const token = hb.pingToken || '';
      const where = hb.pingUrl || hb.pingPath || '';
      const copy = h('button', { type: 'button', class: 'btn btn-small', id: 'me-copy-token' }, 'Copy token');
      copy.addEventListener('click', () => {
        V.copyText(token).then(() => V.notice('Ping token copied.', 'success'),
          () => V.notice('Could not copy: select the token and copy it by hand.', 'error'));
      });
      tokenPanel.replaceChildren(
        h('h2', { id: 'me-token-title' }, 'Ping token for ' + id),
        h('p', { class: 'once-note', role: 'alert' }, 'This token is shown only once: Vigil keeps only its hash. Copy it now into the job that pings.'),
        V.append(h('dl', { class: 'kv token-kv' }),
          [h('div', { class: 'kv-item' }, h('dt', null, 'Ping token'), h('dd', null, h('code', { id: 'me-ping-token', class: 'break' }, token))),
            h('div', { class: 'kv-item' }, h('dt', null, hb.pingUrl ? 'Ping URL' : 'Ping path (on ingest)'), h('dd', null, h('code', { id: 'me-ping-url', class: 'break' }, where)))]),
        h('p', { class: 'small muted' }, 'When it finishes, the job sends a POST to ' + (hb.pingUrl ? 'the ping URL' : 'this path on the ingest service')
          + ' with the header Authorization: Bearer <token>.'),
        h('div', { class: 'form-buttons' }, copy, h('a', { class: 'btn btn-primary', id: 'me-token-done', href: '#/monitors/' + encodeURIComponent(id) }, 'I have copied it: go to the monitor')));
      form.hidden = true;
      tokenPanel.hidden = false;
      tokenPanel.querySelector('h2').setAttribute('tabindex', '-1');
      tokenPanel.querySelector('h2').focus();
    }

    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      if (saving) return;
      clearProblems();
      stale.hidden = true;
      const { m, problems } = build();
      if (problems.length) {
        const unplaced = [];
        for (const [f, p] of problems) if (!markField(f, p, m)) unplaced.push(p);
        formError.textContent = 'Check the highlighted field' + (problems.length === 1 ? '' : 's') + (unplaced.length ? ': ' + unplaced.join('; ') : '.');
        focusFirstProblem();
        return;
      }
      const headers = mode === 'edit' ? { 'If-Match': etag || '*' } : { 'If-None-Match': '*' };
      const query = mode === 'edit' && m.type === 'heartbeat' && hbRotate.checked ? '?rotateToken=true' : '';
      lastSent = m;
      saving = true;
      save.disabled = true;
      try {
        const res = await V.apiResponse('/v1/monitors/' + V.enc(m.id) + query, { method: 'PUT', body: m, headers });
        const d = res.data || {};
        etag = res.etag || etag;
        const target = d.target && d.target.verdict && d.target.verdict !== 'allowed'
          ? ' Target check: ' + d.target.verdict + (d.target.detail ? ' (' + d.target.detail + ')' : '') + '.' : '';
        if (d.heartbeat && d.heartbeat.pingToken) {
          V.notice((res.status === 201 ? 'Created ' : 'Saved ') + m.id + '. Copy its ping token now: it is shown only once.', 'success');
          showToken(m.id, d.heartbeat);
          return;
        }
        if (res.status === 201) V.notice('Created monitor ' + m.id + ' (' + V.num(d.checksPerDay) + ' target checks per day).' + target, 'success');
        else if (d.change === 'unchanged') V.notice('No change to save: ' + m.id + ' is as it was.', 'success');
        else V.notice('Saved ' + m.id + (Array.isArray(d.changedFields) && d.changedFields.length ? ' (changed: ' + d.changedFields.join(', ') + ')' : '') + '.' + target, 'success');
        location.hash = '#/monitors/' + encodeURIComponent(m.id);
      } catch (e) {
        if (e.status === 401) return;
        const b = e.body || {};
        if (e.status === 400) {
          const errors = Array.isArray(b.errors) && b.errors.length ? b.errors
            : [{ field: typeof b.field === 'string' ? b.field : '', problem: e.detail }];
          const unplaced = [];
          for (const er of errors) {
            const problem = typeof er.problem === 'string' ? er.problem : e.detail;
            if (!markField(er.field, problem, lastSent)) unplaced.push((er.field ? er.field + ' ' : '') + problem);
          }
          formError.textContent = 'The server refused this monitor' + (unplaced.length ? ': ' + unplaced.join('; ') : ': check the highlighted fields.');
          focusFirstProblem();
        } else if ((e.status === 412 || e.status === 428 || e.status === 409) && mode === 'edit') {
          showStale('Someone changed this monitor meanwhile, so your save was not applied (' + (e.detail || e.title) + ').');
        } else if (e.status === 412) {
          markField('id', 'a monitor with this id already exists: choose another id (or edit that monitor)', m);
          formError.textContent = 'Not created: ' + (e.detail || e.title);
          focusFirstProblem();
        } else {
          formError.textContent = 'Could not save the monitor: ' + (e.detail || e.message);
        }
      } finally {
        saving = false;
        save.disabled = false;
      }
    });

    // ---- live updates: region states and workers; the definition is read once ----
    let notFound = false;
    async function refresh(signal) {
      if (!canWrite || notFound) return;
      const jobs = [];
      if (!loaded) {
        jobs.push(loadDefinition(signal).catch((e) => {
          if (e.status !== 404) throw e;
          notFound = true;
          loading.hidden = false;
          setText(loading, 'There is no monitor with the id “' + sourceId + '”. ' + (e.detail || ''));
        }));
      }
      const [regions] = await Promise.all([V.api('/v1/regions', { signal })].concat(jobs));
      renderRegions(regions && Array.isArray(regions.regions) ? regions.regions : []);
    }

    showType();
    return { el, title, refresh };
  }

  V.views.editor = { create };
})(window.Vigil);

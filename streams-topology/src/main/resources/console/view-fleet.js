/*
 * Vigil console — the fleet grid (#/fleet). Built for 10,000 monitors: the list is sorted and filtered in memory and
 * only one page of rows (100) is in the DOM; rows are cached per monitor and rebuilt only when their data changed.
 */
'use strict';

(function (V) {
  const { h, setText } = V;
  const PAGE_SIZE = 100;
  const FILTERS = [
    ['all', 'All monitors'],
    ['problems', 'Not up (down, degraded, unknown)'],
    ['down', 'Down'],
    ['degraded', 'Degraded'],
    ['unknown', 'Unknown'],
    ['pending', 'Pending'],
    ['up', 'Up'],
    ['alerting', 'With an open alert'],
    ['disabled', 'Disabled'],
  ];
  const COLUMNS = [
    { label: 'Status' }, { label: 'Monitor' }, { label: 'Type' }, { label: 'Service' }, { label: 'Regions' },
    { label: 'Alert' }, { label: 'Last verdict' },
  ];
  const REGION_LABEL = V.OUTCOME_LABEL;

  // kept across navigations so "back" from a monitor returns to the same page and filter
  const memory = { search: '', filter: 'all', page: 0 };

  function matchesFilter(m, filter) {
    switch (filter) {
      case 'all': return true;
      case 'problems': return m._status === 'down' || m._status === 'degraded' || m._status === 'unknown';
      case 'alerting': return !!m.alert;
      case 'disabled': return m.enabled === false;
      default: return m._status === filter;
    }
  }

  function regionDots(m) {
    const wrap = h('span', { class: 'region-dots' });
    const entries = [];
    const regions = m.regions && typeof m.regions === 'object' ? m.regions : {};
    for (const [region, r] of Object.entries(regions)) {
      const outcome = typeof r === 'string' ? r : (r && r.outcome) || 'missing';
      entries.push([region, outcome]);
    }
    if (Array.isArray(m.missingRegions)) {
      for (const region of m.missingRegions) if (!(region in regions)) entries.push([region, 'missing']);
    }
    entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    for (const [region, outcome] of entries) {
      const label = region + ': ' + (REGION_LABEL[outcome] ? outcome : outcome);
      wrap.appendChild(h('span', {
        class: 'region-dot dot-' + V.cssToken(outcome),
        dataset: { region },
        role: 'img',
        'aria-label': label,
        title: label,
      }));
    }
    if (!entries.length) wrap.appendChild(h('span', { class: 'muted' }, '—'));
    return wrap;
  }

  function alertCell(m) {
    const td = h('td', { class: 'alert-col' });
    const a = m.alert;
    if (!a) {
      td.appendChild(h('span', { class: 'muted' }, '—'));
      return td;
    }
    td.appendChild(V.severityBadge(a.severity));
    td.appendChild(document.createTextNode(' '));
    td.appendChild(h('span', { class: 'badge phase phase-' + V.cssToken(a.state || '') }, a.state || 'open'));
    td.appendChild(h('span', { class: 'alert-summary-inline', title: a.summary || '' }, a.summary || a.fingerprint || ''));
    const marks = h('span', { class: 'marks' });
    if (a.acknowledgedBy) marks.appendChild(h('span', { class: 'mark ack-mark' }, 'acknowledged by ' + a.acknowledgedBy));
    if (a.silenced) marks.appendChild(h('span', { class: 'mark silence-mark' }, 'silenced'));
    if (marks.firstChild) td.appendChild(marks);
    return td;
  }

  function rowKey(m) {
    return JSON.stringify([m._status, m.name, m.type, m.service, m.enabled, m.regions, m.missingRegions, m.alert]);
  }

  function buildRow(m) {
    const id = m.monitorId;
    const link = h('a', { class: 'monitor-link', href: '#/monitors/' + encodeURIComponent(id) },
      h('span', { class: 'monitor-name' }, m.name || id));
    const nameCell = h('th', { scope: 'row', class: 'monitor-cell' }, link, h('span', { class: 'monitor-id' }, id));
    const statusCell = h('td', null, V.statusBadge(m._status),
      m.enabled === false ? h('span', { class: 'tag' }, 'disabled') : null);
    const ageCell = h('td', { class: 'age' });
    const tr = h('tr', { dataset: { monitor: id }, class: 'row-' + V.cssToken(m._status) },
      statusCell, nameCell, h('td', null, m.type || '—'), h('td', null, m.service || '—'),
      h('td', null, regionDots(m)), alertCell(m), ageCell);
    return { tr, ageCell, key: rowKey(m) };
  }

  function create() {
    const search = h('input', {
      id: 'fleet-search', type: 'search', placeholder: 'id, name or service', autocomplete: 'off', spellcheck: 'false',
      value: memory.search,
    });
    const filter = V.select({ id: 'fleet-filter' }, FILTERS, memory.filter);
    const counts = h('div', { id: 'fleet-counts', class: 'counts', role: 'group', 'aria-label': 'Monitors by status' });
    const prev = h('button', { type: 'button', id: 'fleet-prev', class: 'btn btn-small' }, '‹ Previous');
    const next = h('button', { type: 'button', id: 'fleet-next', class: 'btn btn-small' }, 'Next ›');
    const range = h('span', { id: 'fleet-range', class: 'pager-range', 'aria-live': 'polite' });
    const pager = h('div', { class: 'pager' }, prev, range, next);
    const t = V.table('Monitors', COLUMNS, { cls: 'fleet-table', captionHidden: true });
    t.tbody.appendChild(V.messageRow(COLUMNS.length, 'Loading monitors…'));
    const generated = h('p', { class: 'muted small' });

    // the editor is offered to tokens that may write monitors (unknown scopes: the server decides)
    const newMonitor = V.can('monitors')
      ? h('a', { id: 'fleet-new', class: 'btn btn-primary', href: '#/new-monitor' }, 'New monitor') : null;
    const el = h('section', { id: 'fleet', class: 'view-section', 'aria-labelledby': 'fleet-title' },
      h('div', { class: 'view-header' }, h('div', { class: 'title-line' }, h('h1', { id: 'fleet-title' }, 'Fleet'), generated),
        newMonitor ? h('div', { class: 'header-actions' }, newMonitor) : null),
      counts,
      h('form', { class: 'toolbar', role: 'search', novalidate: true },
        V.field('Search', search), V.field('Show', filter)),
      t.wrap,
      pager);
    el.querySelector('form.toolbar').addEventListener('submit', (e) => e.preventDefault());

    let monitors = []; // sorted
    let filtered = [];
    const cache = new Map();
    let loaded = false;

    function applyFilter() {
      const q = memory.search.trim().toLowerCase();
      const f = memory.filter;
      filtered = monitors.filter((m) => matchesFilter(m, f) && (!q || m._hay.includes(q)));
    }

    // one button per status, built once and updated in place (focus survives live updates)
    const countButtons = [['all', 'total']].concat(V.STATUSES.map((st) => [st, st])).map(([f, label]) => {
      const n = h('span', { class: 'count-n' }, '–');
      const b = h('button', {
        type: 'button',
        class: 'count count-' + V.cssToken(label),
        'aria-pressed': 'false',
        dataset: { filter: f, status: label },
      }, n, h('span', { class: 'count-label' }, label));
      b.addEventListener('click', () => {
        memory.filter = memory.filter === f && f !== 'all' ? 'all' : f;
        filter.value = memory.filter;
        memory.page = 0;
        applyFilter();
        render();
        markActiveCount();
      });
      counts.appendChild(b);
      return { f, n };
    });

    function renderCounts(data) {
      const c = data.counts && typeof data.counts === 'object' ? data.counts : {};
      for (const { f, n } of countButtons) {
        const value = f === 'all' ? monitors.length
          : typeof c[f] === 'number' ? c[f] : monitors.filter((m) => m._status === f).length;
        setText(n, V.num(value));
      }
    }

    function markActiveCount() {
      for (const b of counts.querySelectorAll('button.count')) {
        const on = b.dataset.filter === memory.filter;
        b.classList.toggle('count-active', on);
        b.setAttribute('aria-pressed', String(on));
      }
    }

    function render() {
      if (!loaded) return;
      const pages = Math.max(1, Math.ceil(filtered.length / PAGE_SIZE));
      if (memory.page >= pages) memory.page = pages - 1;
      if (memory.page < 0) memory.page = 0;
      const start = memory.page * PAGE_SIZE;
      const slice = filtered.slice(start, start + PAGE_SIZE);
      const now = Date.now();
      const rows = slice.map((m) => {
        let entry = cache.get(m.monitorId);
        const key = rowKey(m);
        if (!entry || entry.key !== key) {
          entry = buildRow(m);
          cache.set(m.monitorId, entry);
        }
        setText(entry.ageCell, m.decidedAt ? V.relative(m.decidedAt, now) : '—');
        entry.ageCell.title = m.decidedAt ? V.dateTime(m.decidedAt) : '';
        return entry.tr;
      });
      if (!rows.length) {
        const msg = monitors.length === 0 ? 'No monitors are configured yet.' : 'No monitor matches this search and filter.';
        t.tbody.replaceChildren(V.messageRow(COLUMNS.length, msg));
      } else {
        const current = t.tbody.children;
        let same = current.length === rows.length;
        for (let i = 0; same && i < rows.length; i++) if (current[i] !== rows[i]) same = false;
        if (!same) t.tbody.replaceChildren(...rows);
      }
      setText(range, filtered.length
        ? V.num(start + 1) + '–' + V.num(start + slice.length) + ' of ' + V.num(filtered.length)
          + (filtered.length !== monitors.length ? ' (filtered from ' + V.num(monitors.length) + ')' : '')
        : '0 of ' + V.num(monitors.length));
      prev.disabled = memory.page === 0;
      next.disabled = memory.page >= pages - 1;
      pager.hidden = filtered.length <= PAGE_SIZE;
    }

    const onSearch = V.debounce(() => {
      memory.search = search.value;
      memory.page = 0;
      applyFilter();
      render();
    }, 150);
    search.addEventListener('input', onSearch);
    filter.addEventListener('change', () => {
      memory.filter = filter.value;
      memory.page = 0;
      applyFilter();
      render();
      markActiveCount();
    });
    prev.addEventListener('click', () => {
      memory.page -= 1;
      render();
    });
    next.addEventListener('click', () => {
      memory.page += 1;
      render();
    });

    async function refresh(signal) {
      const data = await V.api('/v1/status', { signal });
      const list = Array.isArray(data && data.monitors) ? data.monitors : [];
      monitors = list.filter((m) => m && typeof m.monitorId === 'string').map((m) => {
        const status = V.statusOf(m);
        m._status = status;
        m._rank = V.STATUS_ORDER[status] ?? 2;
        m._hay = (m.monitorId + ' ' + (m.name || '') + ' ' + (m.service || '')).toLowerCase();
        return m;
      });
      monitors.sort((a, b) => a._rank - b._rank || (a.monitorId < b.monitorId ? -1 : a.monitorId > b.monitorId ? 1 : 0));
      if (cache.size > 3000) cache.clear();
      loaded = true;
      applyFilter();
      renderCounts(data || {});
      render();
      setText(generated, (data && data.instances ? data.instances + ' instance' + (data.instances === 1 ? '' : 's') + ' · ' : '')
        + V.num(monitors.length) + ' monitors');
    }

    markActiveCount();
    return { el, title: 'Fleet', refresh, destroy() { cache.clear(); } };
  }

  V.views.fleet = { create };
})(window.Vigil);

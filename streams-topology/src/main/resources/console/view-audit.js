/*
 * Vigil console — the audit log (#/audit, admin): changes of the last 24 hours, newest first.
 */
'use strict';

(function (V) {
  const { h, setText } = V;
  const COLUMNS = [{ label: 'Time' }, { label: 'Actor' }, { label: 'Action' }, { label: 'Target' }, { label: 'From' }, { label: 'Details' }];

  function create() {
    const search = h('input', { id: 'audit-search', type: 'search', placeholder: 'actor, action or target', autocomplete: 'off' });
    const summary = h('p', { class: 'muted small' });
    const truncated = h('p', { class: 'warning', hidden: true }, 'More changes happened in this range than are shown.');
    const t = V.table('Audit log, last 24 hours', COLUMNS, { id: 'audit-table', captionHidden: true });
    t.tbody.appendChild(V.messageRow(COLUMNS.length, 'Loading the audit log…'));
    const toolbar = h('form', { class: 'toolbar', role: 'search', novalidate: true }, V.field('Search', search));
    toolbar.addEventListener('submit', (e) => e.preventDefault());
    const el = h('section', { id: 'audit', class: 'view-section', 'aria-labelledby': 'audit-title' },
      h('div', { class: 'view-header' }, h('h1', { id: 'audit-title' }, 'Audit log'), summary),
      toolbar, truncated, t.wrap);

    let records = [];
    const cache = new Map();

    function render() {
      const q = search.value.trim().toLowerCase();
      const list = q ? records.filter((r) => (r.actor + ' ' + r.action + ' ' + r.target + ' ' + (r.remoteAddress || '')).toLowerCase().includes(q)) : records;
      if (!list.length) {
        t.tbody.replaceChildren(V.messageRow(COLUMNS.length, records.length ? 'No change matches this search.' : 'No change in the last 24 hours.'));
        return;
      }
      const rows = list.slice(0, 1000).map((r) => {
        const key = r.id || JSON.stringify(r);
        let tr = cache.get(key);
        if (!tr) {
          const details = h('ul', { class: 'details-list' });
          for (const [k, v] of Object.entries(r.details && typeof r.details === 'object' ? r.details : {})) {
            details.appendChild(h('li', null, h('span', { class: 'muted' }, k + ': '), String(v)));
          }
          tr = h('tr', { class: 'audit-row', dataset: { auditId: r.id || '' } },
            h('td', { title: V.dateTime(r.at) }, V.dateTime(r.at)),
            h('td', null, r.actor || '—'),
            h('td', null, h('code', null, r.action || '—')),
            h('th', { scope: 'row' }, h('code', { class: 'break' }, r.target || '—')),
            h('td', null, r.remoteAddress || '—'),
            h('td', null, details.firstChild ? details : '—'));
          cache.set(key, tr);
        }
        return tr;
      });
      const cur = t.tbody.children;
      let same = cur.length === rows.length;
      for (let i = 0; same && i < rows.length; i++) if (cur[i] !== rows[i]) same = false;
      if (!same) t.tbody.replaceChildren(...rows);
    }

    search.addEventListener('input', V.debounce(render, 120));

    async function refresh(signal) {
      const to = Date.now();
      const from = to - 24 * 3600000;
      const data = await V.api('/v1/audit?from=' + from + '&to=' + to, { signal });
      records = (data && Array.isArray(data.records) ? data.records : []).filter((r) => r && typeof r === 'object').slice().reverse();
      truncated.hidden = !(data && data.truncated);
      setText(summary, V.num(records.length) + ' changes in the last 24 hours' + (records.length > 1000 ? ' (showing the newest 1,000)' : ''));
      render();
    }

    return { el, title: 'Audit log', refresh, destroy() { cache.clear(); } };
  }

  V.views.audit = { create };
})(window.Vigil);

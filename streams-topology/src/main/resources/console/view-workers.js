/*
 * Vigil console — probe workers by region (#/workers): counts per health in each region and one row per worker.
 */
'use strict';

(function (V) {
  const { h, setText } = V;
  const HEALTHS = ['healthy', 'warn', 'stale', 'dead'];
  const HEALTH_ORDER = { dead: 0, stale: 1, warn: 2, healthy: 3 };
  const COLUMNS = [
    { label: 'Worker' }, { label: 'Region' }, { label: 'Health' }, { label: 'Since' }, { label: 'Last heartbeat' },
    { label: 'Heartbeat age', cls: 'num' }, { label: 'In flight', cls: 'num' }, { label: 'Monitors', cls: 'num' }, { label: 'Version' },
  ];

  function healthBadge(hl) {
    return h('span', { class: 'badge health health-' + V.cssToken(hl || 'unknown') }, hl || 'unknown');
  }

  function create() {
    const regionsEl = h('div', { class: 'region-cards', id: 'worker-regions' });
    const summary = h('p', { class: 'muted small' });
    const t = V.table('Probe workers', COLUMNS, { id: 'workers-table', captionHidden: true });
    t.tbody.appendChild(V.messageRow(COLUMNS.length, 'Loading workers…'));
    const el = h('section', { id: 'workers', class: 'view-section', 'aria-labelledby': 'workers-title' },
      h('div', { class: 'view-header' }, h('h1', { id: 'workers-title' }, 'Workers'), summary),
      h('h2', { class: 'visually-hidden' }, 'By region'), regionsEl,
      h('h2', null, 'Workers'), t.wrap);
    const cache = new Map();

    function renderRegions(regions) {
      const names = Object.keys(regions).sort();
      if (!names.length) {
        regionsEl.replaceChildren(h('p', { class: 'muted' }, 'No region has reported a worker yet.'));
        return;
      }
      regionsEl.replaceChildren(...names.map((r) => {
        const c = regions[r] || {};
        const worst = HEALTHS.slice().reverse().find((x) => c[x] > 0) || 'healthy';
        return h('section', { class: 'region-card card-' + V.cssToken(worst), 'aria-label': 'Region ' + r, dataset: { region: r } },
          h('h3', null, r),
          h('ul', { class: 'health-counts' }, HEALTHS.map((x) =>
            h('li', { class: 'hc hc-' + x + (c[x] ? '' : ' hc-zero') }, h('span', { class: 'hc-n' }, V.num(c[x] || 0)), ' ', healthBadge(x)))));
      }));
    }

    async function refresh(signal) {
      const data = await V.api('/v1/workers', { signal });
      const workers = (data && Array.isArray(data.workers) ? data.workers : []).filter((w) => w && typeof w.workerId === 'string');
      let regions = data && data.regions && typeof data.regions === 'object' ? data.regions : null;
      if (!regions) {
        regions = {};
        for (const w of workers) {
          regions[w.region] = regions[w.region] || {};
          regions[w.region][w.health] = (regions[w.region][w.health] || 0) + 1;
        }
      }
      renderRegions(regions);
      workers.sort((a, b) => String(a.region).localeCompare(String(b.region))
        || (HEALTH_ORDER[a.health] ?? 4) - (HEALTH_ORDER[b.health] ?? 4) || String(a.workerId).localeCompare(String(b.workerId)));
      const now = Date.now();
      if (!workers.length) {
        t.tbody.replaceChildren(V.messageRow(COLUMNS.length, 'No probe worker has sent a heartbeat.'));
      } else {
        const rows = workers.map((w) => {
          const key = JSON.stringify([w.region, w.health, w.healthSince, w.inFlight, w.monitorsAssigned, w.version]);
          let entry = cache.get(w.workerId);
          if (!entry || entry.key !== key) {
            const since = h('td');
            const last = h('td');
            const age = h('td', { class: 'num' });
            entry = {
              key, since, last, age,
              tr: h('tr', { dataset: { worker: w.workerId }, class: 'row-' + V.cssToken(w.health || '') },
                h('th', { scope: 'row' }, h('code', null, w.workerId)), h('td', null, w.region || '—'), h('td', null, healthBadge(w.health)),
                since, last, age, h('td', { class: 'num' }, V.num(w.inFlight)), h('td', { class: 'num' }, V.num(w.monitorsAssigned)),
                h('td', null, w.version || '—')),
            };
            cache.set(w.workerId, entry);
          }
          setText(entry.since, V.relative(w.healthSince, now));
          entry.since.title = V.dateTime(w.healthSince);
          setText(entry.last, V.relative(w.lastHeartbeatAt, now));
          entry.last.title = V.dateTime(w.lastHeartbeatAt);
          setText(entry.age, V.duration(w.heartbeatAgeMs));
          return entry.tr;
        });
        const cur = t.tbody.children;
        let same = cur.length === rows.length;
        for (let i = 0; same && i < rows.length; i++) if (cur[i] !== rows[i]) same = false;
        if (!same) t.tbody.replaceChildren(...rows);
      }
      const healthy = workers.filter((w) => w.health === 'healthy').length;
      setText(summary, V.num(workers.length) + ' workers · ' + V.num(healthy) + ' healthy · ' + Object.keys(regions).length + ' regions');
    }

    return { el, title: 'Workers', refresh, destroy() { cache.clear(); } };
  }

  V.views.workers = { create };
})(window.Vigil);

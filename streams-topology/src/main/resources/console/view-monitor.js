/*
 * Vigil console — one monitor (#/monitors/<id>): definition, per-region last results, response-time chart (p50/p95
 * of the regions' response times per window, last 24 h), 90-day uptime bar, alerts and incidents with actions.
 */
'use strict';

(function (V) {
  const { h, setText } = V;
  const HISTORY_EVERY_MS = 60000;
  const UPTIME_EVERY_MS = 300000;
  const ALL_ALERTS_EVERY_MS = 60000;
  const DAY_MS = 86400000;

  function dl(pairs) {
    const list = h('dl', { class: 'kv' });
    for (const [k, v] of pairs) {
      if (v === undefined || v === null || v === '') continue;
      list.appendChild(h('div', { class: 'kv-item' }, h('dt', null, k), h('dd', null, v)));
    }
    return list;
  }

  function flat(obj, prefix, out) {
    for (const [k, v] of Object.entries(obj || {})) {
      const key = prefix ? prefix + '.' + k : k;
      if (v && typeof v === 'object' && !Array.isArray(v)) flat(v, key, out);
      else out.push([key, Array.isArray(v) ? v.join(', ') : String(v)]);
    }
    return out;
  }

  function uptimeClass(p) {
    if (typeof p !== 'number') return 'nodata';
    if (p >= 99.95) return 'full';
    if (p >= 99) return 'good';
    if (p >= 95) return 'warn';
    return 'bad';
  }

  /**
   * The delete confirmation: a modal dialog element (no window.confirm). It reads the monitor's revision when it
   * opens and deletes with If-Match, so a monitor someone changed meanwhile is not deleted unseen.
   */
  function deleteConfirmation(id) {
    let etag = null;
    let busy = false;
    const title = h('h2', { id: 'monitor-delete-title' }, 'Delete this monitor?');
    const text = h('p', { id: 'monitor-delete-text' });
    const error = h('p', { id: 'monitor-delete-error', class: 'form-error', role: 'alert' });
    const confirm = h('button', { id: 'monitor-delete-confirm', type: 'button', class: 'btn btn-danger' }, 'Delete');
    const cancel = h('button', { id: 'monitor-delete-cancel', type: 'button', class: 'btn' }, 'Cancel');
    const dialog = h('dialog', { id: 'monitor-delete-dialog', class: 'confirm-dialog', 'aria-labelledby': 'monitor-delete-title', 'aria-describedby': 'monitor-delete-text' },
      title, text,
      h('p', { class: 'small muted' }, 'Its probes stop, it leaves the fleet and its open incidents resolve; its verdict history and uptime expire with retention. This cannot be undone (but it can be created again).'),
      error, h('div', { class: 'form-buttons' }, confirm, cancel));

    async function readRevision() {
      const res = await V.apiResponse('/v1/monitors/' + V.enc(id) + '/definition');
      etag = res.etag;
    }

    async function open(label) {
      error.textContent = '';
      setText(text, 'Delete ' + label + (label !== id ? ' (' + id + ')' : '') + '?');
      confirm.disabled = true;
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
      cancel.focus();
      try {
        await readRevision();
        confirm.disabled = false;
      } catch (e) {
        if (e.status !== 401) error.textContent = e.status === 404 ? 'This monitor no longer exists.' : 'Could not read the monitor: ' + (e.detail || e.message);
      }
    }

    function close() {
      if (dialog.open) dialog.close();
    }

    cancel.addEventListener('click', close);
    confirm.addEventListener('click', async () => {
      if (busy) return;
      busy = true;
      confirm.disabled = true;
      error.textContent = '';
      try {
        await V.apiResponse('/v1/monitors/' + V.enc(id), { method: 'DELETE', headers: etag ? { 'If-Match': etag } : {} });
        close();
        V.notice('Deleted monitor ' + id + '.', 'success');
        location.hash = '#/fleet';
      } catch (e) {
        if (e.status === 401) return;
        if (e.status === 412 || e.status === 409) {
          // read the new revision so a second click deletes what the page now shows
          error.textContent = 'Someone changed this monitor meanwhile; it was not deleted. The page now shows its current version: check it, then delete again.';
          V.refreshNow();
          try {
            await readRevision();
          } catch (e2) {
            /* the next click reports it */
          }
        } else if (e.status === 404) {
          close();
          V.notice('The monitor ' + id + ' was already deleted.', 'success');
          location.hash = '#/fleet';
          return;
        } else {
          error.textContent = 'Could not delete the monitor: ' + (e.detail || e.message);
        }
      } finally {
        busy = false;
        confirm.disabled = !etag;
      }
    });

    return { el: dialog, open, close };
  }

  function create(params) {
    const id = params.rest[0] || '';
    const fingerprints = new Set(['monitor/' + id, 'monitor/' + id + '/no-data', 'monitor/' + id + '/tls']);

    const nameEl = h('h1', { id: 'monitor-name' }, id);
    const statusHolder = h('span', { class: 'detail-status' });
    const silenceLink = h('a', { class: 'btn btn-small', href: '#/silences?fingerprint=' + encodeURIComponent('monitor/' + id) }, 'Silence this monitor…');
    const subtitle = h('p', { class: 'muted' }, h('code', null, id));
    const defHolder = h('div');
    const latestMeta = h('p', { class: 'muted small' });
    const regions = V.table('Latest result per region', [
      { label: 'Region' }, { label: 'Outcome' }, { label: 'Error' }, { label: 'HTTP status', cls: 'num' }, { label: 'Response', cls: 'num' },
      { label: 'Phases' },
    ], { cls: 'regions-table', captionHidden: true });
    regions.tbody.appendChild(V.messageRow(6, 'Loading…'));

    const rtChart = h('div', { id: 'rt-chart', class: 'chart-box', 'aria-hidden': 'true' });
    const rtSummary = h('p', { class: 'chart-summary' }, 'Loading response times…');

    const uptimeOverall = h('p', { id: 'uptime-overall', class: 'uptime-overall' }, 'Loading uptime…');
    const uptimeBar = h('div', { id: 'uptime-bar', class: 'uptime-bar', role: 'group', 'aria-label': 'Uptime per day, last 90 days (UTC days)' });
    const uptimeLegend = h('p', { class: 'legend small muted' },
      h('span', { class: 'legend-item' }, h('span', { class: 'uptime-swatch up-full' }), '≥ 99.95 %'),
      h('span', { class: 'legend-item' }, h('span', { class: 'uptime-swatch up-good' }), '≥ 99 %'),
      h('span', { class: 'legend-item' }, h('span', { class: 'uptime-swatch up-warn' }), '≥ 95 %'),
      h('span', { class: 'legend-item' }, h('span', { class: 'uptime-swatch up-bad' }), '< 95 %'),
      h('span', { class: 'legend-item' }, h('span', { class: 'uptime-swatch up-nodata' }), 'no data'),
      h('span', { class: 'legend-item' }, h('span', { class: 'uptime-swatch up-good maint' }), 'maintenance'));
    const maintenanceList = h('div', { class: 'maintenance' });

    const inc = V.table('Alerts and incidents of this monitor', V.alertColumns, { id: 'incidents', cls: 'alerts-table', captionHidden: true });
    inc.tbody.appendChild(V.messageRow(V.alertColumns.length, 'Loading…'));
    const alertRows = new Map();

    const recent = V.table('Recent windows', [{ label: 'Window' }, { label: 'Status' }, { label: 'Regions' }, { label: 'Complete' }, { label: 'Decided' }],
      { cls: 'recent-table', captionHidden: true });

    const body = h('div', { class: 'detail-body' },
      h('section', { class: 'panel', 'aria-labelledby': 'def-title' }, h('h2', { id: 'def-title' }, 'Definition'), defHolder),
      h('section', { class: 'panel', 'aria-labelledby': 'latest-title' }, h('h2', { id: 'latest-title' }, 'Latest result'), latestMeta, regions.wrap),
      h('section', { class: 'panel panel-wide', 'aria-labelledby': 'rt-title' },
        h('h2', { id: 'rt-title' }, 'Response time, last 24 hours'), rtSummary, rtChart),
      h('section', { class: 'panel panel-wide', 'aria-labelledby': 'uptime-title' },
        h('h2', { id: 'uptime-title' }, 'Uptime, last 90 days'), uptimeOverall, uptimeBar,
        h('div', { class: 'uptime-axis small muted', 'aria-hidden': 'true' }, h('span', null, '90 days ago'), h('span', null, 'today')),
        uptimeLegend, maintenanceList),
      h('section', { class: 'panel panel-wide', 'aria-labelledby': 'inc-title' },
        h('h2', { id: 'inc-title' }, 'Alerts and incidents'), inc.wrap),
      h('section', { class: 'panel panel-wide', 'aria-labelledby': 'recent-title' },
        h('h2', { id: 'recent-title' }, 'Recent windows'), recent.wrap));

    // editing is offered to tokens that may write monitors; Vigil's own monitors only to admins (as the server rules)
    const canEdit = V.can('monitors') && (!id.startsWith('vigil-') || V.can('admin'));
    const editLink = h('a', { id: 'monitor-edit', class: 'btn btn-small', href: '#/monitors/' + encodeURIComponent(id) + '/edit' }, 'Edit');
    const duplicateLink = h('a', { id: 'monitor-duplicate', class: 'btn btn-small', href: '#/new-monitor?from=' + encodeURIComponent(id) }, 'Duplicate');
    const deleteButton = h('button', { id: 'monitor-delete', type: 'button', class: 'btn btn-small btn-danger' }, 'Delete…');
    const editActions = [editLink, duplicateLink, deleteButton];
    const deleteDialog = deleteConfirmation(id);
    deleteButton.addEventListener('click', () => deleteDialog.open(nameEl.textContent || id));

    const notFound = h('p', { class: 'panel', hidden: true });
    const el = h('section', { id: 'monitor-detail', class: 'view-section', dataset: { monitorId: id }, 'aria-labelledby': 'monitor-name' },
      h('p', { class: 'breadcrumb' }, h('a', { href: '#/fleet' }, '← Fleet')),
      h('div', { class: 'view-header' }, h('div', { class: 'title-block' }, h('div', { class: 'title-line' }, nameEl, statusHolder), subtitle),
        h('div', { class: 'header-actions' }, silenceLink, editActions)),
      notFound, body, deleteDialog.el);
    silenceLink.hidden = !V.can('silence');
    for (const a of editActions) a.hidden = !canEdit;

    let chart = null;
    let lastHistory = 0;
    let lastUptime = 0;
    let lastAll = 0;
    let allAlerts = []; // this monitor's records from state=all
    let destroyed = false;

    function renderDefinition(detail) {
      const m = detail.monitor;
      if (!m) {
        defHolder.replaceChildren(h('p', { class: 'muted' }, 'The definition of this monitor is not known (it may have been removed).'));
        return;
      }
      const extra = [];
      for (const k of ['method', 'headers', 'bodyBytes', 'tcp', 'dns', 'tls', 'heartbeat']) {
        if (m[k] === undefined || m[k] === null) continue;
        if (typeof m[k] === 'object' && !Array.isArray(m[k])) flat(m[k], k, extra);
        else extra.push([k, Array.isArray(m[k]) ? m[k].join(', ') : String(m[k])]);
      }
      defHolder.replaceChildren(dl([
        ['Type', m.type],
        ['Target', m.target ? h('code', { class: 'break' }, m.target) : null],
        ['Service', m.service],
        ['Severity', m.severity ? V.severityBadge(m.severity) : null],
        ['Interval', m.intervalSeconds ? V.duration(m.intervalSeconds * 1000) : null],
        ['Timeout', m.timeoutMs ? V.num(m.timeoutMs) + ' ms' : null],
        ['Regions', Array.isArray(m.regions) ? m.regions.join(', ') : null],
        ['Enabled', m.enabled === false ? 'no (disabled)' : 'yes'],
      ].concat(extra)));
    }

    function renderLatest(s) {
      if (!s) {
        statusHolder.replaceChildren(V.statusBadge('pending'));
        setText(latestMeta, 'No verdict yet: the first window has not been decided.');
        regions.tbody.replaceChildren(V.messageRow(5, 'No results yet.'));
        return;
      }
      V.clear(statusHolder);
      V.append(statusHolder, [V.statusBadge(V.statusOf(s)), s.complete === false ? h('span', { class: 'tag' }, 'incomplete') : null]);
      setText(latestMeta, 'Window of ' + V.dateTime(s.windowStart) + ' · decided ' + V.relative(s.decidedAt)
        + (Array.isArray(s.missingRegions) && s.missingRegions.length ? ' · missing: ' + s.missingRegions.join(', ') : ''));
      const rows = [];
      const regs = s.regions && typeof s.regions === 'object' ? s.regions : {};
      for (const region of Object.keys(regs).sort()) {
        const r = regs[region] || {};
        rows.push(h('tr', { class: 'region-result', dataset: { region } },
          h('th', { scope: 'row' }, region),
          h('td', null, V.outcomeBadge(r.outcome)),
          h('td', null, r.errorKind || '—'),
          h('td', { class: 'num' }, r.httpStatus ? String(r.httpStatus) : '—'),
          h('td', { class: 'num' }, typeof r.responseMs === 'number' ? V.num(r.responseMs) + ' ms' : '—'),
          h('td', { class: 'phases' }, phases(r))));
      }
      for (const region of (Array.isArray(s.missingRegions) ? s.missingRegions : [])) {
        if (region in regs) continue;
        rows.push(h('tr', { class: 'region-result', dataset: { region } },
          h('th', { scope: 'row' }, region), h('td', null, V.outcomeBadge('missing')),
          h('td', null, 'no result in this window'), h('td', { class: 'num' }, '—'), h('td', { class: 'num' }, '—'),
          h('td', null, '—')));
      }
      regions.tbody.replaceChildren(...(rows.length ? rows : [V.messageRow(6, 'No region reported in this window.')]));
    }

    // DNS, connect and TLS times where the probe measured them (a reused or failed connection has fewer)
    function phases(r) {
      const parts = [];
      if (typeof r.dnsMs === 'number') parts.push('DNS ' + V.num(r.dnsMs) + ' ms');
      if (typeof r.connectMs === 'number') parts.push('connect ' + V.num(r.connectMs) + ' ms');
      if (typeof r.tlsMs === 'number') parts.push('TLS ' + V.num(r.tlsMs) + ' ms');
      return parts.length ? h('span', null, ...parts.map((p) => h('span', { class: 'phase' }, p))) : '—';
    }

    function renderRecent(windows) {
      const list = Array.isArray(windows) ? windows : [];
      if (!list.length) {
        recent.tbody.replaceChildren(V.messageRow(5, 'No windows yet.'));
        return;
      }
      recent.tbody.replaceChildren(...list.map((w) => {
        const dots = h('span', { class: 'region-dots' });
        const regs = w.regions || {};
        for (const region of Object.keys(regs).sort()) {
          const o = (regs[region] && regs[region].outcome) || 'missing';
          const label = region + ': ' + o + (regs[region] && typeof regs[region].responseMs === 'number' ? ', ' + regs[region].responseMs + ' ms' : '');
          dots.appendChild(h('span', { class: 'region-dot dot-' + V.cssToken(o), role: 'img', 'aria-label': label, title: label }));
        }
        for (const region of (w.missingRegions || [])) {
          dots.appendChild(h('span', { class: 'region-dot dot-missing', role: 'img', 'aria-label': region + ': missing', title: region + ': missing' }));
        }
        return h('tr', null, h('th', { scope: 'row' }, V.dateTime(w.windowStart)), h('td', null, V.statusBadge(V.statusOf(w))),
          h('td', null, dots), h('td', null, w.complete ? 'yes' : 'no'), h('td', null, V.relative(w.decidedAt)));
      }));
    }

    function renderHistory(windows, xRange) {
      const list = (Array.isArray(windows) ? windows : []).slice().sort((a, b) => a.windowStart - b.windowStart);
      const xs = [];
      const p50 = [];
      const p95 = [];
      let n = 0;
      for (const w of list) {
        const ms = [];
        for (const r of Object.values(w.regions || {})) if (r && typeof r.responseMs === 'number') ms.push(r.responseMs);
        ms.sort((a, b) => a - b);
        xs.push(Math.floor(w.windowStart / 1000));
        p50.push(ms.length ? V.quantile(ms, 0.5) : null);
        p95.push(ms.length ? V.quantile(ms, 0.95) : null);
        if (ms.length) n += 1;
      }
      if (chart) chart.setData([xs, p50, p95], xRange);
      if (!n) {
        setText(rtSummary, 'No response times recorded in the last 24 hours.');
        return;
      }
      const all50 = p50.filter((v) => v !== null).sort((a, b) => a - b);
      const all95 = p95.filter((v) => v !== null).sort((a, b) => a - b);
      let last = p50.length - 1;
      while (last >= 0 && p50[last] === null) last -= 1;
      setText(rtSummary, 'Latest window: p50 ' + V.num(Math.round(p50[last])) + ' ms, p95 ' + V.num(Math.round(p95[last])) + ' ms. '
        + 'Over 24 hours (' + V.num(n) + ' windows): median p50 ' + V.num(Math.round(V.quantile(all50, 0.5))) + ' ms, '
        + 'median p95 ' + V.num(Math.round(V.quantile(all95, 0.5))) + ' ms, worst p95 ' + V.num(Math.round(all95[all95.length - 1])) + ' ms.');
    }

    function renderUptime(u) {
      const daily = new Map();
      for (const d of (Array.isArray(u.daily) ? u.daily : [])) if (d && d.date) daily.set(d.date, d);
      const days = [];
      const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
      for (let i = 89; i >= 0; i--) days.push(new Date(today - i * DAY_MS).toISOString().slice(0, 10));
      // the server's dates win if it reports days we did not expect (clock skew)
      for (const date of daily.keys()) if (!days.includes(date) && date > days[0]) days.push(date);
      days.sort();
      while (days.length > 90) days.shift();
      const nodes = days.map((date) => {
        const d = daily.get(date);
        const p = d && typeof d.uptimePercent === 'number' ? d.uptimePercent : null;
        let label = V.utcDate(date) + ': ' + (p === null ? 'no data' : V.percent(p, 2) + ' uptime');
        if (d && p !== null && d.down) label += ', ' + d.down + ' down window' + (d.down === 1 ? '' : 's');
        if (d && d.maintenanceWindows) label += ', ' + d.maintenanceWindows + ' under maintenance';
        const cls = 'uptime-day up-' + uptimeClass(p) + (d && d.maintenanceWindows ? ' maint' : '');
        return h('div', { class: cls, role: 'img', title: label, 'aria-label': label, dataset: { date } });
      });
      uptimeBar.replaceChildren(...nodes);
      const o = u.overall || {};
      let text = typeof o.uptimePercent === 'number'
        ? V.percent(o.uptimePercent, 3) + ' uptime over 90 days'
        : 'No uptime data yet';
      if (typeof o.decidedWindows === 'number') text += ' (' + V.num(o.upWindows || 0) + ' of ' + V.num(o.decidedWindows) + ' decided windows up)';
      if (o.maintenanceWindows && typeof o.uptimeExcludingMaintenancePercent === 'number') {
        text += '; ' + V.percent(o.uptimeExcludingMaintenancePercent, 3) + ' outside maintenance';
      }
      setText(uptimeOverall, text + '.');
      const m = Array.isArray(u.maintenance) ? u.maintenance : [];
      if (!m.length) {
        maintenanceList.replaceChildren();
      } else {
        V.clear(maintenanceList);
        V.append(maintenanceList, [h('h3', null, 'Maintenance windows'), h('ul', { class: 'plain-list' }, m.slice(-20).reverse().map((w) =>
          h('li', null, V.dateTime(w.from) + ' – ' + V.shortTime(w.to) + ': ' + (w.reason || '')))),
        u.maintenanceTruncated ? h('p', { class: 'muted small' }, 'More maintenance windows overlapped than are listed.') : null]);
      }
    }

    function renderAlerts(openAlerts) {
      const byFp = new Map();
      for (const a of allAlerts) byFp.set(a.fingerprint, Object.assign({}, a, V.alertIsOpen(a) ? { phase: 'healthy' } : {}));
      // the open list is fresh (every poll); a cached record that is no longer open has resolved since
      for (const a of openAlerts) byFp.set(a.fingerprint, a);
      const list = Array.from(byFp.values()).sort(V.compareAlerts);
      V.syncAlertRows(inc.tbody, alertRows, list, 'No alert has fired for this monitor.');
    }

    async function refresh(signal) {
      const now = Date.now();
      let detail;
      try {
        detail = await V.api('/v1/monitors/' + V.enc(id), { signal });
      } catch (e) {
        if (e.status === 404) {
          notFound.hidden = false;
          body.hidden = true;
          silenceLink.hidden = true;
          for (const a of editActions) a.hidden = true;
          setText(notFound, 'There is no monitor with the id “' + id + '”. ' + (e.detail || ''));
          setText(nameEl, id);
          return;
        }
        throw e;
      }
      notFound.hidden = true;
      body.hidden = false;
      silenceLink.hidden = !V.can('silence');
      for (const a of editActions) a.hidden = !canEdit;
      const m = detail.monitor || {};
      setText(nameEl, m.name || id);
      V.setTitle(m.name || id);
      renderDefinition(detail);
      renderLatest(detail.status);
      renderRecent(detail.recentWindows);

      const jobs = [];
      jobs.push(V.api('/v1/alerts?state=open', { signal }).then((r) => (r && Array.isArray(r.alerts) ? r.alerts : []).filter((a) => fingerprints.has(a.fingerprint))));
      if (now - lastAll >= ALL_ALERTS_EVERY_MS) {
        jobs.push(V.api('/v1/alerts?state=all', { signal }).then((r) => {
          allAlerts = (r && Array.isArray(r.alerts) ? r.alerts : []).filter((a) => fingerprints.has(a.fingerprint));
          lastAll = now;
        }));
      }
      if (now - lastHistory >= HISTORY_EVERY_MS) {
        const from = now - DAY_MS;
        jobs.push(V.api('/v1/monitors/' + V.enc(id) + '/history?from=' + from + '&to=' + now, { signal }).then((r) => {
          renderHistory(r && r.windows, [Math.floor(from / 1000), Math.floor(now / 1000)]);
          lastHistory = now;
        }));
      }
      if (now - lastUptime >= UPTIME_EVERY_MS) {
        jobs.push(V.api('/v1/monitors/' + V.enc(id) + '/uptime?days=90', { signal }).then((r) => {
          renderUptime(r || {});
          lastUptime = now;
        }));
      }
      const results = await Promise.allSettled(jobs);
      if (destroyed) return;
      if (results[0].status === 'fulfilled') renderAlerts(results[0].value);
      const failed = results.find((r) => r.status === 'rejected');
      if (failed) throw failed.reason;
    }

    function mounted() {
      chart = V.makeChart(rtChart, {
        unit: 'ms',
        height: 220,
        emptyText: 'No response times in the last 24 hours.',
        series: [
          { label: 'p50', color: '--chart-1', width: 2 },
          { label: 'p95', color: '--chart-2', width: 2, dash: [6, 4] },
        ],
      });
    }

    function destroy() {
      destroyed = true;
      deleteDialog.close();
      if (chart) chart.destroy();
      alertRows.clear();
    }

    return { el, title: id, refresh, mounted, destroy };
  }

  V.views.monitor = { create };
})(window.Vigil);

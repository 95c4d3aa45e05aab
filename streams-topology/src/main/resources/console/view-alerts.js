/*
 * Vigil console — alerts (#/alerts): every incident of the chosen phase from every source (monitors, metric rules,
 * workers, Vigil itself, apps, Alertmanager, the notifier), with acknowledge / unacknowledge / silence actions. Rows are kept per fingerprint so an open form survives the 5-second refresh.
 */
'use strict';

(function (V) {
  const { h, setText } = V;
  const STATES = [['open', 'Open (firing or resolving)'], ['firing', 'Firing'], ['resolving', 'Resolving'], ['healthy', 'Resolved'], ['all', 'All']];
  const memory = { state: 'open', search: '', origin: '' };

  function create(params) {
    const fromQuery = params.query.get('state');
    if (fromQuery && STATES.some(([v]) => v === fromQuery)) memory.state = fromQuery;
    const filter = V.select({ id: 'alert-filter' }, STATES, memory.state);
    const origin = V.select({ id: 'alert-origin' }, [['', 'Every source'], ...V.alertOrigins], memory.origin);
    const search = h('input', { id: 'alert-search', type: 'search', placeholder: 'fingerprint, summary or service', autocomplete: 'off', value: memory.search });
    const summary = h('p', { class: 'muted small', id: 'alerts-summary' });
    const t = V.table('Alerts', V.alertColumns, { id: 'alerts-table', cls: 'alerts-table', captionHidden: true });
    t.tbody.appendChild(V.messageRow(V.alertColumns.length, 'Loading alerts…'));
    const rows = new Map();
    const toolbar = h('form', { class: 'toolbar', role: 'search', novalidate: true }, V.field('State', filter), V.field('Source', origin), V.field('Search', search));
    toolbar.addEventListener('submit', (e) => e.preventDefault());

    const el = h('section', { id: 'alerts', class: 'view-section', 'aria-labelledby': 'alerts-title' },
      h('div', { class: 'view-header' }, h('h1', { id: 'alerts-title' }, 'Alerts'), summary),
      toolbar,
      V.can('ack') || V.can('silence') ? null : h('p', { class: 'muted' }, 'This token may read alerts but not acknowledge or silence them.'),
      t.wrap);

    let alerts = [];
    let loadedState = null;

    function render() {
      const q = memory.search.trim().toLowerCase();
      const bySource = memory.origin ? alerts.filter((a) => a.origin === memory.origin) : alerts;
      const list = q ? bySource.filter((a) => (String(a.fingerprint) + ' ' + (a.summary || '') + ' ' + (a.service || '')).toLowerCase().includes(q)) : bySource;
      const label = STATES.find(([v]) => v === memory.state)[1].toLowerCase();
      V.syncAlertRows(t.tbody, rows, list, q || memory.origin ? 'No alert matches this search.' : 'No ' + label + ' alerts.');
      const firing = alerts.filter((a) => V.alertPhase(a) === 'firing').length;
      const acked = alerts.filter((a) => a.acknowledgedBy).length;
      const silenced = alerts.filter((a) => a.silenced).length;
      setText(summary, V.num(alerts.length) + ' ' + (alerts.length === 1 ? 'alert' : 'alerts')
        + (firing ? ' · ' + V.num(firing) + ' firing' : '') + (acked ? ' · ' + V.num(acked) + ' acknowledged' : '')
        + (silenced ? ' · ' + V.num(silenced) + ' silenced' : '')
        + (list.length !== alerts.length ? ' · ' + V.num(list.length) + ' shown' : ''));
    }

    filter.addEventListener('change', () => {
      memory.state = filter.value;
      t.tbody.replaceChildren(V.messageRow(V.alertColumns.length, 'Loading alerts…'));
      rows.clear();
      alerts = [];
      V.refreshNow();
    });
    origin.addEventListener('change', () => {
      memory.origin = origin.value;
      render();
    });
    search.addEventListener('input', V.debounce(() => {
      memory.search = search.value;
      render();
    }, 120));

    async function refresh(signal) {
      const state = memory.state;
      const data = await V.api('/v1/alerts?state=' + encodeURIComponent(state), { signal });
      if (state !== memory.state) return; // the filter changed meanwhile; the next refresh follows
      alerts = (data && Array.isArray(data.alerts) ? data.alerts : []).filter((a) => a && typeof a.fingerprint === 'string');
      alerts.sort(V.compareAlerts);
      loadedState = state;
      render();
    }

    return { el, title: 'Alerts', refresh, destroy() { rows.clear(); }, get loadedState() { return loadedState; } };
  }

  V.views.alerts = { create };
})(window.Vigil);

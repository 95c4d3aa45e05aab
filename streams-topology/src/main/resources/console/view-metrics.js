/*
 * Vigil console — metric series (#/metrics?app=demo&name=http_request&range=1h, or #/metrics/<app>/<metric> as pages
 * link it): request and error counts per step,
 * and the p50/p95/p99 durations, from GET /v1/metrics/{appId}/{metricName}.
 */
'use strict';

(function (V) {
  const { h, setText } = V;
  const RANGES = [['1h', 'Last hour'], ['6h', 'Last 6 hours'], ['24h', 'Last 24 hours']];
  const RANGE = { '1h': [3600000, '1m'], '6h': [6 * 3600000, '5m'], '24h': [24 * 3600000, '15m'] };
  const memory = { app: 'demo', name: 'http_request', range: '1h' };
  const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;
  const METRIC = /^[a-z][a-z0-9_]{0,63}$/;

  function create(params) {
    if (params.rest[0]) memory.app = params.rest[0];
    if (params.rest[1]) memory.name = params.rest[1];
    if (params.query.get('app')) memory.app = params.query.get('app');
    if (params.query.get('name')) memory.name = params.query.get('name');
    if (RANGE[params.query.get('range')]) memory.range = params.query.get('range');

    const app = h('input', { id: 'metric-app', type: 'text', value: memory.app, autocomplete: 'off', spellcheck: 'false', required: true });
    const name = h('input', { id: 'metric-name', type: 'text', value: memory.name, autocomplete: 'off', spellcheck: 'false', required: true });
    const range = V.select({ id: 'metric-range' }, RANGES, memory.range);
    const show = h('button', { type: 'submit', id: 'metric-submit', class: 'btn btn-primary' }, 'Show');
    const error = h('p', { class: 'form-error', role: 'alert' });
    const form = h('form', { class: 'toolbar', id: 'metric-form', novalidate: true },
      V.field('App id', app), V.field('Metric', name), V.field('Range', range), h('div', { class: 'field field-button' }, show));
    const summary = h('p', { class: 'chart-summary', id: 'metric-summary' }, 'Loading…');
    const countChartEl = h('div', { id: 'metric-chart', class: 'chart-box', 'aria-hidden': 'true' });
    const latencyChartEl = h('div', { id: 'metric-latency-chart', class: 'chart-box', 'aria-hidden': 'true' });
    const latencySummary = h('p', { class: 'chart-summary' });

    const el = h('section', { id: 'metrics', class: 'view-section', 'aria-labelledby': 'metrics-title' },
      h('div', { class: 'view-header' }, h('h1', { id: 'metrics-title' }, 'Metrics')),
      form, error,
      h('section', { class: 'panel', 'aria-labelledby': 'm-count-title' }, h('h2', { id: 'm-count-title' }, 'Requests and errors per step'), summary, countChartEl),
      h('section', { class: 'panel', 'aria-labelledby': 'm-lat-title' }, h('h2', { id: 'm-lat-title' }, 'Duration quantiles'), latencySummary, latencyChartEl));

    let countChart = null;
    let latencyChart = null;
    const missing = { key: null, at: 0 };

    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const a = app.value.trim();
      const n = name.value.trim();
      for (const i of [app, name]) i.removeAttribute('aria-invalid');
      if (!SLUG.test(a)) {
        error.textContent = 'The app id is a slug: lowercase letters, digits and dashes.';
        app.setAttribute('aria-invalid', 'true');
        app.focus();
        return;
      }
      if (!METRIC.test(n)) {
        error.textContent = 'The metric name matches [a-z][a-z0-9_]*.';
        name.setAttribute('aria-invalid', 'true');
        name.focus();
        return;
      }
      error.textContent = '';
      memory.app = a;
      memory.name = n;
      memory.range = range.value;
      missing.key = null;
      history.replaceState(null, '', '#/metrics?app=' + encodeURIComponent(a) + '&name=' + encodeURIComponent(n) + '&range=' + encodeURIComponent(memory.range));
      V.refreshNow();
    });
    range.addEventListener('change', () => form.requestSubmit ? form.requestSubmit() : form.dispatchEvent(new Event('submit', { cancelable: true })));

    async function refresh(signal) {
      const { app: a, name: n } = memory;
      const [span, step] = RANGE[memory.range];
      const seriesKey = a + '/' + n + '/' + memory.range;
      // a series that does not exist (404) is asked again every 30 s, not at every poll
      if (missing.key === seriesKey && Date.now() - missing.at < 30000) return;
      const to = Date.now();
      const from = to - span;
      let data;
      try {
        data = await V.api('/v1/metrics/' + V.enc(a) + '/' + V.enc(n) + '?from=' + from + '&to=' + to + '&step=' + step, { signal });
      } catch (e) {
        if (e.status === 400 || e.status === 404) {
          if (e.status === 404) {
            missing.key = seriesKey;
            missing.at = Date.now();
          }
          setText(summary, 'No series: ' + (e.detail || e.message));
          setText(latencySummary, '');
          if (countChart) countChart.setData([[], [], []]);
          if (latencyChart) latencyChart.setData([[], [], [], []]);
          return;
        }
        throw e;
      }
      const points = (data && Array.isArray(data.points) ? data.points : []).slice().sort((x, y) => x.windowStart - y.windowStart);
      const xs = points.map((p) => Math.floor(p.windowStart / 1000));
      const num = (v) => (typeof v === 'number' && isFinite(v) ? v : null);
      const range = [Math.floor(from / 1000), Math.floor(to / 1000)];
      if (countChart) countChart.setData([xs, points.map((p) => num(p.count)), points.map((p) => num(p.errorCount))], range);
      if (latencyChart) latencyChart.setData([xs, points.map((p) => num(p.p50)), points.map((p) => num(p.p95)), points.map((p) => num(p.p99))], range);
      const total = points.reduce((s, p) => s + (p.count || 0), 0);
      const errors = points.reduce((s, p) => s + (p.errorCount || 0), 0);
      setText(summary, points.length
        ? a + ' / ' + n + ': ' + V.num(total) + ' events, ' + V.num(errors) + ' errors (' + (total ? V.percent(100 * errors / total, 2) : '0 %') + ') in ' + V.num(points.length) + ' steps of ' + step + '.'
        : 'No data for ' + a + ' / ' + n + ' in this range.');
      const last = points.filter((p) => num(p.p50) !== null).pop();
      setText(latencySummary, last
        ? 'Latest step: p50 ' + V.num(Math.round(last.p50)) + ' ms, p95 ' + V.num(Math.round(last.p95)) + ' ms, p99 ' + V.num(Math.round(last.p99)) + ' ms.'
        : 'No durations recorded in this range.');
    }

    function mounted() {
      countChart = V.makeChart(countChartEl, {
        height: 220, yMin: 0,
        series: [{ label: 'count', color: '--chart-1', width: 2 }, { label: 'errors', color: '--chart-err', width: 2, dash: [6, 4] }],
      });
      latencyChart = V.makeChart(latencyChartEl, {
        height: 220, unit: 'ms', yMin: 0,
        series: [{ label: 'p50', color: '--chart-1', width: 2 }, { label: 'p95', color: '--chart-2', width: 2 }, { label: 'p99', color: '--chart-3', width: 2, dash: [6, 4] }],
      });
    }

    return {
      el, title: 'Metrics', refresh, mounted,
      destroy() {
        if (countChart) countChart.destroy();
        if (latencyChart) latencyChart.destroy();
      },
    };
  }

  V.views.metrics = { create };
})(window.Vigil);

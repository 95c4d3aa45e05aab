/*
 * Vigil console — a thin wrapper over uPlot (global `uPlot`, served at /console/vendor/uplot.js): sized to its
 * container, resized with it, coloured from the CSS custom properties (light and dark), with an empty-state note.
 */
'use strict';

(function (V) {
  const { h } = V;

  function cssVar(name, fallback) {
    const v = getComputedStyle(document.documentElement).getPropertyValue(name);
    return v && v.trim() ? v.trim() : fallback;
  }

  /**
   * makeChart(container, {series: [{label, color: '--chart-1', width, dash}], unit: 'ms', height, yMin})
   * → {setData([xsSeconds, ys1, ys2, …]), destroy()}
   */
  function makeChart(container, opts) {
    const o = opts || {};
    const height = o.height || 240;
    const empty = h('p', { class: 'chart-empty muted', hidden: true }, o.emptyText || 'No data in this range.');
    const plotHost = h('div', { class: 'chart-host' });
    container.classList.add('chart');
    container.appendChild(plotHost);
    container.appendChild(empty);

    if (typeof window.uPlot !== 'function') {
      empty.textContent = 'The chart library did not load.';
      empty.hidden = false;
      return { setData() {}, destroy() {} };
    }

    const fg = cssVar('--muted', '#666');
    const grid = cssVar('--grid', 'rgba(128,128,128,.2)');
    const unit = o.unit || '';
    const fmtVal = (v) => (v === null || v === undefined ? '—' : (Math.round(v * 10) / 10).toLocaleString() + (unit ? ' ' + unit : ''));
    const series = [{}].concat(o.series.map((s) => ({
      label: s.label,
      stroke: cssVar(s.color, '#1f6feb'),
      width: s.width || 2,
      dash: s.dash,
      fill: s.fill ? cssVar(s.fill, undefined) : undefined,
      spanGaps: false,
      // dots only while there are few points: a single window is otherwise invisible (a line needs two)
      points: { show: (u, si, i0, i1) => i1 - i0 < 60, size: 5 },
      value: (u, v) => fmtVal(v),
    })));

    const width = Math.max(280, Math.floor(plotHost.clientWidth || container.clientWidth || 600));
    const plot = new window.uPlot({
      width,
      height,
      series,
      cursor: { drag: { x: true, y: false } },
      scales: { x: { time: true }, y: { range: (u, min, max) => [o.yMin !== undefined ? o.yMin : Math.min(0, min || 0), max > 0 ? max * 1.1 : 1] } },
      axes: [
        { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } },
        {
          stroke: fg,
          grid: { stroke: grid, width: 1 },
          ticks: { stroke: grid, width: 1 },
          size: (u, values) => 16 + 7.5 * Math.max(4, ...(values || []).map((v) => String(v).length)),
          values: (u, vals) => vals.map((v) => (v === null ? '' : v.toLocaleString() + (unit ? ' ' + unit : ''))),
        },
      ],
      legend: { live: true },
    }, [[]].concat(o.series.map(() => [])), plotHost);

    let lastWidth = width;
    const ro = typeof ResizeObserver === 'function' ? new ResizeObserver(() => {
      const w = Math.max(280, Math.floor(plotHost.clientWidth));
      if (w && Math.abs(w - lastWidth) > 2) {
        lastWidth = w;
        plot.setSize({ width: w, height });
      }
    }) : null;
    if (ro) ro.observe(plotHost);

    return {
      plot,
      /** xRange [fromSeconds, toSeconds], optional: the time span the chart stands for, whatever the data covers. */
      setData(data, xRange) {
        const hasPoints = data[0] && data[0].length > 0 && data.slice(1).some((ys) => ys.some((y) => y !== null && y !== undefined));
        empty.hidden = hasPoints;
        plot.setData(data);
        if (xRange) plot.setScale('x', { min: xRange[0], max: xRange[1] });
      },
      destroy() {
        if (ro) ro.disconnect();
        plot.destroy();
      },
    };
  }

  V.makeChart = makeChart;
})(window.Vigil);

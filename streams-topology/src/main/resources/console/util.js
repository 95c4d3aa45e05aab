/*
 * Vigil console — DOM and formatting helpers (global namespace `Vigil`).
 * Every value shown comes from the API and is untrusted: the DOM is built with createElement and text nodes only;
 * nothing here ever assigns innerHTML/outerHTML or a style attribute.
 */
'use strict';

window.Vigil = window.Vigil || {};
window.Vigil.views = window.Vigil.views || {};

(function (V) {
  const STATUS_ORDER = { down: 0, degraded: 1, unknown: 2, pending: 3, up: 4 };
  const STATUSES = ['down', 'degraded', 'unknown', 'pending', 'up'];

  /**
   * h('div', {class: 'x', dataset: {monitor: id}, 'aria-label': '…', hidden: true}, 'text', childNode, [more])
   * Attributes are set with setAttribute except a few properties; 'style' and on* attributes are refused.
   */
  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    if (attrs) {
      for (const [k, v] of Object.entries(attrs)) {
        if (v === undefined || v === null || v === false) continue;
        if (k === 'style' || /^on/i.test(k)) throw new Error('refused attribute ' + k);
        if (k === 'class') el.className = v;
        else if (k === 'dataset') Object.assign(el.dataset, v);
        else if (k === 'text') el.textContent = v;
        else if (k === 'hidden') el.hidden = !!v;
        else if (k === 'value') el.value = v;
        else if (k === 'checked') el.checked = !!v;
        else if (k === 'disabled') el.disabled = !!v;
        else if (k === 'selected') el.selected = !!v;
        else if (v === true) el.setAttribute(k, '');
        else el.setAttribute(k, String(v));
      }
    }
    append(el, children);
    return el;
  }

  function append(el, children) {
    for (const c of children) {
      if (c === null || c === undefined || c === false) continue;
      if (Array.isArray(c)) append(el, c);
      else if (c instanceof Node) el.appendChild(c);
      else el.appendChild(document.createTextNode(String(c)));
    }
    return el;
  }

  /** Sets text only when it changed (avoids layout work on polling). */
  function setText(el, text) {
    const t = text === null || text === undefined ? '' : String(text);
    if (el.textContent !== t) el.textContent = t;
  }

  function clear(el) {
    while (el.firstChild) el.removeChild(el.firstChild);
  }

  // ---- time formatting ------------------------------------------------------------------------------------
  const clockFmt = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });
  const dateTimeFmt = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
  const shortFmt = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
  const dateFmt = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
  let relFmt;
  try {
    relFmt = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto', style: 'short' });
  } catch (e) {
    relFmt = null;
  }

  function validTime(ms) {
    return typeof ms === 'number' && isFinite(ms) && ms > 0;
  }

  function clock(ms) {
    return clockFmt.format(new Date(ms));
  }

  function dateTime(ms) {
    return validTime(ms) ? dateTimeFmt.format(new Date(ms)) : '—';
  }

  function shortTime(ms) {
    return validTime(ms) ? shortFmt.format(new Date(ms)) : '—';
  }

  /** "2024-05-01" (a UTC day) in the locale's medium date style. */
  function utcDate(isoDate) {
    const d = new Date(isoDate + 'T00:00:00Z');
    return isNaN(d.getTime()) ? String(isoDate) : dateFmt.format(d);
  }

  /** "3 min ago", "in 2 hr." relative to now. */
  function relative(ms, now) {
    if (!validTime(ms)) return '—';
    const diff = ms - (now || Date.now());
    const abs = Math.abs(diff);
    const units = [['day', 86400000], ['hour', 3600000], ['minute', 60000], ['second', 1000]];
    for (const [unit, size] of units) {
      if (abs >= size || unit === 'second') {
        const n = Math.round(diff / size);
        if (unit === 'second' && Math.abs(n) < 10) return 'just now';
        if (relFmt) return relFmt.format(n, unit);
        return n < 0 ? (-n) + ' ' + unit + 's ago' : 'in ' + n + ' ' + unit + 's';
      }
    }
    return '—';
  }

  /** 1234567 → "20 min 34 s" */
  function duration(ms) {
    if (typeof ms !== 'number' || !isFinite(ms)) return '—';
    if (ms < 0) ms = 0;
    const s = Math.floor(ms / 1000);
    if (s < 60) return s + ' s';
    const m = Math.floor(s / 60);
    if (m < 60) return m + ' min' + (s % 60 ? ' ' + (s % 60) + ' s' : '');
    const hr = Math.floor(m / 60);
    if (hr < 48) return hr + ' h' + (m % 60 ? ' ' + (m % 60) + ' min' : '');
    const d = Math.floor(hr / 24);
    return d + ' d' + (hr % 24 ? ' ' + (hr % 24) + ' h' : '');
  }

  function minutesText(min) {
    if (!min && min !== 0) return '—';
    return duration(min * 60000);
  }

  const numFmt = new Intl.NumberFormat();
  function num(n) {
    return typeof n === 'number' && isFinite(n) ? numFmt.format(n) : '—';
  }

  function percent(p, digits) {
    if (typeof p !== 'number' || !isFinite(p)) return 'no data';
    const d = digits === undefined ? (p >= 99 && p < 100 ? 2 : 1) : digits;
    return p.toFixed(d).replace(/\.0+$/, '') + ' %';
  }

  // ---- status rendering -------------------------------------------------------------------------------------
  function statusOf(row) {
    return row && typeof row.status === 'string' && row.status ? row.status : 'pending';
  }

  /** A status word with its colour; the text is exactly the word (tests rely on it). */
  function statusBadge(status, extraClass) {
    const s = status || 'pending';
    return h('span', { class: 'status badge status-' + cssToken(s) + (extraClass ? ' ' + extraClass : '') }, s);
  }

  const OUTCOME_LABEL = {
    success: 'success',
    http_failure: 'HTTP failure',
    network_failure: 'network failure',
    assertion_failure: 'assertion failure',
    missing: 'missing',
  };

  function outcomeBadge(outcome) {
    const o = outcome || 'missing';
    return h('span', { class: 'badge outcome outcome-' + cssToken(o) }, OUTCOME_LABEL[o] || o);
  }

  function severityBadge(sev) {
    const s = sev || 'info';
    return h('span', { class: 'badge severity severity-' + cssToken(s) }, s);
  }

  /** Restricts a value used in a class name to [a-z0-9_-]. */
  function cssToken(s) {
    return String(s).toLowerCase().replace(/[^a-z0-9_-]/g, '-').slice(0, 40);
  }

  // ---- misc ---------------------------------------------------------------------------------------------------
  function debounce(fn, ms) {
    let t = 0;
    return function (...args) {
      clearTimeout(t);
      t = setTimeout(() => fn.apply(this, args), ms);
    };
  }

  /** `*` matches any run of characters (slashes included); everything else literally. */
  function globToRegExp(glob) {
    const parts = String(glob).split('*').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    return new RegExp('^' + parts.join('.*') + '$');
  }

  function quantile(sorted, q) {
    if (!sorted.length) return null;
    const pos = (sorted.length - 1) * q;
    const lo = Math.floor(pos);
    const hi = Math.ceil(pos);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
  }

  /** Parses "#/monitors/abc?x=1" → {route:'monitors', rest:['abc'], query: URLSearchParams}. */
  function parseHash(hash) {
    const raw = (hash || '').replace(/^#\/?/, '');
    const q = raw.indexOf('?');
    const path = q >= 0 ? raw.slice(0, q) : raw;
    const query = new URLSearchParams(q >= 0 ? raw.slice(q + 1) : '');
    const segs = path.split('/').filter(Boolean).map((s) => {
      try {
        return decodeURIComponent(s);
      } catch (e) {
        return s;
      }
    });
    return { route: segs[0] || '', rest: segs.slice(1), query };
  }

  /** A loading / empty / error message row spanning a table. */
  function messageRow(colspan, text, cls) {
    return h('tr', { class: 'message-row' }, h('td', { colspan, class: cls || 'muted' }, text));
  }

  function table(caption, columns, opts) {
    const o = opts || {};
    const thead = h('thead', null, h('tr', null, columns.map((c) =>
      h('th', { scope: 'col', class: c.cls || null }, c.label !== undefined ? c.label : c))));
    const tbody = h('tbody');
    const t = h('table', { class: 'data-table' + (o.cls ? ' ' + o.cls : ''), id: o.id || null },
      caption ? h('caption', { class: o.captionHidden ? 'visually-hidden' : null }, caption) : null, thead, tbody);
    const wrap = h('div', { class: 'table-wrap' }, t);
    return { wrap, table: t, tbody };
  }

  function field(labelText, control, hint) {
    const id = control.id || ('f-' + Math.random().toString(36).slice(2, 9));
    control.id = id;
    const hintEl = hint ? h('span', { class: 'hint', id: id + '-hint' }, hint) : null;
    if (hintEl) control.setAttribute('aria-describedby', hintEl.id);
    return h('div', { class: 'field' }, h('label', { for: id }, labelText), control, hintEl);
  }

  function select(attrs, options, value) {
    const s = h('select', attrs);
    for (const o of options) {
      const [v, label] = Array.isArray(o) ? o : [o, o];
      s.appendChild(h('option', { value: v, selected: v === value }, label));
    }
    if (value !== undefined) s.value = value;
    return s;
  }

  /**
   * The problems shown on a form's fields (its own checks, and the server's problem+json `errors[].field`): each field
   * is registered under the key a problem names (`slot`), with a message slot under it; `mark` shows a problem there.
   */
  function formProblems(formError) {
    const slots = new Map(); // key → {wrap, control, msg}

    function slot(key, labelText, control, hint) {
      const f = field(labelText, control, hint);
      const msg = h('p', { class: 'field-problem', id: control.id + '-problem', hidden: true });
      f.appendChild(msg);
      slots.set(key, { wrap: f, control, msg });
      return f;
    }

    /** Marks `control` invalid and ties the message to it for assistive technology. */
    function describe(control, msg) {
      if (!control) return;
      control.setAttribute('aria-invalid', 'true');
      const ids = (control.getAttribute('aria-describedby') || '').split(' ').filter(Boolean);
      if (msg.id && !ids.includes(msg.id)) control.setAttribute('aria-describedby', ids.concat(msg.id).join(' '));
    }

    function show(msg, text) {
      msg.textContent = msg.textContent ? msg.textContent + ' ' + text : text;
      msg.hidden = false;
    }

    /** Shows `problem` on the visible field registered under `key`: its message element, or null when none. */
    function mark(key, problem) {
      const s = slots.get(key);
      if (!s || s.wrap.hidden) return null;
      s.wrap.classList.add('field-invalid');
      describe(s.control, s.msg);
      show(s.msg, problem);
      return s.msg;
    }

    /** Clears every problem shown in `root` (the form). */
    function clearAll(root) {
      formError.textContent = '';
      for (const s of slots.values()) {
        s.wrap.classList.remove('field-invalid');
        s.msg.hidden = true;
        s.msg.textContent = '';
      }
      for (const i of root.querySelectorAll('[aria-invalid]')) i.removeAttribute('aria-invalid');
    }

    function focusFirst(root) {
      const first = root.querySelector('[aria-invalid="true"]');
      if (first) first.focus();
    }

    return { slots, slot, describe, show, mark, clear: clearAll, focusFirst };
  }

  /**
   * The "changed meanwhile" box of an editor: `text`, and a button (`buttonId`) that reloads the current version
   * (`reload`, a promise); on 404 it says `goneText` and links back (`backHref`, `backLabel`).
   */
  function staleBox(box, { text, buttonId, reload, reloaded, goneText, backHref, backLabel, what }) {
    box.hidden = false;
    const again = h('button', { type: 'button', id: buttonId, class: 'btn btn-small' }, 'Reload the current version');
    again.addEventListener('click', async () => {
      again.disabled = true;
      try {
        await reload();
        box.hidden = true;
        if (reloaded) reloaded();
      } catch (e) {
        if (e.status === 404) {
          box.replaceChildren(h('p', null, goneText), h('a', { class: 'btn btn-small', href: backHref }, backLabel));
        } else if (e.status !== 401) {
          V.notice('Could not reload the ' + what + ': ' + (e.detail || e.message), 'error');
          again.disabled = false;
        }
      }
    });
    box.replaceChildren(h('p', null, text), again);
    again.focus();
  }

  function copyText(text) {
    if (navigator.clipboard && navigator.clipboard.writeText) return navigator.clipboard.writeText(text);
    return Promise.reject(new Error('clipboard unavailable'));
  }

  Object.assign(V, {
    STATUS_ORDER, STATUSES, OUTCOME_LABEL,
    h, append, setText, clear, clock, dateTime, shortTime, utcDate, relative, duration, minutesText, num, percent,
    statusOf, statusBadge, outcomeBadge, severityBadge, cssToken, debounce, globToRegExp, quantile, parseHash,
    messageRow, table, field, select, formProblems, staleBox, copyText, validTime,
  });
})(window.Vigil);

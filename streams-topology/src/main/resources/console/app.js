/*
 * Vigil console — sign-in, hash routing and live updates.
 *
 * Stable selectors (browser tests depend on these; keep them):
 *   Sign-in      form#signin, input#token (type password), button#signin-submit, #signin-error (message text)
 *   Session      #whoami (the token's name), button#signout, #live-status ("updated HH:MM:SS")
 *   Nav          nav a[href="#/fleet"], a[href="#/alerts"], a[href="#/silences"], a[href="#/workers"],
 *                a[href="#/metrics"], a[href="#/rules"], a[href="#/audit"] (shown to admin tokens only)
 *   Notices      #notice (text only; aria-live polite; action results) in #notice-bar with button#notice-dismiss,
 *                #live-announcer (aria-live polite; refresh failures and recovery)
 *   Fleet        #fleet; #fleet-counts; input#fleet-search; select#fleet-filter; one row per monitor
 *                [data-monitor="<id>"] containing .status (exactly the status word, or "pending"), .monitor-name,
 *                .region-dot[data-region="<region>"] (title/aria-label "us-east: success"; "missing" when absent),
 *                a.monitor-link (href "#/monitors/<id>"); pager buttons #fleet-prev / #fleet-next, #fleet-range
 *                a#fleet-new ("New monitor", to tokens with the monitors or admin scope)
 *   Detail       #monitor-detail, #monitor-name, .region-result[data-region="<region>"], #rt-chart (uPlot canvas),
 *                #uptime-bar with .uptime-day children (aria-label/title "<date>: <percent>" or "no data"),
 *                #uptime-overall, #incidents (alert rows as below); to monitors/admin tokens a#monitor-edit,
 *                a#monitor-duplicate, button#monitor-delete → dialog#monitor-delete-dialog (#monitor-delete-error,
 *                button#monitor-delete-confirm, button#monitor-delete-cancel)
 *   Editor       #monitor-editor[data-mode="new|edit|duplicate"] (#/new-monitor, #/new-monitor?from=<id>,
 *                #/monitors/<id>/edit); form#monitor-form with input#me-id (not when editing), input#me-name,
 *                input#me-service, select#me-severity, select#me-type (http|tcp|dns|tls|heartbeat);
 *                http: input#me-url, select#me-method, input#me-status-codes, textarea#me-body, #me-headers with
 *                .header-row (input.header-name, select.header-kind value|secretEnv, input.header-value), button
 *                #me-add-header; input#me-tcp-host, #me-tcp-port; input#me-dns-query, select#me-dns-type,
 *                input#me-dns-resolver; input#me-tls-host, #me-tls-port; input#me-hb-schedule, #me-hb-zone,
 *                #me-hb-grace; select#me-interval (seconds), input#me-timeout (ms); #me-regions with
 *                input[name=me-region][value=<region>] in label.region-check[data-region]; #me-checks
 *                ("Expected target checks per day: N"); button#me-save; #me-form-error; a problem shows as
 *                aria-invalid="true" on the input, .field-invalid on its field and its text in .field-problem;
 *                #me-stale with button#me-reload (changed meanwhile); #me-token with #me-ping-token, #me-ping-url
 *   Rules        #rules (#/rules); rows [data-rule="<id>"][data-source="default|override|custom"] with .rule-condition
 *                (the condition in words), .rule-source badge (shipped|overridden|custom), .rule-enabled badge; to
 *                rules/admin tokens a#rules-new, a.rule-edit, button.rule-toggle (Disable|Enable), button.rule-restore
 *                (an override) or button.rule-delete (a custom rule) → dialog#rule-delete-dialog
 *                (button#rule-delete-confirm, #rule-delete-error); form #rule-editor[data-mode="new|edit"]
 *                (#/new-rule, #/rules/<id>/edit): form#rule-form with input#rule-id (new only), #rule-app,
 *                #rule-metric, select#rule-aggregation, input#rule-filter, #rule-window, select#rule-comparator,
 *                input#rule-threshold, #rule-min-events, select#rule-severity, input#rule-summary,
 *                checkbox#rule-enabled, button#rule-save, #rule-form-error, problems as in the monitor editor;
 *                #rule-stale with button#rule-reload (changed meanwhile)
 *   Incident     #incident[data-fingerprint] (#/incident/<fingerprint, percent-encoded>): h1#incident-title,
 *                #incident-status, #incident-table (one alert row as below), dl#incident-facts,
 *                ul#incident-links (li[data-link="<name>"] per link, a.incident-monitor-link),
 *                ol#incident-timeline (li[data-kind][data-channel][data-outcome] per line, oldest first)
 *   Alerts       #alerts; select#alert-filter, select#alert-origin; rows [data-fingerprint="<fp>"] with
 *                .origin-tag, a.alert-incident-link, button.ack-button → .ack-form
 *                (input.ack-comment, select.ack-until, button.ack-confirm), button.unack-button,
 *                .ack-mark ("Acknowledged by <name>…"), .silence-mark, .held-mark ("held: depends on <parent>,
 *                which is down"), button.silence-button → .silence-form (select.silence-duration,
 *                input.silence-reason, button.silence-confirm)
 *   Silences     #silences; select#silence-filter (default active); form#silence-form with
 *                input#silence-fingerprint, input#silence-service, input#silence-duration (minutes),
 *                input#silence-reason, input#silence-comment, button#silence-submit, schedule inputs
 *                (input#silence-recurring, input[name=silence-day][value=mon…sun], input#silence-at,
 *                input#silence-window, input#silence-zone, select#silence-series); preview #silence-preview (one li
 *                per matched fingerprint); rows [data-silence-id="<id>"] with .silence-state and button.expire-button
 *   Workers      #workers; rows [data-worker="<workerId>"]
 *   Metrics      #metrics; input#metric-app, input#metric-name, select#metric-range, #metric-chart (counts and
 *                errors), #metric-latency-chart (p50/p95/p99)
 *   Audit        #audit; rows .audit-row
 */
'use strict';

(function (V) {
  const { h } = V;
  const POLL_MS = 5000;
  const MAX_BACKOFF_MS = 60000;

  V.views = V.views || {};

  const el = {};
  const state = {
    signedIn: false,
    current: null, // {name, instance}
    firstRoute: true,
  };
  const live = { timer: 0, busy: false, pending: false, failures: 0, gen: 0, controller: null, lastOk: 0 };

  // ---- notices ---------------------------------------------------------------------------------------------
  let noticeTimer = 0;
  /** Shows an action's outcome in #notice (a polite live region); success notices fade after 10 s. */
  function notice(text, kind) {
    clearTimeout(noticeTimer);
    el.noticeBar.className = 'notice-bar notice-' + (kind === 'error' ? 'error' : 'success');
    el.noticeDismiss.hidden = false;
    el.notice.textContent = text;
    if (kind !== 'error') noticeTimer = setTimeout(clearNotice, 10000);
  }

  function clearNotice() {
    clearTimeout(noticeTimer);
    el.notice.textContent = '';
    el.noticeBar.className = 'notice-bar notice-empty';
    el.noticeDismiss.hidden = true;
  }

  function announce(text) {
    el.announcer.textContent = text;
  }

  // ---- live updates ----------------------------------------------------------------------------------------
  function setLive(text, kind) {
    V.setText(el.liveStatus, text);
    el.liveStatus.className = 'live-status' + (kind ? ' live-' + kind : '');
  }

  function schedule(delay) {
    clearTimeout(live.timer);
    live.timer = 0;
    if (!state.signedIn || !state.current) return;
    if (document.visibilityState !== 'visible') {
      setLive(live.lastOk ? 'paused · updated ' + V.clock(live.lastOk) : 'paused', 'paused');
      return;
    }
    live.timer = setTimeout(tick, delay);
  }

  async function tick() {
    clearTimeout(live.timer);
    live.timer = 0;
    if (!state.signedIn || !state.current) return;
    if (live.busy) {
      live.pending = true;
      return;
    }
    if (document.visibilityState !== 'visible') {
      schedule(0);
      return;
    }
    const gen = live.gen;
    const controller = new AbortController();
    live.busy = true;
    live.pending = false;
    live.controller = controller;
    const view = state.current.instance;
    let delay = POLL_MS;
    try {
      await view.refresh(controller.signal);
      if (gen !== live.gen) return;
      const wasFailing = live.failures > 0;
      live.failures = 0;
      live.lastOk = Date.now();
      setLive('updated ' + V.clock(live.lastOk), 'ok');
      setViewError(null);
      if (wasFailing) announce('Live updates resumed.');
    } catch (e) {
      if (gen !== live.gen || (e && e.name === 'AbortError') || !state.signedIn) return;
      live.failures += 1;
      delay = Math.min(MAX_BACKOFF_MS, POLL_MS * Math.pow(2, live.failures));
      if (e && e.retryAfter) delay = Math.min(MAX_BACKOFF_MS, Math.max(delay, e.retryAfter * 1000));
      const detail = e && (e.detail || e.message) ? (e.detail || e.message) : 'unknown error';
      const secs = Math.round(delay / 1000);
      setLive('update failed · retrying in ' + secs + ' s', 'error');
      setViewError('Could not load this view: ' + detail + ' (retrying in ' + secs + ' s)');
      if (live.failures === 1) announce('Live update failed: ' + detail + '. Retrying in ' + secs + ' seconds.');
      if (!(e instanceof V.ApiError)) console.error('vigil console: view refresh failed', e); // eslint-disable-line no-console
    } finally {
      if (gen === live.gen) {
        live.busy = false;
        live.controller = null;
        if (live.pending) {
          live.pending = false;
          delay = 0;
        }
        schedule(delay);
      }
    }
  }

  /** Starts over for a new view: aborts what is in flight, refreshes at once. */
  function restartLive() {
    live.gen += 1;
    if (live.controller) live.controller.abort();
    live.controller = null;
    live.busy = false;
    live.pending = false;
    live.failures = 0;
    clearTimeout(live.timer);
    tick();
  }

  function stopLive() {
    live.gen += 1;
    if (live.controller) live.controller.abort();
    live.controller = null;
    live.busy = false;
    clearTimeout(live.timer);
    live.timer = 0;
  }

  /** After an action: refresh the current view now (or right after the refresh in flight). */
  function refreshNow() {
    if (!state.signedIn) return;
    if (live.busy) live.pending = true;
    else tick();
  }

  let viewErrorEl = null;
  function setViewError(text) {
    if (!viewErrorEl) return;
    viewErrorEl.hidden = !text;
    V.setText(viewErrorEl, text || '');
  }

  // ---- routing ---------------------------------------------------------------------------------------------
  const ROUTES = {
    fleet: { view: 'fleet', nav: 'fleet', title: 'Fleet' },
    monitors: { view: 'monitor', nav: 'fleet', title: 'Monitor' },
    alerts: { view: 'alerts', nav: 'alerts', title: 'Alerts' },
    incident: { view: 'incident', nav: 'alerts', title: 'Incident' },
    silences: { view: 'silences', nav: 'silences', title: 'Silences' },
    workers: { view: 'workers', nav: 'workers', title: 'Workers' },
    metrics: { view: 'metrics', nav: 'metrics', title: 'Metrics' },
    audit: { view: 'audit', nav: 'audit', title: 'Audit log' },
    'new-monitor': { view: 'editor', nav: 'fleet', title: 'New monitor' },
    rules: { view: 'rules', nav: 'rules', title: 'Rules' },
    'new-rule': { view: 'ruleEditor', nav: 'rules', title: 'New rule' },
  };
  // #/monitors/<id>/edit: the editor rather than the monitor's detail; #/rules/<id>/edit: a rule's form
  const EDIT_ROUTE = { view: 'editor', nav: 'fleet', title: 'Edit monitor' };
  const RULE_EDIT_ROUTE = { view: 'ruleEditor', nav: 'rules', title: 'Edit rule' };

  function route() {
    if (!state.signedIn) return;
    const parsed = V.parseHash(location.hash);
    const editing = parsed.rest[1] === 'edit' && parsed.rest[0];
    let r = parsed.route === 'monitors' && editing ? EDIT_ROUTE
      : parsed.route === 'rules' && editing ? RULE_EDIT_ROUTE : ROUTES[parsed.route];
    if (!r || ((parsed.route === 'monitors' || parsed.route === 'incident') && !parsed.rest[0])) {
      if (location.hash !== '#/fleet') {
        history.replaceState(null, '', '#/fleet');
      }
      r = ROUTES.fleet;
      parsed.route = 'fleet';
      parsed.rest = [];
    }
    destroyView();
    for (const a of document.querySelectorAll('nav a[data-route]')) {
      if (a.dataset.route === r.nav) a.setAttribute('aria-current', 'page');
      else a.removeAttribute('aria-current');
    }
    const factory = V.views[r.view];
    viewErrorEl = h('p', { class: 'view-error', role: 'alert', hidden: true });
    el.view.replaceChildren(viewErrorEl);
    if (r.view === 'audit' && V.session.scopes && !V.can('admin')) {
      el.view.appendChild(h('section', { class: 'panel' }, h('h1', null, 'Audit log'),
        h('p', null, 'The audit log needs a token with the admin scope.')));
      document.title = 'Audit log · Vigil';
      return;
    }
    const instance = factory.create({ rest: parsed.rest, query: parsed.query });
    state.current = { name: r.view, instance };
    el.view.appendChild(instance.el);
    document.title = (instance.title || r.title) + ' · Vigil';
    window.scrollTo(0, 0);
    if (!state.firstRoute) el.view.focus({ preventScroll: true });
    state.firstRoute = false;
    if (instance.mounted) instance.mounted();
    restartLive();
  }

  function destroyView() {
    stopLive();
    if (state.current && state.current.instance.destroy) {
      try {
        state.current.instance.destroy();
      } catch (e) {
        /* ignore */
      }
    }
    state.current = null;
  }

  /** Lets a view change its title (e.g. the monitor's name once loaded). */
  V.setTitle = function (t) {
    document.title = t + ' · Vigil';
  };

  // ---- session ---------------------------------------------------------------------------------------------
  function showSignIn(message) {
    state.signedIn = false;
    destroyView();
    el.view.replaceChildren();
    el.shell.hidden = true;
    el.signinScreen.hidden = false;
    el.signinError.textContent = message || '';
    el.token.value = '';
    el.submit.disabled = false;
    document.title = 'Sign in · Vigil';
    el.token.focus();
  }

  function showApp() {
    state.signedIn = true;
    el.signinScreen.hidden = true;
    el.shell.hidden = false;
    el.whoami.textContent = V.session.name || 'token';
    el.whoami.title = V.session.scopes ? 'scopes: ' + V.session.scopes.join(', ') : '';
    el.navAudit.hidden = !(V.session.scopes && V.session.scopes.includes('admin'));
    setLive('loading…');
    state.firstRoute = true;
    route();
  }

  /** Asks /v1/whoami who the token is; 401 rejects. A server without whoami leaves the scopes unknown. */
  async function identify(token) {
    try {
      const me = await V.api('/v1/whoami', { token, noSignOut: true });
      return {
        name: me && typeof me.name === 'string' ? me.name : 'token',
        scopes: me && Array.isArray(me.scopes) ? me.scopes.filter((s) => typeof s === 'string') : null,
      };
    } catch (e) {
      if (e.status === 401) throw e;
      if (e.status === 404 || e.status === 405) {
        // an older server: check the token with a read, the server will answer 403 where a scope is missing
        await V.api('/v1/silences?state=active', { token, noSignOut: true });
        return { name: 'token', scopes: null };
      }
      throw e;
    }
  }

  async function onSignIn(ev) {
    ev.preventDefault();
    const token = el.token.value.trim();
    if (!token) {
      el.signinError.textContent = 'Enter an API token.';
      el.token.setAttribute('aria-invalid', 'true');
      el.token.focus();
      return;
    }
    el.token.removeAttribute('aria-invalid');
    el.submit.disabled = true;
    el.signinError.textContent = '';
    try {
      const me = await identify(token);
      V.saveToken(token);
      V.session.name = me.name;
      V.session.scopes = me.scopes;
      el.token.value = '';
      showApp();
    } catch (e) {
      el.signinError.textContent = e.status === 401
        ? 'That token was not accepted' + (e.detail ? ': ' + e.detail : '.')
        : 'Could not sign in: ' + (e.detail || e.message);
      el.token.setAttribute('aria-invalid', 'true');
      el.token.focus();
      el.token.select();
    } finally {
      el.submit.disabled = false;
    }
  }

  function onUnauthorized(err) {
    if (!state.signedIn && el.shell.hidden) return;
    showSignIn('You have been signed out: the server no longer accepts this token'
      + (err && err.detail ? ' (' + err.detail + ')' : '') + '. Sign in again.');
  }

  function signOut() {
    V.dropToken();
    clearNotice();
    showSignIn('');
  }

  async function boot() {
    el.signinScreen = document.getElementById('signin-screen');
    el.shell = document.getElementById('app-shell');
    el.form = document.getElementById('signin');
    el.token = document.getElementById('token');
    el.submit = document.getElementById('signin-submit');
    el.signinError = document.getElementById('signin-error');
    el.whoami = document.getElementById('whoami');
    el.signout = document.getElementById('signout');
    el.liveStatus = document.getElementById('live-status');
    el.notice = document.getElementById('notice');
    el.noticeBar = document.getElementById('notice-bar');
    el.noticeDismiss = document.getElementById('notice-dismiss');
    el.noticeDismiss.addEventListener('click', clearNotice);
    el.announcer = document.getElementById('live-announcer');
    el.view = document.getElementById('view');
    el.navAudit = document.getElementById('nav-audit');

    V.notice = notice;
    V.announce = announce;
    V.refreshNow = refreshNow;
    V.session.onUnauthorized = onUnauthorized;

    el.form.addEventListener('submit', onSignIn);
    el.signout.addEventListener('click', signOut);
    window.addEventListener('hashchange', route);
    document.getElementById('skip-link').addEventListener('click', (ev) => {
      ev.preventDefault();
      el.view.focus();
    });
    document.addEventListener('visibilitychange', () => {
      if (!state.signedIn) return;
      if (document.visibilityState === 'visible') {
        if (!live.busy) tick();
      } else {
        schedule(0); // clears the timer and shows "paused"
      }
    });

    const token = V.loadToken();
    if (!token) {
      showSignIn('');
      return;
    }
    try {
      const me = await identify(token);
      V.session.name = me.name;
      V.session.scopes = me.scopes;
      showApp();
    } catch (e) {
      if (e.status === 401) {
        V.dropToken();
        showSignIn('Your session ended: the server no longer accepts this token. Sign in again.');
      } else {
        // the server is unreachable right now: keep the token, show the console and let live updates retry
        V.session.name = 'token';
        V.session.scopes = null;
        showApp();
      }
    }
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', boot);
  else boot();
})(window.Vigil);

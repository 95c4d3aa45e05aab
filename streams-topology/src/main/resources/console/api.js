/*
 * Vigil console — the query API client. The token lives in sessionStorage ('vigil.token') and is sent only as an
 * Authorization header on same-origin /v1/ requests; it never goes into a URL and is never logged.
 */
'use strict';

(function (V) {
  const TOKEN_KEY = 'vigil.token';

  class ApiError extends Error {
    constructor(status, title, detail, body) {
      super(detail || title || ('HTTP ' + status));
      this.status = status;
      this.title = title || '';
      this.detail = detail || title || ('The server answered ' + status);
      this.body = body || null;
    }
  }

  const session = {
    token: null,
    name: '',
    scopes: null, // null: unknown (the server decides with 403)
    onUnauthorized: null, // set by app.js
  };

  function loadToken() {
    try {
      session.token = sessionStorage.getItem(TOKEN_KEY);
    } catch (e) {
      session.token = null;
    }
    return session.token;
  }

  function saveToken(token) {
    session.token = token;
    try {
      sessionStorage.setItem(TOKEN_KEY, token);
    } catch (e) {
      /* private mode: keep it in memory only */
    }
  }

  function dropToken() {
    session.token = null;
    session.name = '';
    session.scopes = null;
    try {
      sessionStorage.removeItem(TOKEN_KEY);
    } catch (e) {
      /* ignore */
    }
  }

  /** True when the signed-in token may do `scope` (admin may do everything); unknown scopes allow (server decides). */
  function can(scope) {
    if (!session.scopes) return true;
    return session.scopes.includes('admin') || session.scopes.includes(scope);
  }

  /**
   * api('/v1/status', {method, body, signal, token, headers}) → parsed JSON (or null for an empty body).
   * Throws ApiError; a 401 also drops the token and calls session.onUnauthorized (unless opts.noSignOut).
   */
  async function api(path, opts) {
    return (await apiResponse(path, opts)).data;
  }

  /**
   * Like api(), but answers {data, status, etag}: for conditional writes, which send back the revision (ETag) they
   * read. opts.headers adds request headers (If-Match, If-None-Match); it cannot replace Authorization.
   */
  async function apiResponse(path, opts) {
    const o = opts || {};
    if (typeof path !== 'string' || !path.startsWith('/v1/')) throw new Error('refusing a non-API path');
    const token = o.token || session.token;
    const headers = Object.assign({}, o.headers || {}, { Accept: 'application/json, application/problem+json' });
    delete headers.Authorization;
    if (token) headers.Authorization = 'Bearer ' + token;
    let body;
    if (o.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(o.body);
    }
    let res;
    try {
      res = await fetch(path, {
        method: o.method || 'GET',
        headers,
        body,
        signal: o.signal,
        credentials: 'same-origin',
        cache: 'no-store',
        redirect: 'error',
        referrerPolicy: 'no-referrer',
      });
    } catch (e) {
      if (e && e.name === 'AbortError') throw e;
      throw new ApiError(0, 'Network error', 'Could not reach the server (' + (e && e.message ? e.message : 'network error') + ')');
    }
    const text = await res.text();
    let data = null;
    if (text) {
      try {
        data = JSON.parse(text);
      } catch (e) {
        data = null;
      }
    }
    if (!res.ok) {
      const title = data && typeof data.title === 'string' ? data.title : res.statusText;
      const detail = data && typeof data.detail === 'string' ? data.detail : '';
      const err = new ApiError(res.status, title, detail, data);
      const retry = Number(res.headers.get('Retry-After'));
      if (retry > 0) err.retryAfter = retry;
      if (res.status === 401 && !o.noSignOut) {
        dropToken();
        if (session.onUnauthorized) session.onUnauthorized(err);
      }
      err.etag = res.headers.get('ETag');
      throw err;
    }
    return { data, status: res.status, etag: res.headers.get('ETag') };
  }

  function enc(s) {
    return encodeURIComponent(s);
  }

  V.ApiError = ApiError;
  V.session = session;
  V.api = api;
  V.apiResponse = apiResponse;
  V.enc = enc;
  V.can = can;
  V.loadToken = loadToken;
  V.saveToken = saveToken;
  V.dropToken = dropToken;
})(window.Vigil);

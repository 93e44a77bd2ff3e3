// The dashboard's client of the public /v1 API. It authenticates with the session cookie (sent by
// the browser) and, on writes, the session's CSRF token in X-CSRF-Token. Errors come back as
// ApiError carrying the API's own message, code and param, so pages show them as they are.

let csrfToken = null;
const signedOutListeners = new Set();

export class ApiError extends Error {
  constructor(status, body) {
    const error = body?.error ?? {};
    super(error.message || body?.message || `The request failed (HTTP ${status}).`);
    this.status = status;
    this.code = error.code ?? null;
    this.param = error.param ?? null;
    this.requestId = body?.request_id ?? null;
  }
}

/** Remembers the CSRF token of the current session (null when signed out). */
export function setCsrfToken(token) {
  csrfToken = token;
}

/** Called when an API call answers 401: the session ended (expired, signed out elsewhere). */
export function onSignedOut(listener) {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
}

function url(path, query) {
  const target = new URL(path.startsWith('/') ? path : `/v1/${path}`, location.origin);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    target.searchParams.set(key, String(value));
  }
  return target.pathname + target.search;
}

/**
 * One API call. `body` is sent as JSON, `form` (a FormData) as multipart; `raw` returns the
 * Response itself (downloads, audio). Paths without a leading slash are under /v1.
 */
export async function request(method, path, { query, body, form, raw, quietAuth } = {}) {
  const headers = { Accept: 'application/json' };
  if (method !== 'GET' && method !== 'HEAD' && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  let payload;
  if (form) payload = form;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url(path, query), { method, headers, body: payload, credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, {
      error: { message: 'The service cannot be reached. Check your connection and try again.' },
    });
  }
  if (response.status === 401 && !quietAuth) for (const listener of signedOutListeners) listener();
  if (!response.ok) {
    const errorBody = await response.json().catch(() => null);
    throw new ApiError(response.status, errorBody);
  }
  if (raw) return response;
  if (response.status === 204) return null;
  const text = await response.text();
  return text ? JSON.parse(text) : null;
}

export const api = {
  get: (path, query, options) => request('GET', path, { ...options, query }),
  post: (path, body, options) => request('POST', path, { ...options, body }),
  put: (path, body, options) => request('PUT', path, { ...options, body }),
  patch: (path, body, options) => request('PATCH', path, { ...options, body }),
  del: (path, options) => request('DELETE', path, options),
};

/** The items of a list answer, whichever envelope the endpoint uses (`[...]`, `{ data: [...] }`). */
export function itemsOf(body) {
  if (Array.isArray(body)) return body;
  if (Array.isArray(body?.data)) return body.data;
  if (Array.isArray(body?.data?.data)) return body.data.data;
  return [];
}

/** One page of a cursor list: `{ items, nextCursor }` (`limit` turns paging on). */
export async function fetchPage(path, query = {}, limit = 25) {
  const body = await api.get(path, { ...query, limit });
  return { items: itemsOf(body), nextCursor: body?.has_more ? body.next_cursor : null };
}

/** Every item of a cursor list, page by page (for pickers and charts; bounded by `max`). */
export async function fetchAll(path, query = {}, max = 1000) {
  const items = [];
  let cursor;
  do {
    const body = await api.get(path, { ...query, limit: 100, cursor });
    items.push(...itemsOf(body));
    cursor = body?.has_more ? body.next_cursor : null;
  } while (cursor && items.length < max);
  return items;
}

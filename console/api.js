// Calls to the admin API with the session cookie; every change carries the CSRF token.
let csrfToken = null;

export function setCsrf(token) {
  csrfToken = token;
}

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function api(path, options = {}) {
  const method = options.method ?? 'GET';
  const headers = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  const response = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  let data;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { message: text };
  }
  if (!response.ok) throw new ApiError(response.status, data?.error ?? 'error', data?.message ?? `HTTP ${response.status}`);
  return data;
}

export const formatNumber = (n) => (n == null ? '–' : Number(n).toLocaleString('en-US'));

export function formatWhen(iso) {
  if (!iso) return 'never';
  const ms = Date.parse(iso) - Date.now();
  const abs = Math.abs(ms);
  const units = [
    [86_400_000, 'day'],
    [3_600_000, 'hour'],
    [60_000, 'minute'],
  ];
  for (const [size, name] of units) {
    if (abs >= size) {
      const n = Math.round(abs / size);
      const text = `${n} ${name}${n === 1 ? '' : 's'}`;
      return ms < 0 ? `${text} ago` : `in ${text}`;
    }
  }
  return ms < 0 ? 'just now' : 'in under a minute';
}

/** The header an operator's console call names its key in (the server's CALL_AS_HEADER; /admin/explore says it too). */
const CALL_AS_HEADER = 'x-leadbase-call-as';

/**
 * An API call made from the console (the Explore screen): the API's own route, with the session's
 * CSRF token in place of a key; `callAs` names the key an operator calls as. Any answer is returned,
 * with its status and the charge headers, since a refusal is something to show too.
 */
export async function callApi(path, { method = 'POST', body, callAs, callAsHeader = CALL_AS_HEADER } = {}) {
  const headers = { accept: 'application/json', 'x-csrf-token': csrfToken ?? '' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (callAs != null) headers[callAsHeader] = String(callAs);
  const response = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let data;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  return {
    status: response.status,
    data,
    cost: response.headers.get('x-credits-cost'),
    remaining: response.headers.get('x-credits-remaining'),
  };
}

/**
 * A CSV file of the API (a bulk job's results) saved by the browser: fetched as a console call (a
 * plain link cannot carry the CSRF token and the key called as), then handed over as a download.
 */
export async function downloadApi(path, { callAs, filename }) {
  const headers = { accept: 'text/csv', 'x-csrf-token': csrfToken ?? '' };
  if (callAs != null) headers[CALL_AS_HEADER] = String(callAs);
  const response = await fetch(path, { headers, credentials: 'same-origin' });
  if (!response.ok) {
    const data = await response.json().catch(() => null);
    throw new ApiError(response.status, data?.error ?? 'error', data?.message ?? `HTTP ${response.status}`);
  }
  const url = URL.createObjectURL(await response.blob());
  const link = Object.assign(document.createElement('a'), { href: url, download: filename });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

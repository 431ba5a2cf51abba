// Explore (docs/console.md, "Explore"): companies, jobs and people searched as the API searches them.
// The form's fields are the operation's own request schema, the price comes from the server before
// the call, the call is the API's own route charged to a key, and the answer is shown drawn and as
// JSON beside the curl line that makes the same call.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { html } from '../html.js';
import { api, callApi, formatNumber } from '../api.js';
import { ErrorMessage, Loading } from '../notices.js';
import { Table } from '../table.js';

const credits = (n) => `${formatNumber(n)} credit${Number(n) === 1 ? '' : 's'}`;

/** What kind of form field a property of a request schema is. */
function kindOf(schema) {
  if (schema.anyOf?.every((s) => 'const' in s)) return 'choice';
  if (schema.type === 'object') return 'group';
  if (schema.type === 'array') return 'list';
  if (schema.type === 'boolean') return 'boolean';
  if (schema.type === 'integer' || schema.type === 'number') return 'number';
  if (schema.format === 'date') return 'date';
  return 'text';
}

/**
 * The request body from the form's texts: empty fields are left out, lists split on commas, numbers
 * sent as numbers. Anything else is sent as typed, so the API's own refusal says what is wrong.
 */
function bodyOf(schema, values, prefix = '') {
  const body = {};
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    const path = prefix + name;
    const kind = kindOf(field);
    if (kind === 'group') {
      const inner = bodyOf(field, values, `${path}.`);
      if (Object.keys(inner).length) body[name] = inner;
      continue;
    }
    const text = (values[path] ?? '').trim();
    if (text === '') continue;
    if (kind === 'list')
      body[name] = text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    else if (kind === 'boolean') body[name] = text === 'true';
    else if (kind === 'number') body[name] = /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
    else body[name] = text;
  }
  return body;
}

/** The field's description, its range and default, as the schema states them. */
function hintOf(field, kind) {
  const range =
    field.minimum !== undefined && field.maximum !== undefined && field.maximum < 2_000_000_000
      ? `${formatNumber(field.minimum)}–${formatNumber(field.maximum)}`
      : null;
  return [
    field.description ?? field.items?.description,
    kind === 'list' ? 'separated by commas' : null,
    range,
    field.default !== undefined && kind !== 'boolean' ? `default ${field.default}` : null,
  ]
    .filter(Boolean)
    .join('; ');
}

function Fields({ schema, values, onChange, prefix = '' }) {
  return Object.entries(schema.properties ?? {}).map(([name, field]) => {
    const path = prefix + name;
    const id = `f-${path.replace(/\./g, '-')}`;
    const kind = kindOf(field);
    if (kind === 'group')
      return html`<fieldset class="group">
        <legend><code>${name}</code></legend>
        <div class="fields"><${Fields} schema=${field} values=${values} onChange=${onChange} prefix=${`${path}.`} /></div>
      </fieldset>`;
    const required = schema.required?.includes(name);
    const hint = hintOf(field, kind);
    const value = values[path] ?? '';
    const set = (event) => onChange(path, event.currentTarget.value);
    const common = { id, 'aria-describedby': hint ? `${id}-hint` : undefined, 'aria-required': required ? 'true' : undefined };
    const input =
      kind === 'choice' || kind === 'boolean'
        ? html`<select ...${common} value=${value} onChange=${set}>
            <option value="">not set</option>
            ${(kind === 'boolean' ? [{ const: 'true' }, { const: 'false' }] : field.anyOf).map(
              (o) => html`<option value=${String(o.const)}>${String(o.const)}</option>`,
            )}
          </select>`
        : html`<input
            ...${common}
            type=${kind === 'date' ? 'date' : 'text'}
            inputmode=${kind === 'number' ? 'numeric' : undefined}
            autocomplete="off"
            value=${value}
            onInput=${set}
          />`;
    return html`<div class="field">
      <label for=${id}><code>${name}</code>${required ? ' (required)' : ''}</label>
      ${input} ${hint && html`<small class="hint" id=${`${id}-hint`}>${hint}</small>`}
    </div>`;
  });
}

/** The shell command that makes the same call with the caller's own key. */
function curlOf(origin, op, body) {
  const json = JSON.stringify(body).replace(/'/g, `'\\''`);
  return [
    `curl -X ${op.method} '${origin}${op.path}'`,
    `  -H "X-API-Key: $LEADBASE_API_KEY"`,
    `  -H 'Content-Type: application/json'`,
    `  -d '${json}'`,
  ].join(' \\\n');
}

function CopyButton({ text, label }) {
  const [copied, setCopied] = useState(null);
  const copy = () =>
    navigator.clipboard?.writeText(text).then(
      () => setCopied('Copied'),
      () => setCopied('Copy failed: select the text'),
    ) ?? setCopied('Copy failed: select the text');
  return html`<button type="button" class="ghost small" onClick=${copy} aria-label=${label}>${copied ?? 'Copy'}</button>`;
}

const salaryOf = (r) =>
  r.salary_min == null ? '' : `${formatNumber(r.salary_min)}–${formatNumber(r.salary_max ?? r.salary_min)} ${r.salary_currency ?? ''}`;

/** The lists an answer holds, drawn as tables: which field, and its columns. */
const TABLES = {
  'jobs-finder': [
    'results',
    [
      { header: 'Title', cell: (r) => r.title },
      { header: 'Company', cell: (r) => r.company?.name },
      { header: 'Location', cell: (r) => r.location },
      { header: 'Published', cell: (r) => r.published?.slice(0, 10), class: 'nowrap' },
      { header: 'Salary', cell: salaryOf },
    ],
  ],
  'people-search': [
    'data',
    [
      { header: 'Name', cell: (r) => r.full_name },
      { header: 'Title', cell: (r) => r.job_title },
      { header: 'Level', cell: (r) => r.job_level },
      { header: 'Company', cell: (r) => r.company_name },
      { header: 'Work email held', cell: (r) => (r.has_email ? 'yes' : 'no') },
    ],
  ],
  'employee-finder': [
    'data',
    [
      { header: 'Name', cell: (r) => r.full_name },
      { header: 'Title', cell: (r) => r.title },
      { header: 'Company', cell: (r) => r.company_name },
    ],
  ],
};

const isScalar = (v) => v !== null && v !== undefined && typeof v !== 'object';

function Drawn({ opId, data }) {
  const table = TABLES[opId];
  if (table && Array.isArray(data[table[0]])) {
    const [field, columns] = table;
    const rows = data[field];
    const total = data.total_count;
    const of = total != null ? ` of ${formatNumber(total)}` : '';
    const page = data.page ? `, page ${data.page}` : '';
    // One string: htm drops the spaces where a line breaks beside a value.
    const summary = `${data.message ? `${data.message} ` : ''}${formatNumber(rows.length)} shown${of}${page}.`;
    return html`<p>${summary}</p>
      ${rows.length > 0 && html`<${Table} label="Answer as a table" columns=${columns} rows=${rows} stacking />`}`;
  }
  const fields = Object.entries(data).filter(([name, value]) => isScalar(value) && name !== 'message' && name !== 'credits_consumed');
  const headquarters = Array.isArray(data.locations) ? (data.locations.find((l) => l.headquarter) ?? data.locations[0]) : null;
  return html`${data.message && html`<p>${data.message}</p>`}
  ${
    fields.length > 0 &&
    html`<dl class="record">
      ${fields.map(
        ([name, value]) =>
          html`<div>
            <dt>${name}</dt>
            <dd>${typeof value === 'number' ? formatNumber(value) : String(value)}</dd>
          </div>`,
      )}
      ${
        headquarters &&
        html`<div>
          <dt>headquarters</dt>
          <dd>${[headquarters.city, headquarters.geographic_area, headquarters.country].filter(Boolean).join(', ')}</dd>
        </div>`
      }
    </dl>`
  }`;
}

function Answer({ answer, headingRef }) {
  const { status, data, op } = answer;
  const ok = status >= 200 && status < 300;
  const charged = ok ? Number(answer.cost ?? data?.credits_consumed ?? 0) : 0;
  const quoted = `(quoted: at most ${credits(answer.quote?.most_credits ?? 0)})`;
  const left = answer.remaining != null ? `; the key has ${credits(answer.remaining)} left` : '';
  return html`<section class="answer" aria-labelledby="answer-title">
    <h2 id="answer-title" tabindex="-1" ref=${headingRef}>
      Answer <span class="muted">${op.method} ${op.path} — ${status}${ok ? ' OK' : ` ${data?.error ?? ''}`}</span>
    </h2>
    <p class=${ok ? 'charged' : 'charged error'} data-testid="charged">
      ${
        ok
          ? html`Charged <strong>${credits(charged)}</strong> ${quoted}${left}.`
          : html`Refused: ${data?.message ?? `HTTP ${status}`} Nothing was charged.`
      }
    </p>
    <div class="explore-panes">
      <div>
        <h3>Drawn</h3>
        ${ok && data && typeof data === 'object' ? html`<${Drawn} opId=${op.id} data=${data} />` : html`<p class="muted">No answer to draw.</p>`}
      </div>
      <div>
        <h3 id="json-title">JSON</h3>
        <pre class="code json" tabindex="0" role="region" aria-labelledby="json-title" data-testid="json"><code>${JSON.stringify(
          data,
          null,
          2,
        )}</code></pre>
      </div>
    </div>
  </section>`;
}

function PriceLine({ quote, error }) {
  if (error) return html`<span class="error">${error}</span>`;
  if (!quote) return html`<span class="muted">Pricing…</span>`;
  return html`<span>
    At most <strong>${credits(quote.most_credits)}</strong>${
      quote.items != null ? ` (up to ${formatNumber(quote.items)} results, ${credits(quote.each_credits)} each)` : ''
    }. <span class="muted">Rule: ${quote.rule}.</span>
  </span>`;
}

export function Explore({ session }) {
  const operator = session.role === 'operator';
  const [catalogue, setCatalogue] = useState(null);
  const [keys, setKeys] = useState(null);
  const [callAs, setCallAs] = useState(operator ? '' : String(session.key_id));
  const [opId, setOpId] = useState('company-search');
  const [values, setValues] = useState({});
  const [quote, setQuote] = useState(null);
  const [quoteError, setQuoteError] = useState(null);
  const [answer, setAnswer] = useState(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const answerHeading = useRef(null);

  const loadKeys = () =>
    api('/admin/keys').then(
      (r) => setKeys(r.keys.filter((k) => !k.revoked_at)),
      (e) => setError(e.message),
    );
  useEffect(() => {
    api('/admin/explore').then(setCatalogue, (e) => setError(e.message));
    void loadKeys();
  }, []);

  const op = catalogue?.operations.find((o) => o.id === opId);
  const opValues = values[opId] ?? {};
  const body = useMemo(() => (op ? bodyOf(op.body, opValues) : {}), [op, opValues]);
  const bodyText = JSON.stringify(body);

  // The price of the call as it stands, from the server's own rule, a moment after the last keystroke.
  useEffect(() => {
    if (!op) return undefined;
    let current = true;
    setQuote(null);
    const timer = setTimeout(() => {
      api('/admin/explore/quote', { method: 'POST', body: { operation: op.id, body } }).then(
        (q) => current && (setQuote(q), setQuoteError(null)),
        (e) => current && setQuoteError(e.message),
      );
    }, 200);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [opId, bodyText, Boolean(op)]);

  useEffect(() => {
    if (answer) answerHeading.current?.focus();
  }, [answer]);

  if (error && !catalogue) return html`<${ErrorMessage} message=${error} />`;
  if (!catalogue || !keys) return html`<${Loading} what="Loading Explore…" />`;

  const key = keys.find((k) => String(k.id) === callAs);
  const change = (path, value) => setValues({ ...values, [opId]: { ...opValues, [path]: value } });
  const submit = async (event) => {
    event.preventDefault();
    if (!key || !quote) return;
    setBusy(true);
    setError(null);
    try {
      const result = await callApi(op.path, {
        method: op.method,
        body,
        callAs: operator ? key.id : null,
        callAsHeader: catalogue.call_as_header,
      });
      setAnswer({ ...result, op, quote });
      await loadKeys();
    } catch (e) {
      setError(e.message);
    } finally {
      setBusy(false);
    }
  };
  const curl = curlOf(location.origin, op, body);

  return html`<h1>Explore</h1>
    <p>
      Search companies, jobs and people as the API does. Each call is a real API call: the same route, the same price, charged to the
      key${operator ? ' you choose' : ''}.
    </p>
    <div class="explore-top">
      ${
        operator
          ? html`<div class="field">
              <label for="call-as">Call as key</label>
              <select id="call-as" value=${callAs} onChange=${(e) => setCallAs(e.currentTarget.value)}>
                <option value="">Choose a key…</option>
                ${keys.map((k) => html`<option value=${String(k.id)}>#${k.id} ${k.name} (${credits(k.credits)})</option>`)}
              </select>
            </div>`
          : null
      }
      <div class="field">
        <label for="operation">Operation</label>
        <select id="operation" value=${opId} onChange=${(e) => setOpId(e.currentTarget.value)}>
          ${catalogue.operations.map((o) => html`<option value=${o.id}>${o.method} ${o.path} (${o.tag})</option>`)}
        </select>
      </div>
      <p class="calling" data-testid="calling">
        ${
          key
            ? html`Charged to key <strong>#${key.id} ${key.name}</strong>: ${credits(key.credits)} left.`
            : html`<span class="muted">Choose the key the calls are made as: they spend its credits.</span>`
        }
      </p>
    </div>
    <form class="explore-form" onSubmit=${submit} aria-label=${`${op.method} ${op.path}`}>
      <p class="muted">${op.summary}.${op.body.description ? ` ${op.body.description}` : ''}</p>
      <div class="fields"><${Fields} schema=${op.body} values=${opValues} onChange=${change} /></div>
      <div class="price-bar">
        <p role="status" data-testid="price"><${PriceLine} quote=${quote} error=${quoteError} /></p>
        <button type="submit" disabled=${busy || !key || !quote}>${busy ? 'Calling…' : `Call ${op.path}`}</button>
      </div>
    </form>
    <section aria-labelledby="curl-title">
      <div class="with-action">
        <h2 id="curl-title">The same call with curl</h2>
        <${CopyButton} text=${curl} label="Copy the curl command" />
      </div>
      <pre class="code curl" tabindex="0" role="region" aria-labelledby="curl-title" data-testid="curl"><code>${curl}</code></pre>
      <p class="muted small">Set <code>LEADBASE_API_KEY</code> to the key's secret first (<code>export LEADBASE_API_KEY=lb_…</code>).</p>
    </section>
    <${ErrorMessage} message=${error} />
    ${answer && html`<${Answer} answer=${answer} headingRef=${answerHeading} />`}`;
}

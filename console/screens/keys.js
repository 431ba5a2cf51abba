import { useEffect, useState } from 'preact/hooks';
import { html } from '../html.js';
import { api, formatNumber } from '../api.js';
import { BarChart } from '../chart.js';
import { Lists } from './lists.js';
import { ErrorMessage, Loading } from '../notices.js';
import { Table } from '../table.js';

function CreatedSecret({ created, onDone }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(created.key).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return html`<section class="notice" role="status" aria-label="New key">
    <h2>Key “${created.name}” created</h2>
    <p>This is the only time the secret is shown: copy it now.</p>
    <p class="secret">
      <code data-testid="new-key">${created.key}</code> <button type="button" onClick=${copy}>${copied ? 'Copied' : 'Copy'}</button>
    </p>
    <button type="button" class="ghost" onClick=${onDone}>Done</button>
  </section>`;
}

export function Keys() {
  const [keys, setKeys] = useState(null);
  const [error, setError] = useState(null);
  const [name, setName] = useState('');
  const [credits, setCredits] = useState('');
  const [created, setCreated] = useState(null);
  const load = () =>
    api('/admin/keys').then(
      (r) => setKeys(r.keys),
      (e) => setError(e.message),
    );
  useEffect(() => void load(), []);
  const create = async (event) => {
    event.preventDefault();
    setError(null);
    try {
      setCreated(await api('/admin/keys', { method: 'POST', body: { name, credits: credits || undefined } }));
      setName('');
      setCredits('');
      await load();
    } catch (e) {
      setError(e.message);
    }
  };
  const revoke = async (key) => {
    if (!confirm(`Revoke key ${key.id} (${key.name})? Requests made with it will be refused at once.`)) return;
    try {
      await api(`/admin/keys/${key.id}/revoke`, { method: 'POST' });
      await load();
    } catch (e) {
      setError(e.message);
    }
  };
  const columns = [
    { header: 'Id', cell: (k) => k.id },
    { header: 'Name', cell: (k) => html`<a href=${`#/keys/${k.id}`}>${k.name}</a>` },
    { header: 'Prefix', cell: (k) => html`<code>${k.prefix}…</code>` },
    { header: 'Credits', cell: (k) => formatNumber(k.credits), numeric: true },
    { header: 'Created', cell: (k) => k.created_at.slice(0, 10) },
    {
      header: 'State',
      cell: (k) => (k.revoked_at ? html`<span class="badge bad">revoked</span>` : html`<span class="badge ok">live</span>`),
    },
    {
      header: html`<span class="sr-only">Actions</span>`,
      cell: (k) =>
        !k.revoked_at &&
        html`<button type="button" class="danger small" onClick=${() => revoke(k)} aria-label=${`Revoke key ${k.name}`}>Revoke</button>`,
    },
  ];
  return html`<h1>Keys</h1>
    ${created && html`<${CreatedSecret} created=${created} onDone=${() => setCreated(null)} />`}
    <form class="inline" onSubmit=${create} aria-label="Create a key">
      <div>
        <label for="key-name">Name</label>
        <input id="key-name" required maxlength="200" value=${name} onInput=${(e) => setName(e.currentTarget.value)} />
      </div>
      <div>
        <label for="key-credits">Starting credits</label>
        <input id="key-credits" inputmode="decimal" placeholder="0" value=${credits} onInput=${(e) => setCredits(e.currentTarget.value)} />
      </div>
      <button type="submit">Create key</button>
    </form>
    <${ErrorMessage} message=${error} />
    <${Table} label="Keys" columns=${columns} rows=${keys} loading="Loading keys…" />`;
}

/** Days of the period, oldest first, as YYYY-MM-DD (UTC), to place the aggregate's rows. */
function periodDays(days) {
  const today = Math.floor(Date.now() / 86_400_000);
  return Array.from({ length: days }, (_, i) => new Date((today - days + 1 + i) * 86_400_000).toISOString().slice(0, 10));
}

function Usage({ id, version }) {
  const [days, setDays] = useState(30);
  const [measure, setMeasure] = useState('credits');
  const [usage, setUsage] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    setUsage(null);
    api(`/admin/keys/${id}/usage?days=${days}`).then(
      (r) => setUsage(r.usage),
      (e) => setError(e.message),
    );
  }, [id, days, version]);
  const axis = periodDays(days);
  const operations = [...new Set((usage ?? []).map((r) => r.operation))].sort();
  const series = operations.map((operation) => ({
    name: operation,
    values: axis.map((day) => {
      const row = usage.find((r) => r.day === day && r.operation === operation);
      return row ? row[measure] : 0;
    }),
  }));
  return html`<section aria-labelledby="usage-title">
    <h2 id="usage-title">Usage</h2>
    <div class="toolbar" role="group" aria-label="Period and measure">
      ${[7, 30, 90].map(
        (d) =>
          html`<button type="button" class=${days === d ? '' : 'ghost'} aria-pressed=${days === d} onClick=${() => setDays(d)}>
            ${d} days
          </button>`,
      )}
      <span class="spacer"></span>
      ${['credits', 'calls'].map(
        (m) =>
          html`<button type="button" class=${measure === m ? '' : 'ghost'} aria-pressed=${measure === m} onClick=${() => setMeasure(m)}>
            ${m}
          </button>`,
      )}
    </div>
    <${ErrorMessage} message=${error} />
    ${
      usage
        ? html`<${BarChart} days=${axis} series=${series} label=${`${measure} per day per operation over ${days} days`} />`
        : html`<${Loading} what="Loading usage…" />`
    }
  </section>`;
}

function SpendCap({ id, operator, version }) {
  const [cap, setCap] = useState(undefined);
  const [form, setForm] = useState({ period: 'day', cap: '', alert_at: '' });
  const [error, setError] = useState(null);
  const load = () =>
    api(`/admin/keys/${id}/spend-cap`).then(
      (r) => setCap(r.spend_cap),
      (e) => setError(e.message),
    );
  useEffect(() => void load(), [id, version]);
  const save = async (event, remove = false) => {
    event.preventDefault();
    setError(null);
    try {
      const body = remove ? { cap: null } : { period: form.period, cap: form.cap, alert_at: form.alert_at || undefined };
      await api(`/admin/keys/${id}/spend-cap`, { method: 'PUT', body });
      await load();
    } catch (e) {
      setError(e.message);
    }
  };
  if (cap === undefined) return null;
  return html`<section aria-labelledby="cap-title">
    <h2 id="cap-title">Spend cap</h2>
    ${
      cap
        ? html`<p data-testid="spend-cap">
            ${formatNumber(cap.spent)} of ${formatNumber(cap.cap)} credits spent this UTC ${cap.period}
            ${
              cap.reached
                ? html` <span class="badge bad">cap reached: calls are refused (402)</span>`
                : cap.alert
                  ? html` <span class="badge warn">above the alert threshold (${formatNumber(cap.alert_at)})</span>`
                  : null
            }
          </p>`
        : html`<p>No spend cap: the key may spend its whole balance.</p>`
    }
    ${
      operator &&
      html`<form class="inline" onSubmit=${save} aria-label="Set the spend cap">
        <div>
          <label for="cap-period">Period</label>
          <select id="cap-period" value=${form.period} onChange=${(e) => setForm({ ...form, period: e.currentTarget.value })}>
            <option value="day">per UTC day</option>
            <option value="month">per UTC month</option>
          </select>
        </div>
        <div>
          <label for="cap-credits">Cap (credits)</label>
          <input
            id="cap-credits"
            required
            inputmode="decimal"
            value=${form.cap}
            onInput=${(e) => setForm({ ...form, cap: e.currentTarget.value })}
          />
        </div>
        <div>
          <label for="cap-alert">Alert at (credits)</label>
          <input
            id="cap-alert"
            inputmode="decimal"
            value=${form.alert_at}
            onInput=${(e) => setForm({ ...form, alert_at: e.currentTarget.value })}
          />
        </div>
        <button type="submit">Set cap</button>
        ${cap && html`<button type="button" class="ghost" onClick=${(e) => save(e, true)}>Remove cap</button>`}
      </form>`
    }
    <${ErrorMessage} message=${error} />
  </section>`;
}

/** Per operation: its default requests per minute, and this key's own limit when it has one. */
const limitColumns = (limits) => [
  { header: 'Operation', cell: (op) => op },
  { header: 'Default', cell: (op) => formatNumber(limits.defaults[op]), numeric: true },
  { header: 'This key', cell: (op) => (limits.own[op] != null ? formatNumber(limits.own[op]) : '–'), numeric: true },
];

function Limits({ id, operator }) {
  const [limits, setLimits] = useState(null);
  const [form, setForm] = useState({ operation: '', per_minute: '' });
  const [secret, setSecret] = useState(null);
  const [error, setError] = useState(null);
  const load = () => api(`/admin/keys/${id}/limits`).then(setLimits, (e) => setError(e.message));
  useEffect(() => void load(), [id]);
  const save = async (event) => {
    event.preventDefault();
    setError(null);
    try {
      const per = form.per_minute.trim() === '' ? null : Number(form.per_minute);
      await api(`/admin/keys/${id}/limits`, { method: 'PUT', body: { operation: form.operation, per_minute: per } });
      await load();
    } catch (e) {
      setError(e.message);
    }
  };
  const reveal = async (rotate) => {
    setError(null);
    try {
      const r = await api(`/admin/keys/${id}/webhook-secret`, { method: rotate ? 'POST' : 'GET' });
      setSecret(r.webhook_secret);
    } catch (e) {
      setError(e.message);
    }
  };
  if (!limits) return null;
  const operations = Object.keys(limits.defaults).sort();
  return html`<section aria-labelledby="limits-title">
    <h2 id="limits-title">Limits and webhooks</h2>
    <details>
      <summary>Requests per minute, per operation (${Object.keys(limits.own).length} set for this key)</summary>
      <${Table} label="Limits" columns=${limitColumns(limits)} rows=${operations} />
    </details>
    ${
      operator &&
      html`<form class="inline" onSubmit=${save} aria-label="Set a limit">
          <div>
            <label for="limit-operation">Operation</label>
            <select
              id="limit-operation"
              required
              value=${form.operation}
              onChange=${(e) => setForm({ ...form, operation: e.currentTarget.value })}
            >
              <option value="">Choose</option>
              ${operations.map((op) => html`<option value=${op}>${op}</option>`)}
            </select>
          </div>
          <div>
            <label for="limit-per-minute">Per minute (empty: default)</label>
            <input
              id="limit-per-minute"
              inputmode="numeric"
              value=${form.per_minute}
              onInput=${(e) => setForm({ ...form, per_minute: e.currentTarget.value })}
            />
          </div>
          <button type="submit">Set limit</button>
        </form>
        <p>
          <button type="button" class="ghost" onClick=${() => reveal(false)}>Show webhook secret</button>
          <button type="button" class="ghost" onClick=${() => reveal(true)}>Rotate webhook secret</button>
          ${secret && html` <code data-testid="webhook-secret">${secret}</code>`}
        </p>`
    }
    <${ErrorMessage} message=${error} />
  </section>`;
}

const LEDGER_COLUMNS = [
  { header: 'When', cell: (r) => html`<time datetime=${r.at}>${r.at.replace('T', ' ').slice(0, 19)}</time>` },
  { header: 'Kind', cell: (r) => r.kind },
  { header: 'Credits', cell: (r) => `${r.kind === 'grant' ? '+' : '−'}${formatNumber(r.credits)}`, numeric: true },
  { header: 'Operation', cell: (r) => r.operation ?? '' },
  { header: 'Note', cell: (r) => r.note ?? '' },
];

export function KeyDetail({ id, session }) {
  const [key, setKey] = useState(null);
  const [ledger, setLedger] = useState(null);
  const [error, setError] = useState(null);
  const [grant, setGrant] = useState({ credits: '', note: '' });
  const [message, setMessage] = useState(null);
  // Bumped when something charged the key (a list finished): the usage chart reloads.
  const [version, setVersion] = useState(0);
  const load = () =>
    Promise.all([api(`/admin/keys/${id}`), api(`/admin/keys/${id}/ledger?limit=50`)]).then(
      ([k, l]) => {
        setKey(k);
        setLedger(l.ledger);
      },
      (e) => setError(e.message),
    );
  useEffect(() => void load(), [id]);
  const refresh = () => {
    void load();
    setVersion((v) => v + 1);
  };
  const submitGrant = async (event) => {
    event.preventDefault();
    setError(null);
    try {
      const r = await api(`/admin/keys/${id}/credits`, { method: 'POST', body: { credits: grant.credits, note: grant.note || undefined } });
      await load();
      setMessage(`Granted ${formatNumber(r.granted)} credits; the balance is now ${formatNumber(r.credits)}.`);
      setGrant({ credits: '', note: '' });
    } catch (e) {
      setError(e.message);
    }
  };
  if (error && !key) return html`<${ErrorMessage} message=${error} />`;
  if (!key) return html`<${Loading} what="Loading the key…" />`;
  return html`${session.role === 'operator' && html`<p><a href="#/keys">← All keys</a></p>`}
    <h1>Key ${key.name} <span class="muted">#${key.id}</span></h1>
    <div class="cards">
      <section class="card" aria-label="Balance">
        <h3>Balance</h3>
        <p class="big" data-testid="balance">${formatNumber(key.credits)} credits</p>
      </section>
      <section class="card" aria-label="Key">
        <h3>Key</h3>
        <p><code>${key.prefix}…</code></p>
        <p>
          ${key.revoked_at ? html`<span class="badge bad">revoked ${key.revoked_at.slice(0, 10)}</span>` : html`<span class="badge ok">live</span>`}
        </p>
      </section>
    </div>
    ${
      session.role === 'operator' &&
      !key.revoked_at &&
      html`<form class="inline" onSubmit=${submitGrant} aria-label="Grant credits">
        <div>
          <label for="grant-credits">Credits to grant</label>
          <input
            id="grant-credits"
            required
            inputmode="decimal"
            value=${grant.credits}
            onInput=${(e) => setGrant({ ...grant, credits: e.currentTarget.value })}
          />
        </div>
        <div class="grow">
          <label for="grant-note">Note</label>
          <input
            id="grant-note"
            maxlength="500"
            value=${grant.note}
            onInput=${(e) => setGrant({ ...grant, note: e.currentTarget.value })}
          />
        </div>
        <button type="submit">Grant credits</button>
      </form>`
    }
    ${message && html`<p class="ok-text" role="status">${message}</p>`} <${ErrorMessage} message=${error} />
    <${SpendCap} id=${id} operator=${session.role === 'operator'} version=${version} />
    <${Usage} id=${id} version=${version} />
    <${Limits} id=${id} operator=${session.role === 'operator'} />
    ${!key.revoked_at && html`<${Lists} keyId=${id} onFinished=${refresh} />`}
    <section aria-labelledby="ledger-title">
      <h2 id="ledger-title">
        Ledger <a class="button ghost small" href=${`/admin/keys/${id}/ledger?format=csv&limit=100000`} download>Export CSV</a>
      </h2>
      <${Table} label="Ledger" columns=${LEDGER_COLUMNS} rows=${ledger} />
    </section>`;
}

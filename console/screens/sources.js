import { useEffect, useState } from 'preact/hooks';
import { html } from '../html.js';
import { api, formatNumber, formatWhen } from '../api.js';
import { Discovery } from './discovery.js';
import { ErrorMessage } from '../notices.js';
import { Table } from '../table.js';

/** Run now, and pause or resume: `busy` is the action under way, when one is (`<id>:<action>`). */
function SourceActions({ source, busy, act }) {
  const action = source.status === 'paused' ? 'resume' : 'pause';
  return html`<button
      type="button"
      class="small"
      disabled=${busy !== null}
      onClick=${() => act(source, 'run')}
      aria-label=${`Run now: source ${source.id}`}
    >
      ${busy === `${source.id}:run` ? 'Running…' : 'Run now'}
    </button>
    <button
      type="button"
      class="small ghost"
      disabled=${busy !== null}
      onClick=${() => act(source, action)}
      aria-label=${`${action === 'resume' ? 'Resume' : 'Pause'} source ${source.id}`}
    >
      ${action === 'resume' ? 'Resume' : 'Pause'}
    </button>`;
}

export function Sources() {
  const [sources, setSources] = useState(null);
  const [error, setError] = useState(null);
  const [message, setMessage] = useState(null);
  const [busy, setBusy] = useState(null);
  const [form, setForm] = useState({ type: 'greenhouse', locator: '' });
  const [types, setTypes] = useState([]);
  const load = () =>
    api('/admin/sources').then(
      (r) => setSources(r.sources),
      (e) => setError(e.message),
    );
  useEffect(() => {
    void load();
    api('/admin/source-types').then(
      (r) => setTypes(r.types),
      () => {},
    );
  }, []);
  const act = async (source, action) => {
    setBusy(`${source.id}:${action}`);
    setError(null);
    setMessage(null);
    try {
      const r = await api(`/admin/sources/${source.id}/${action}`, { method: 'POST' });
      if (action === 'run')
        setMessage(`Run of source ${source.id}: ${r.outcome}${r.error ? ` (${r.error})` : ''}, ${r.counts.read} rows read.`);
      await load();
    } catch (e) {
      setError(e.message);
    } finally {
      setBusy(null);
    }
  };
  const add = async (event) => {
    event.preventDefault();
    setError(null);
    try {
      const r = await api('/admin/sources', { method: 'POST', body: { type: form.type, locator: form.locator } });
      setMessage(r.created ? `Source ${r.id} added.` : `Source ${r.id} was registered already.`);
      setForm({ ...form, locator: '' });
      await load();
    } catch (e) {
      setError(e.message);
    }
  };
  const columns = [
    { header: 'Id', cell: (s) => s.id },
    { header: 'Source', cell: (s) => html`<strong>${s.type}</strong> <span class="muted">${s.locator}</span>` },
    {
      header: 'Status',
      cell: (s) =>
        html`<span class=${`badge ${s.status === 'active' ? (s.failing ? 'bad' : 'ok') : 'warn'}`}
          >${s.failing ? 'failing' : s.status}</span
        >`,
    },
    { header: 'Last success', cell: (s) => formatWhen(s.last_success_at) },
    { header: 'Next run', cell: (s) => (s.next_run_at ? formatWhen(s.next_run_at) : '–') },
    { header: 'Rows', cell: (s) => formatNumber(s.last_counts?.read ?? null), numeric: true },
    { header: 'Last error', cell: (s) => s.last_error ?? '', class: 'error-text' },
    {
      header: html`<span class="sr-only">Actions</span>`,
      cell: (s) => html`<${SourceActions} source=${s} busy=${busy} act=${act} />`,
      class: 'actions',
    },
  ];
  return html`<h1>Sources</h1>
    <form class="inline" onSubmit=${add} aria-label="Add a source">
      <div>
        <label for="source-type">Type</label>
        <select id="source-type" value=${form.type} onChange=${(e) => setForm({ ...form, type: e.currentTarget.value })}>
          ${types.map((t) => html`<option value=${t}>${t}</option>`)}
        </select>
      </div>
      <div class="grow">
        <label for="source-locator">Board token, careers URL or data set</label>
        <input id="source-locator" required value=${form.locator} onInput=${(e) => setForm({ ...form, locator: e.currentTarget.value })} />
      </div>
      <button type="submit">Add source</button>
    </form>
    ${message && html`<p class="ok-text" role="status">${message}</p>`} <${ErrorMessage} message=${error} />
    <${Discovery}
      onRegistered=${(source) => {
        setMessage(source.created ? `Source ${source.id} added.` : `Source ${source.id} was registered already.`);
        void load();
      }}
    />
    <h2>Registered</h2>
    <${Table}
      label="Sources"
      columns=${columns}
      rows=${sources}
      loading="Loading sources…"
      rowAttributes=${(source) => ({ 'data-source': source.id })}
    />`;
}

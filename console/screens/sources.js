import { useEffect, useState } from 'preact/hooks';
import { html } from '../html.js';
import { api, formatNumber, formatWhen } from '../api.js';
import { Discovery } from './discovery.js';

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
    ${message && html`<p class="ok-text" role="status">${message}</p>`} ${error && html`<p class="error" role="alert">${error}</p>`}
    <${Discovery}
      onRegistered=${(source) => {
        setMessage(source.created ? `Source ${source.id} added.` : `Source ${source.id} was registered already.`);
        void load();
      }}
    />
    <h2>Registered</h2>
    ${
      !sources
        ? html`<p class="loading">Loading sources…</p>`
        : html`<div class="table-wrap" tabindex="0" role="region" aria-label="Sources">
            <table>
              <thead>
                <tr>
                  <th scope="col">Id</th>
                  <th scope="col">Source</th>
                  <th scope="col">Status</th>
                  <th scope="col">Last success</th>
                  <th scope="col">Next run</th>
                  <th scope="col" class="num">Rows</th>
                  <th scope="col">Last error</th>
                  <th scope="col"><span class="sr-only">Actions</span></th>
                </tr>
              </thead>
              <tbody>
                ${sources.map(
                  (s) =>
                    html`<tr data-source=${s.id}>
                      <td>${s.id}</td>
                      <td><strong>${s.type}</strong> <span class="muted">${s.locator}</span></td>
                      <td>
                        <span class=${`badge ${s.status === 'active' ? (s.failing ? 'bad' : 'ok') : 'warn'}`}
                          >${s.failing ? 'failing' : s.status}</span
                        >
                      </td>
                      <td>${formatWhen(s.last_success_at)}</td>
                      <td>${s.next_run_at ? formatWhen(s.next_run_at) : '–'}</td>
                      <td class="num">${formatNumber(s.last_counts?.read ?? null)}</td>
                      <td class="error-text">${s.last_error ?? ''}</td>
                      <td class="actions">
                        <button
                          type="button"
                          class="small"
                          disabled=${busy !== null}
                          onClick=${() => act(s, 'run')}
                          aria-label=${`Run now: source ${s.id}`}
                        >
                          ${busy === `${s.id}:run` ? 'Running…' : 'Run now'}
                        </button>
                        ${
                          s.status === 'paused'
                            ? html`<button
                                type="button"
                                class="small ghost"
                                disabled=${busy !== null}
                                onClick=${() => act(s, 'resume')}
                                aria-label=${`Resume source ${s.id}`}
                              >
                                Resume
                              </button>`
                            : html`<button
                                type="button"
                                class="small ghost"
                                disabled=${busy !== null}
                                onClick=${() => act(s, 'pause')}
                                aria-label=${`Pause source ${s.id}`}
                              >
                                Pause
                              </button>`
                        }
                      </td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`
    }`;
}

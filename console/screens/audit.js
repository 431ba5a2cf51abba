import { useEffect, useState } from 'preact/hooks';
import { html } from '../html.js';
import { api } from '../api.js';

export function Audit() {
  const [entries, setEntries] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    api('/admin/audit?limit=200').then(
      (r) => setEntries(r.entries),
      (e) => setError(e.message),
    );
  }, []);
  if (error) return html`<p class="error" role="alert">${error}</p>`;
  if (!entries) return html`<p class="loading">Loading the audit log…</p>`;
  return html`<h1>Audit log</h1>
    <p class="muted">Every change an operator made, through the console or with the admin token, newest first.</p>
    <div class="table-wrap" tabindex="0" role="region" aria-label="Audit entries">
      <table>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">What</th>
            <th scope="col">On</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          ${entries.map(
            (e) =>
              html`<tr>
                <td><time datetime=${e.at}>${e.at.replace('T', ' ').slice(0, 19)}</time></td>
                <td>${e.actor}${e.ip ? html`<br /><span class="muted">${e.ip}</span>` : null}</td>
                <td><code>${e.action}</code></td>
                <td>${e.target ?? ''}</td>
                <td><code class="small">${e.detail ? JSON.stringify(e.detail) : ''}</code></td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
}

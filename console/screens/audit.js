import { useEffect, useState } from 'preact/hooks';
import { html } from '../html.js';
import { api } from '../api.js';
import { ErrorMessage, Loading } from '../notices.js';
import { Table } from '../table.js';

const COLUMNS = [
  { header: 'When', cell: (e) => html`<time datetime=${e.at}>${e.at.replace('T', ' ').slice(0, 19)}</time>` },
  { header: 'Who', cell: (e) => html`${e.actor}${e.ip ? html`<br /><span class="muted">${e.ip}</span>` : null}` },
  { header: 'What', cell: (e) => html`<code>${e.action}</code>` },
  { header: 'On', cell: (e) => e.target ?? '' },
  { header: 'Details', cell: (e) => html`<code class="small">${e.detail ? JSON.stringify(e.detail) : ''}</code>` },
];

export function Audit() {
  const [entries, setEntries] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    api('/admin/audit?limit=200').then(
      (r) => setEntries(r.entries),
      (e) => setError(e.message),
    );
  }, []);
  if (error) return html`<${ErrorMessage} message=${error} />`;
  if (!entries) return html`<${Loading} what="Loading the audit log…" />`;
  return html`<h1>Audit log</h1>
    <p class="muted">Every change an operator made, through the console or with the admin token, newest first.</p>
    <${Table} label="Audit entries" columns=${COLUMNS} rows=${entries} />`;
}

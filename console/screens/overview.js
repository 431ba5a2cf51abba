import { useEffect, useState } from 'preact/hooks';
import { html } from '../html.js';
import { api, formatNumber, formatWhen } from '../api.js';
import { BarChart } from '../chart.js';
import { Bootstrap } from './bootstrap.js';
import { ErrorMessage, Loading } from '../notices.js';
import { Table } from '../table.js';

function Badge({ state }) {
  const ok = state === 'ok' || state === 'ready';
  return html`<span class=${`badge ${ok ? 'ok' : state === 'degraded' ? 'warn' : 'bad'}`}>${state ?? 'not used'}</span>`;
}

function Card({ title, rows }) {
  return html`<section class="card" aria-label=${title}>
    <h3>${title}</h3>
    <dl>
      ${rows.map(
        ([label, value]) =>
          html`<div>
            <dt>${label}</dt>
            <dd>${formatNumber(value)}</dd>
          </div>`,
      )}
    </dl>
  </section>`;
}

const SOURCE_COLUMNS = [
  { header: 'Source', cell: (s) => html`<strong>${s.type}</strong> <span class="muted">${s.locator}</span>` },
  { header: 'Status', cell: (s) => html`${s.status}${s.stale ? html` <span class="badge warn">stale</span>` : null}` },
  { header: 'Last success', cell: (s) => formatWhen(s.last_success_at) },
  { header: 'Next run', cell: (s) => (s.next_run_at ? formatWhen(s.next_run_at) : '–') },
  { header: 'Rows', cell: (s) => formatNumber(s.rows) },
  { header: 'Last error', cell: (s) => s.last_error ?? '', class: 'error-text' },
];

/** The email prober's ways out: each identity's state, and where and until when it is quarantined. */
function OutboundIdentities({ identities }) {
  const badge = { active: 'ok', limited: 'warn', listed: 'bad' };
  return html`<h2>Email outbound identities</h2>
    <ul aria-label="Email outbound identities">
      ${identities.map(
        (i) =>
          html`<li>
            <strong>${i.id}</strong> <span class="muted">${i.via}, EHLO ${i.helo}</span>
            <span class=${`badge ${badge[i.state]}`}>${i.state}</span>
            ${i.quarantines.map(
              (q) =>
                html`<div class="muted">
                  ${q.scope === '*' ? 'on a public blocklist' : `quarantined at ${q.scope}`} until ${formatWhen(q.until)}: ${q.reply}
                </div>`,
            )}
          </li>`,
      )}
    </ul>`;
}

export function Overview() {
  const [status, setStatus] = useState(null);
  const [error, setError] = useState(null);
  const load = () => api('/admin/status').then(setStatus, (e) => setError(e.message));
  useEffect(() => {
    void load();
  }, []);
  if (error) return html`<${ErrorMessage} message=${error} />`;
  if (!status) return html`<${Loading} what="Loading the overview…" />`;
  const { stores, health } = status;
  return html`<h1>Overview</h1>
    <${Bootstrap} empty=${status.empty} onChange=${load} />
    <h2>Health</h2>
    <div class="health">
      <span>Database (${status.database.dialect}) <${Badge} state=${health.database} /></span>
      <span>Redis <${Badge} state=${health.redis} /></span>
      <span>Queue <${Badge} state=${health.queue} /> ${formatNumber(status.queue.depth)} waiting or running</span>
      ${status.database.bytes != null && html`<span>Database size ${formatNumber(Math.round(status.database.bytes / 1048576))} MB</span>`}
    </div>
    ${status.outbound_identities && html`<${OutboundIdentities} identities=${status.outbound_identities} />`}
    <h2>Requests, last 24 hours <span class="muted">(this instance, per 15 minutes)</span></h2>
    <${BarChart}
      days=${status.traffic.buckets.map((b) => b.at)}
      format=${(at) => at.slice(11, 16)}
      label="Requests and errors per 15 minutes over the last 24 hours"
      series=${[
        { name: 'answered', color: '#2563eb', values: status.traffic.buckets.map((b) => b.requests - b.client_errors - b.server_errors) },
        { name: 'refused (4xx)', color: '#d97706', values: status.traffic.buckets.map((b) => b.client_errors) },
        { name: 'errors (5xx)', color: '#dc2626', values: status.traffic.buckets.map((b) => b.server_errors) },
      ]}
    />
    <h2>Stores</h2>
    <div class="cards">
      <${Card}
        title="Companies"
        rows=${[
          ['total', stores.companies.total],
          ['with a domain', stores.companies.with_domain],
          ['with funding', stores.companies.with_funding],
          ['with leadership', stores.companies.with_leadership],
        ]}
      />
      <${Card}
        title="Jobs"
        rows=${[
          ['live', stores.jobs.live],
          ['expired', stores.jobs.expired],
          ['boards', stores.jobs.boards],
        ]}
      />
      <${Card}
        title="People"
        rows=${[
          ['total', stores.people.total],
          ['with a work email', stores.people.with_work_email],
          ['with a mobile', stores.people.with_mobile],
        ]}
      />
    </div>
    <h2>Sources <span class="muted">(stale first)</span></h2>
    <${Table}
      label="Sources, stale first"
      caption="Sources, stale ones first"
      columns=${SOURCE_COLUMNS}
      rows=${status.sources}
      rowAttributes=${(s) => ({ class: s.stale ? 'stale' : '' })}
      empty="No sources registered."
    />`;
}

import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from '../html.js';
import { api, formatNumber } from '../api.js';

const STATUSES = ['valid', 'invalid', 'valid_catch_all', 'catch_all', 'unknown'];

function StatusBars({ counts }) {
  const max = Math.max(1, ...STATUSES.map((s) => counts[s] ?? 0));
  return html`<dl class="bars" aria-label="Results per status">
    ${STATUSES.map(
      (s) =>
        html`<div>
          <dt>${s.replace(/_/g, ' ')}</dt>
          <dd>
            <svg class="bar" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true">
              <rect class=${`s-${s}`} width=${((counts[s] ?? 0) / max) * 100} height="10" />
            </svg>
            <span>${formatNumber(counts[s] ?? 0)}</span>
          </dd>
        </div>`,
    )}
  </dl>`;
}

function progressText(job) {
  const eta = job.eta_seconds != null ? `, about ${Math.max(1, Math.round(job.eta_seconds / 60))} min left` : '';
  return `${formatNumber(job.processed)} of ${formatNumber(job.total)} validated${eta} · ${formatNumber(job.credits_consumed)} credits charged`;
}

function Progress({ keyId, job, onChange }) {
  const done = ['done', 'cancelled', 'failed'].includes(job.status);
  const cancel = async () => onChange(await api(`/admin/keys/${keyId}/lists/${job.id}`, { method: 'DELETE' }));
  return html`<section class="card" aria-label="List in progress">
    <h3>List <code>${job.id}</code> — ${job.status}</h3>
    <progress max=${job.total} value=${job.processed} aria-label="Addresses validated">${job.processed} of ${job.total}</progress>
    <p role="status">${progressText(job)}</p>
    <${StatusBars} counts=${job.counts} />
    <p>
      ${!done && html`<button type="button" class="danger" onClick=${cancel}>Cancel</button>`}
      <a class="button ghost" href=${`/admin/keys/${keyId}/lists/${job.id}/results.csv`} download>Download results (CSV)</a>
    </p>
  </section>`;
}

/** Drop or paste a list, map its address column, see the price, start it, follow it, download it. */
export function Lists({ keyId, onFinished }) {
  const [csv, setCsv] = useState('');
  const [preview, setPreview] = useState(null);
  const [column, setColumn] = useState(null);
  const [job, setJob] = useState(null);
  const [past, setPast] = useState([]);
  const [error, setError] = useState(null);
  const [dragging, setDragging] = useState(false);
  const timer = useRef(null);

  const loadPast = () =>
    api(`/admin/keys/${keyId}/lists`).then(
      (r) => setPast(r.lists),
      () => {},
    );
  useEffect(() => {
    void loadPast();
    return () => clearTimeout(timer.current);
  }, [keyId]);

  // Follow a running job once a second until it ends.
  useEffect(() => {
    clearTimeout(timer.current);
    if (!job || ['done', 'cancelled', 'failed'].includes(job.status)) {
      if (job) {
        void loadPast();
        onFinished?.();
      }
      return;
    }
    timer.current = setTimeout(() => api(`/admin/keys/${keyId}/lists/${job.id}`).then(setJob, (e) => setError(e.message)), 1000);
  }, [job]);

  const read = async (text) => {
    setError(null);
    // Pasted addresses without a header are a one-column list.
    const body = /^[^,\n]*@/.test(text.trim()) ? `email\n${text.trim()}` : text;
    setCsv(body);
    try {
      const p = await api(`/admin/keys/${keyId}/lists/preview`, { method: 'POST', body: { csv: body } });
      setPreview(p);
      setColumn(p.email_column);
    } catch (e) {
      setPreview(null);
      setError(e.message);
    }
  };
  const onDrop = async (event) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer?.files?.[0];
    if (file) await read(await file.text());
  };
  const onFile = async (event) => {
    const file = event.currentTarget.files?.[0];
    if (file) await read(await file.text());
  };
  const start = async () => {
    setError(null);
    try {
      setJob(await api(`/admin/keys/${keyId}/lists`, { method: 'POST', body: { csv, email_column: column ?? undefined } }));
      setPreview(null);
    } catch (e) {
      setError(e.message);
    }
  };

  return html`<section aria-labelledby="lists-title">
    <h2 id="lists-title">Lists</h2>
    <div
      class=${`drop ${dragging ? 'over' : ''}`}
      onDragOver=${(e) => (e.preventDefault(), setDragging(true))}
      onDragLeave=${() => setDragging(false)}
      onDrop=${onDrop}
    >
      <p>Drop a CSV file here, choose one, or paste addresses (one a line).</p>
      <label for="list-file">CSV file</label>
      <input id="list-file" type="file" accept=".csv,text/csv,text/plain" onChange=${onFile} />
      <label for="list-paste">Addresses or CSV text</label>
      <textarea id="list-paste" rows="4" onChange=${(e) => read(e.currentTarget.value)}></textarea>
    </div>
    ${error && html`<p class="error" role="alert">${error}</p>`}
    ${
      preview &&
      html`<div class="card" aria-label="List preview">
        <p>${formatNumber(preview.rows)} rows.</p>
        <label for="list-column">Address column</label>
        <select
          id="list-column"
          value=${column ?? ''}
          onChange=${(e) => setColumn(e.currentTarget.value === '' ? null : Number(e.currentTarget.value))}
        >
          <option value="">Choose the column</option>
          ${preview.header.map((name, i) => html`<option value=${i}>${name}</option>`)}
        </select>
        <p data-testid="list-price">
          ${
            preview.max_credits != null && column === preview.email_column
              ? `${formatNumber(preview.unique_addresses)} distinct addresses: at most ${formatNumber(preview.max_credits)} credits (${preview.price_per_result} per valid, invalid or catch-all result; unknowns are free).`
              : `${preview.price_per_result} credits per valid, invalid or catch-all result; unknowns are free.`
          }
        </p>
        <button type="button" disabled=${column == null} onClick=${start}>Start validation</button>
      </div>`
    }
    ${job && html`<${Progress} keyId=${keyId} job=${job} onChange=${setJob} />`}
    ${
      past.length > 0 &&
      html`<h3>Past lists</h3>
        <div class="table-wrap" tabindex="0" role="region" aria-label="Past lists">
          <table>
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">Status</th>
                <th scope="col" class="num">Addresses</th>
                <th scope="col" class="num">Credits</th>
                <th scope="col"><span class="sr-only">Results</span></th>
              </tr>
            </thead>
            <tbody>
              ${past.map(
                (l) =>
                  html`<tr>
                    <td><time datetime=${l.created_at}>${l.created_at.replace('T', ' ').slice(0, 19)}</time></td>
                    <td>${l.status}</td>
                    <td class="num">${formatNumber(l.processed)} / ${formatNumber(l.total)}</td>
                    <td class="num">${formatNumber(l.credits_consumed)}</td>
                    <td><a href=${`/admin/keys/${keyId}/lists/${l.id}/results.csv`} download>Results CSV</a></td>
                  </tr>`,
              )}
            </tbody>
          </table>
        </div>`
    }
  </section>`;
}

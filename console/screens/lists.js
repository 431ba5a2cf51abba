import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from '../html.js';
import { api, callApi, downloadApi, formatNumber } from '../api.js';
import { ErrorMessage } from '../notices.js';
import { Table } from '../table.js';

const STATUSES = ['valid', 'invalid', 'valid_catch_all', 'catch_all', 'unknown'];
const FINISHED = ['done', 'cancelled', 'failed'];

/** The products of a list: email validation (its own flow, below) and the other bulk products of POST /bulk. */
const PRODUCTS = [
  ['email_validation', 'Email validation'],
  ['email_finder', 'Email finder'],
  ['mobile_finder', 'Mobile finder'],
  ['company_search', 'Company search'],
  ['profile_search', 'Profile search'],
];
const productName = (id) => PRODUCTS.find(([p]) => p === id)?.[1] ?? id;

/** A bulk job of another product: every call goes to the API's own /bulk routes, as the key. */
const bulkCall = (keyId, path, method = 'GET', body) => callApi(path, { method, body, callAs: keyId });
async function bulkJob(keyId, path, method, body) {
  const r = await bulkCall(keyId, path, method, body);
  if (r.status >= 400) throw new Error(r.data?.message ?? `HTTP ${r.status}`);
  return r.data;
}
const downloadRows = (keyId, id) => downloadApi(`/bulk/${id}/download`, { callAs: keyId, filename: `${id}.csv` });

/** A product job in progress: its rows answered, found and refused, what it was charged. */
function RowsProgress({ keyId, job, onChange, onError, headingRef }) {
  const cancel = async () => bulkJob(keyId, `/bulk/${job.id}`, 'DELETE').then(onChange, (e) => onError(e.message));
  const download = () => downloadRows(keyId, job.id).catch((e) => onError(e.message));
  return html`<section class="card list-job" aria-label="List in progress">
    <h3 tabindex="-1" ref=${headingRef}>${productName(job.product)} <code>${job.id}</code> — ${job.status}</h3>
    <progress max=${job.total} value=${job.processed} aria-label="Rows answered">${job.processed} of ${job.total}</progress>
    <p role="status">
      ${formatNumber(job.processed)} of ${formatNumber(job.total)} rows answered · ${formatNumber(job.found)} found ·
      ${formatNumber(job.refused)} refused · ${formatNumber(job.credits_consumed)} credits charged
    </p>
    ${
      job.refusals?.length > 0 &&
      html`<ul class="refusals" aria-label="Why rows were refused">
        ${job.refusals.map((r) => html`<li>${r.reason}: ${formatNumber(r.rows)}</li>`)}
      </ul>`
    }
    <p>
      ${!FINISHED.includes(job.status) && html`<button type="button" class="danger" onClick=${cancel}>Cancel</button>`}
      <button type="button" class="ghost" onClick=${download}>Download results (CSV)</button>
    </p>
  </section>`;
}

/** "20 rows: at most 20 credits (1 credit a row found; …)". */
const rowsPriceText = (p) =>
  `${formatNumber(p.rows)} rows: at most ${formatNumber(p.max_credits)} credits (${formatNumber(p.price_per_row)} a row at most: ${p.rule}; rows not found and refused rows are free).`;

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

function Progress({ keyId, job, onChange, headingRef }) {
  const done = ['done', 'cancelled', 'failed'].includes(job.status);
  const cancel = async () => onChange(await api(`/admin/keys/${keyId}/lists/${job.id}`, { method: 'DELETE' }));
  return html`<section class="card list-job" aria-label="List in progress">
    <h3 tabindex="-1" ref=${headingRef}>List <code>${job.id}</code> — ${job.status}</h3>
    <progress max=${job.total} value=${job.processed} aria-label="Addresses validated">${job.processed} of ${job.total}</progress>
    <p role="status">${progressText(job)}</p>
    <${StatusBars} counts=${job.counts} />
    <p>
      ${!done && html`<button type="button" class="danger" onClick=${cancel}>Cancel</button>`}
      <a class="button ghost" href=${`/admin/keys/${keyId}/lists/${job.id}/results.csv`} download>Download results (CSV)</a>
    </p>
  </section>`;
}

/** Pasted text read as addresses rather than CSV: its first field holds an "@" (a CSV starts with its header). */
const looksLikeAddresses = (text) => /@/.test(text.trim().split(/[\r\n,;]/, 1)[0]);

/** "1,000 distinct addresses (3 repeated, 1 without an address: left out, free): at most 50 credits (…)". */
function priceText(p) {
  const perResult = `${p.price_per_result} per valid, invalid or catch-all result; unknowns are free`;
  if (p.max_credits == null) return `Choose the address column to see the price: ${perResult}.`;
  const left = [p.duplicates && `${formatNumber(p.duplicates)} repeated`, p.blank && `${formatNumber(p.blank)} without an address`].filter(
    Boolean,
  );
  const leftOut = left.length ? ` (${left.join(', ')}: left out, free)` : '';
  return `${formatNumber(p.unique_addresses)} distinct addresses${leftOut}: at most ${formatNumber(p.max_credits)} credits (${perResult}).`;
}

/** The first rows of the list, the address column marked, so the mapping can be checked by eye. */
function Sample({ preview, column }) {
  if (!preview.sample.length) return null;
  const chosen = (i) => (i === column ? 'chosen' : '');
  const columns = preview.header.map((name, i) => ({
    header: name,
    cell: (row) => row[i] ?? '',
    class: chosen(i),
    headerClass: chosen(i),
  }));
  return html`<${Table}
    label="First rows of the list"
    wrapClass="list-sample"
    tableClass="sample"
    columns=${columns}
    rows=${preview.sample}
  />`;
}

/** Drop, choose or paste a list, map its address column, see the price, start it, follow it, download it. */
export function Lists({ keyId, onFinished }) {
  // What is sent: {csv} for a file or pasted CSV, {addresses} for pasted addresses; the server reads both.
  const [source, setSource] = useState(null);
  const [preview, setPreview] = useState(null);
  const [column, setColumn] = useState(null);
  const [product, setProduct] = useState('email_validation');
  const validation = product === 'email_validation';
  const [job, setJob] = useState(null);
  // A job of another product (POST /bulk), followed beside the validation list.
  const [rowsJob, setRowsJob] = useState(null);
  const [past, setPast] = useState([]);
  const [error, setError] = useState(null);
  const [dragging, setDragging] = useState(false);
  // A second click while the list is being sent would start it twice.
  const [starting, setStarting] = useState(false);
  const timer = useRef(null);
  const typing = useRef(null);
  const asked = useRef(0);
  const progressHeading = useRef(null);

  // The key's validation lists and its jobs of the other products, newest first.
  const loadPast = () =>
    Promise.all([
      api(`/admin/keys/${keyId}/lists`).then((r) => r.lists.map((l) => ({ ...l, product: 'email_validation', kind: 'list' }))),
      bulkCall(keyId, '/bulk').then((r) => (r.status === 200 ? r.data.jobs.map((j) => ({ ...j, kind: 'rows' })) : [])),
    ]).then(
      ([lists, jobs]) => setPast([...lists, ...jobs].sort((a, b) => b.created_at.localeCompare(a.created_at))),
      () => {},
    );
  useEffect(() => {
    void loadPast();
    // A file dropped beside the drop zone is not opened by the browser in place of the console.
    const keep = (e) => e.dataTransfer?.types?.includes('Files') && e.preventDefault();
    window.addEventListener('dragover', keep);
    window.addEventListener('drop', keep);
    return () => {
      clearTimeout(timer.current);
      clearTimeout(typing.current);
      window.removeEventListener('dragover', keep);
      window.removeEventListener('drop', keep);
    };
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

  // The same for a job of another product.
  useEffect(() => {
    if (!rowsJob || FINISHED.includes(rowsJob.status)) {
      if (rowsJob) {
        void loadPast();
        onFinished?.();
      }
      return;
    }
    const next = setTimeout(() => bulkJob(keyId, `/bulk/${rowsJob.id}`).then(setRowsJob, (e) => setError(e.message)), 1000);
    return () => clearTimeout(next);
  }, [rowsJob]);

  /** Asks the server what the list holds and costs; an answer overtaken by a newer question is dropped. */
  const ask = async (next, chosen) => {
    const n = ++asked.current;
    setError(null);
    setSource(next);
    if (!next) {
      setPreview(null);
      setColumn(null);
      return;
    }
    try {
      const { from: _from, ...list } = next;
      const p = next.product
        ? await api(`/admin/keys/${keyId}/bulk/preview`, { method: 'POST', body: list })
        : await api(`/admin/keys/${keyId}/lists/preview`, { method: 'POST', body: { ...list, email_column: chosen ?? undefined } });
      if (n !== asked.current) return;
      setPreview(p);
      setColumn(p.email_column);
    } catch (e) {
      if (n !== asked.current) return;
      setPreview(null);
      setError(e.message);
    }
  };
  const readText = (text) => {
    clearTimeout(typing.current);
    if (!text.trim()) return ask(null);
    if (!validation) return ask({ product, csv: text, from: 'the pasted CSV' });
    return ask(looksLikeAddresses(text) ? { addresses: text, from: 'the pasted addresses' } : { csv: text, from: 'the pasted CSV' });
  };
  const readFile = async (file) => ask({ ...(validation ? {} : { product }), csv: await file.text(), from: file.name });
  const onDrop = async (event) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer?.files?.[0];
    if (file) await readFile(file);
  };
  const onFile = async (event) => {
    const file = event.currentTarget.files?.[0];
    if (file) await readFile(file);
  };
  // Typed or pasted text is read once it stops changing for a moment.
  const onType = (event) => {
    const text = event.currentTarget.value;
    clearTimeout(typing.current);
    typing.current = setTimeout(() => readText(text), 400);
  };
  const startRows = async () => {
    setError(null);
    setStarting(true);
    try {
      const { from: _from, ...list } = source;
      setRowsJob(await bulkJob(keyId, '/bulk', 'POST', list));
      setPreview(null);
      setTimeout(() => progressHeading.current?.focus(), 0);
    } catch (e) {
      setError(e.message);
    } finally {
      setStarting(false);
    }
  };
  const chooseProduct = (next) => {
    setProduct(next);
    // A list read for one product is not priced for another: it is dropped, to be given again.
    clearTimeout(typing.current);
    void ask(null);
    for (const id of ['list-file', 'list-paste']) {
      const field = document.getElementById(id);
      if (field) field.value = '';
    }
  };
  const start = async () => {
    setError(null);
    setStarting(true);
    try {
      const { from: _from, ...list } = source;
      setJob(await api(`/admin/keys/${keyId}/lists`, { method: 'POST', body: { ...list, email_column: column ?? undefined } }));
      setPreview(null);
      // Keyboard and screen-reader users land on what they started.
      setTimeout(() => progressHeading.current?.focus(), 0);
    } catch (e) {
      setError(e.message);
    } finally {
      setStarting(false);
    }
  };

  const pastColumns = [
    { header: 'Started', cell: (l) => html`<time datetime=${l.created_at}>${l.created_at.replace('T', ' ').slice(0, 16)}</time>` },
    { header: 'Product', cell: (l) => productName(l.product) },
    { header: 'Status', cell: (l) => l.status },
    { header: 'Rows', cell: (l) => `${formatNumber(l.processed)} / ${formatNumber(l.total)}`, numeric: true },
    { header: 'Credits', cell: (l) => formatNumber(l.credits_consumed), numeric: true },
    {
      header: html`<span class="sr-only">Results</span>`,
      cell: (l) =>
        l.kind === 'list'
          ? html`<a href=${`/admin/keys/${keyId}/lists/${l.id}/results.csv`} download>Results CSV</a>`
          : html`<button type="button" class="ghost" onClick=${() => downloadRows(keyId, l.id).catch((e) => setError(e.message))}>
              Results CSV
            </button>`,
    },
  ];
  return html`<section aria-labelledby="lists-title">
    <h2 id="lists-title">Lists</h2>
    <p>
      <label for="list-product">Product</label>
      <select id="list-product" value=${product} onChange=${(e) => chooseProduct(e.currentTarget.value)}>
        ${PRODUCTS.map(([id, name]) => html`<option value=${id}>${name}</option>`)}
      </select>
    </p>
    <div
      class=${`drop ${dragging ? 'over' : ''}`}
      data-testid="list-drop"
      onDragEnter=${(e) => (e.preventDefault(), setDragging(true))}
      onDragOver=${(e) => (e.preventDefault(), setDragging(true))}
      onDragLeave=${(e) => e.currentTarget.contains(e.relatedTarget) || setDragging(false)}
      onDrop=${onDrop}
    >
      <p class="drop-hint" aria-hidden="true">Drop a CSV file here</p>
      <p>
        <label for="list-file">Or choose a CSV file</label>
        <input id="list-file" type="file" accept=".csv,text/csv,text/plain" onChange=${onFile} />
      </p>
      <p>
        <label for="list-paste"
          >${validation ? 'Or paste addresses (one a line, or separated by commas or semicolons) or CSV text' : 'Or paste CSV text'}</label
        >
        <textarea id="list-paste" rows="4" onInput=${onType} onChange=${(e) => readText(e.currentTarget.value)}></textarea>
      </p>
    </div>
    <${ErrorMessage} message=${error} />
    ${
      preview &&
      !validation &&
      html`<div class="card list-preview" role="region" aria-label="List preview">
        <p>
          ${formatNumber(preview.rows)} rows read from ${source.from}. A row's columns are the request's fields:
          ${preview.fields.join(', ')}.
        </p>
        <${Sample} preview=${preview} column=${null} />
        <p data-testid="list-price" role="status">${rowsPriceText(preview)}</p>
        <button type="button" disabled=${starting} onClick=${startRows}>Start ${productName(product).toLowerCase()}</button>
      </div>`
    }
    ${
      preview &&
      validation &&
      html`<div class="card list-preview" role="region" aria-label="List preview">
        <p>${formatNumber(preview.rows)} rows read from ${source.from}.</p>
        <label for="list-column">Address column</label>
        <select
          id="list-column"
          value=${column ?? ''}
          onChange=${(e) => ask(source, e.currentTarget.value === '' ? null : Number(e.currentTarget.value))}
        >
          <option value="">Choose the column</option>
          ${preview.header.map((name, i) => html`<option value=${i}>${name}</option>`)}
        </select>
        <${Sample} preview=${preview} column=${column} />
        <p data-testid="list-price" role="status">${priceText(preview)}</p>
        <button type="button" disabled=${column == null || starting} onClick=${start}>Start validation</button>
      </div>`
    }
    ${job && html`<${Progress} keyId=${keyId} job=${job} onChange=${setJob} headingRef=${progressHeading} />`}
    ${
      rowsJob &&
      html`<${RowsProgress} keyId=${keyId} job=${rowsJob} onChange=${setRowsJob} onError=${setError} headingRef=${progressHeading} />`
    }
    ${
      past.length > 0 &&
      html`<h3>Past lists</h3>
        <${Table} label="Past lists" tableClass="past-lists" columns=${pastColumns} rows=${past} />`
    }
  </section>`;
}

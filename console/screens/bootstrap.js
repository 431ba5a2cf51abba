// The bootstrap from the Overview (docs/console.md, "Bootstrap"): its options, each step's progress
// while it runs (polled), then what the service can answer now.
import { useEffect, useState } from 'preact/hooks';
import { html } from '../html.js';
import { api, formatNumber } from '../api.js';
import { ErrorMessage } from '../notices.js';
import { Table } from '../table.js';

/** How often the progress is asked while a run goes on. */
const POLL_MS = 1000;

function duration(seconds) {
  if (seconds == null) return '–';
  if (seconds < 90) return `${seconds} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

const STATE_BADGE = { done: 'ok', running: 'warn', waiting: 'warn', failed: 'bad', stopped: 'warn' };

function StepProgress({ step }) {
  const label = `${step.name}: ${formatNumber(step.done)}${step.total != null ? ` of ${formatNumber(step.total)}` : ''} ${step.unit}`;
  return html`${step.total != null && step.total > 0 ? html`<progress max=${step.total} value=${step.done} aria-label=${label}></progress>` : null}
    <span>${formatNumber(step.done)}${step.total != null ? ` / ${formatNumber(step.total)}` : ''} ${step.unit}</span>`;
}

const STEP_COLUMNS = [
  { header: 'Step', cell: (step) => step.name, rowHeader: true },
  { header: 'State', cell: (step) => html`<span class=${`badge ${STATE_BADGE[step.state] ?? 'warn'}`}>${step.state}</span>` },
  {
    header: 'Progress',
    class: 'progress-cell',
    cell: (step) => html`<${StepProgress} step=${step} />`,
  },
  { header: 'Rows', cell: (step) => formatNumber(step.rows), numeric: true },
  { header: 'Rows/s', cell: (step) => (step.rows_per_second == null ? '–' : formatNumber(step.rows_per_second)), numeric: true },
  {
    header: 'Time left',
    cell: (step) => (step.state === 'running' ? (step.eta_seconds == null ? 'unknown' : duration(step.eta_seconds)) : '–'),
  },
  { header: 'Errors', cell: (step) => `${step.failed ? `${step.failed} failed: ` : ''}${step.last_error ?? ''}`, class: 'error-text' },
];

function Answers({ answers }) {
  const found = answers.filter((a) => a.body);
  const missing = answers.filter((a) => !a.body);
  return html`<section aria-labelledby="answers-heading">
    <h3 id="answers-heading">What the service can answer now</h3>
    <p class="muted">Each request finds something in what is stored; run it with one of your API keys in <code>LEADBASE_API_KEY</code>.</p>
    <ul class="answers" data-testid="answers">
      ${found.map(
        (a) =>
          html`<li>
            <strong>${a.endpoint}</strong>
            <code class="block">${a.curl}</code>
          </li>`,
      )}
    </ul>
    ${
      missing.length > 0 &&
      html`<h4>Nothing to answer yet</h4>
        <ul class="answers">
          ${missing.map((a) => html`<li><strong>${a.endpoint}</strong>: ${a.reason}</li>`)}
        </ul>`
    }
  </section>`;
}

function summaryOf(run) {
  const rows = run.steps.reduce((n, s) => n + s.rows, 0);
  if (run.state === 'running') return `Bootstrap running: ${formatNumber(rows)} rows stored so far.`;
  if (run.state === 'failed') return `The bootstrap could not run: ${run.error}`;
  if (run.state === 'interrupted')
    return `Bootstrap stopped after ${formatNumber(rows)} rows: what it stored is kept; run it again to go on.`;
  return `Bootstrap done: ${formatNumber(rows)} rows stored${run.failures.length ? `, ${run.failures.length} sources failed` : ''}.`;
}

/** The panel: shown on an empty service, and whenever this server has run a bootstrap; `onChange` reloads the overview. */
export function Bootstrap({ empty, onChange }) {
  const [state, setState] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const [form, setForm] = useState({ sample: true, limit: '5', discover: '10', steps: null });
  const load = () =>
    api('/admin/bootstrap').then(
      (s) => {
        setState(s);
        return s;
      },
      (e) => setError(e.message),
    );
  useEffect(() => {
    void load();
  }, []);
  const running = state?.run?.state === 'running';
  useEffect(() => {
    if (!running) return undefined;
    let polls = 0;
    const timer = setInterval(async () => {
      const s = await load();
      // The overview's counts follow, every few polls and at the end.
      if ((s?.run && s.run.state !== 'running') || ++polls % 5 === 0) onChange?.();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [running]);

  if (!state) return html`<${ErrorMessage} message=${error} />`;
  const { run, mirrors } = state;
  if (!empty && !run) return null;
  const names = state.step_names ?? [];
  const chosen = form.steps ?? names;

  const start = async (event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body = {
        ...(chosen.length < names.length ? { only: chosen } : {}),
        ...(form.sample ? { limit: Number(form.limit) } : {}),
        discover_limit: Number(form.discover),
      };
      setState(await api('/admin/bootstrap', { method: 'POST', body }));
    } catch (e) {
      setError(e.message);
    } finally {
      setBusy(false);
    }
  };
  const stop = async () => {
    setError(null);
    try {
      setState(await api('/admin/bootstrap', { method: 'DELETE' }));
    } catch (e) {
      setError(e.message);
    }
  };
  const toggle = (name) =>
    setForm({
      ...form,
      steps: chosen.includes(name) ? chosen.filter((n) => n !== name) : names.filter((n) => n === name || chosen.includes(n)),
    });

  const startForm = html`<p>
      The bootstrap fills the company, jobs and people stores from open data, as <code>leadbase bootstrap</code> does: one source of every
      data set, the starter job boards and discovery on the companies' sites. Each source stays registered on its schedule; a second run
      goes on where the first stopped.
    </p>
    <form class="bootstrap-form" onSubmit=${start} aria-label="Run the bootstrap">
      <fieldset>
        <legend>Steps</legend>
        ${names.map(
          (name) =>
            html`<label class="check"
              ><input type="checkbox" checked=${chosen.includes(name)} onChange=${() => toggle(name)} /> ${name}</label
            >`,
        )}
      </fieldset>
      <div class="row">
        <label class="check"
          ><input type="checkbox" checked=${form.sample} onChange=${(e) => setForm({ ...form, sample: e.currentTarget.checked })} /> Quick
          sample</label
        >
        <div>
          <label for="bootstrap-limit">At most N boards, parts per data set and sites</label>
          <input
            id="bootstrap-limit"
            type="number"
            min="1"
            disabled=${!form.sample}
            value=${form.limit}
            onInput=${(e) => setForm({ ...form, limit: e.currentTarget.value })}
          />
        </div>
        <div>
          <label for="bootstrap-discover">Company sites discovery reads</label>
          <input
            id="bootstrap-discover"
            type="number"
            min="0"
            value=${form.discover}
            onInput=${(e) => setForm({ ...form, discover: e.currentTarget.value })}
          />
        </div>
      </div>
      <p class="muted small">
        ${mirrors.length ? `Read from the operator's mirrors: ${mirrors.join(', ')}. ` : 'Every upstream is read at its public address. '}
        Mirrors are set on the server (<code>BOOTSTRAP_MIRRORS</code> or <code>leadbase bootstrap --mirror</code>), not here.
      </p>
      <button type="submit" disabled=${busy || chosen.length === 0}>Run the bootstrap</button>
    </form>`;

  return html`<section class="notice bootstrap" aria-labelledby="bootstrap-heading">
    <h2 id="bootstrap-heading">${empty && !run ? 'This service holds no data yet' : 'Bootstrap'}</h2>
    ${!run && startForm} <${ErrorMessage} message=${error} />
    ${
      run &&
      html`<p role="status" class=${run.state === 'failed' ? 'error' : ''}>${summaryOf(run)}</p>
        ${running && html`<button type="button" class="danger" onClick=${stop}>Stop the bootstrap</button>`}
        <${Table}
          label="Bootstrap progress"
          columns=${STEP_COLUMNS}
          rows=${run.steps}
          rowAttributes=${(step) => ({ 'data-step': step.name })}
        />
        ${
          run.failures.length > 0 &&
          html`<details>
            <summary>${run.failures.length} sources failed</summary>
            <ul>
              ${run.failures.slice(0, 50).map((f) => html`<li><strong>${f.type}</strong> ${f.locator}: ${f.error}</li>`)}
            </ul>
          </details>`
        }
        ${run.answers && html`<${Answers} answers=${run.answers} />`}
        ${
          !running &&
          html`<details class="again">
            <summary>Run it again (it goes on where this one stopped)</summary>
            ${startForm}
          </details>`
        }`
    }
  </section>`;
}

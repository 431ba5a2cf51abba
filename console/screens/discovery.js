// Discovery on one company's site, from the Sources screen (docs/console.md, "Discovery"): what the
// site links to, each board offered for registration, and what could not be read, in words.
import { useState } from 'preact/hooks';
import { html } from '../html.js';
import { api } from '../api.js';
import { ErrorMessage } from '../notices.js';
import { Table } from '../table.js';

/** A find offered for registration: its button, or the source it was registered as. */
function RegisterFind({ find, busy }) {
  if (find.registered_as) return html`<span class="ok-text">Registered as source ${find.registered_as}</span>`;
  return html`<button
    type="button"
    class="small"
    disabled=${busy}
    onClick=${find.register}
    aria-label=${`Register as a source: ${find.label}`}
  >
    Register as a source
  </button>`;
}

/** `onRegistered` is told when a find was registered (the sources list reloads). */
export function Discovery({ onRegistered }) {
  const [domain, setDomain] = useState('');
  const [result, setResult] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);

  const run = async (event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      setResult(await api('/admin/discovery', { method: 'POST', body: { domain } }));
    } catch (e) {
      setError(e.message);
    } finally {
      setBusy(false);
    }
  };
  const register = async (list, index) => {
    setBusy(true);
    setError(null);
    try {
      const source = await api('/admin/sources', { method: 'POST', body: result[list][index].source });
      const updated = result[list].map((f, i) => (i === index ? { ...f, registered_as: source.id } : f));
      setResult({ ...result, [list]: updated });
      onRegistered?.(source);
    } catch (e) {
      setError(e.message);
    } finally {
      setBusy(false);
    }
  };

  // The boards and the pages with JobPosting data, as one list of finds.
  const finds = result && [
    ...result.boards.map((b, i) => ({
      ...b,
      label: `${b.type} board ${b.board}`,
      detail: `on ${b.found_on}`,
      register: () => register('boards', i),
    })),
    ...result.jsonld_pages.map((p, i) => ({
      ...p,
      label: `JobPosting data on ${p.url}`,
      detail: 'a jsonld source',
      register: () => register('jsonld_pages', i),
    })),
  ];
  const columns = [
    { header: 'Found', cell: (find) => find.label },
    { header: 'Where', cell: (find) => find.detail, class: 'muted' },
    {
      header: html`<span class="sr-only">Actions</span>`,
      cell: (find) => html`<${RegisterFind} find=${find} busy=${busy} />`,
      class: 'actions',
    },
  ];

  return html`<section class="discovery" aria-labelledby="discovery-heading">
    <h2 id="discovery-heading">Find a company's job boards</h2>
    <form class="inline" onSubmit=${run} aria-label="Discovery on a company's site">
      <div class="grow">
        <label for="discovery-domain">Company domain or site address</label>
        <input id="discovery-domain" required placeholder="acme.com" value=${domain} onInput=${(e) => setDomain(e.currentTarget.value)} />
      </div>
      <button type="submit" disabled=${busy}>${busy && !result ? 'Reading the site…' : 'Find boards'}</button>
    </form>
    <p class="muted small">
      Reads the home page, the careers pages and the sitemap's job pages (at most 12 pages, robots.txt honoured) and names the job boards
      they link to. Nothing is registered until you say so.
    </p>
    <${ErrorMessage} message=${error} />
    ${
      result &&
      html`<div data-testid="discovery-result">
        <p role="status" class=${result.outcome === 'found' ? 'ok-text' : 'error'}>${result.message}</p>
        ${finds.length > 0 && html`<${Table} label="What discovery found" columns=${columns} rows=${finds} />`}
        ${
          result.notes.length > 0 &&
          html`<details open=${result.outcome !== 'found'}>
            <summary>What could not be read or told (${result.notes.length})</summary>
            <ul>
              ${result.notes.map((note) => html`<li>${note}</li>`)}
            </ul>
          </details>`
        }
      </div>`
    }
  </section>`;
}

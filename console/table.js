// The console's one table: a scrolling region named for screen readers, a header row and a row per
// item, drawn from columns described as data, so every screen's tables look and read alike.
import { html } from './html.js';
import { Loading } from './notices.js';

function Cell({ column, row, stacking }) {
  const classes = [column.numeric && 'num', column.class].filter(Boolean).join(' ') || undefined;
  const content = column.cell(row);
  if (column.rowHeader) return html`<th scope="row" class=${classes}>${content}</th>`;
  // A stacking table shows each cell under its heading on a narrow screen (app.css reads data-label).
  return html`<td class=${classes} data-label=${stacking ? column.header : undefined}>${content}</td>`;
}

function Heading({ column }) {
  const classes = [column.numeric && 'num', column.headerClass].filter(Boolean).join(' ') || undefined;
  return html`<th scope="col" class=${classes}>${column.header}</th>`;
}

/**
 * `columns`, each:
 * - `header`: its heading (text, or markup such as a heading only screen readers hear);
 * - `cell(row)`: what its cell holds;
 * - `numeric`: right-aligned figures (the `num` class on the heading and the cells);
 * - `class`: the cells' own class, and `headerClass` the heading's;
 * - `rowHeader`: the cell names its row (a `th` of the row, not a `td`).
 *
 * `label` names the region. `rows` null draws `loading` (a sentence) in the table's place, or nothing
 * without one; no rows draws `empty` (a sentence), or without one the headings over no rows.
 * `rowAttributes(row)` gives a row's own attributes (the tests find rows by them); `caption` is heard
 * by screen readers only; `tableClass` and `wrapClass` add to the table's and the region's classes;
 * `stacking` lays each row out as a card on a narrow screen.
 */
export function Table({ label, columns, rows, loading, empty, rowAttributes, caption, tableClass, wrapClass, stacking }) {
  if (!rows) return loading ? html`<${Loading} what=${loading} />` : null;
  if (!rows.length && empty) return html`<p>${empty}</p>`;
  const tableClasses = [tableClass, stacking && 'stacking'].filter(Boolean).join(' ') || undefined;
  return html`<div class=${wrapClass ? `table-wrap ${wrapClass}` : 'table-wrap'} tabindex="0" role="region" aria-label=${label}>
    <table class=${tableClasses}>
      ${
        caption &&
        html`<caption class="sr-only">
          ${caption}
        </caption>`
      }
      <thead>
        <tr>
          ${columns.map((column) => html`<${Heading} column=${column} />`)}
        </tr>
      </thead>
      <tbody>
        ${rows.map(
          (row) =>
            html`<tr ...${rowAttributes?.(row) ?? {}}>
              ${columns.map((column) => html`<${Cell} column=${column} row=${row} stacking=${stacking} />`)}
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

// A stacked bar chart in SVG: one bar per day, one colour per series. Small and dependency-free;
// the data is a few hundred points at most (90 days × the operations), already aggregated by the server.
import { html } from './html.js';

const PALETTE = ['#2563eb', '#d97706', '#059669', '#db2777', '#7c3aed', '#0891b2', '#65a30d', '#dc2626'];

/**
 * @param {{ days: string[], series: { name: string, values: number[], color?: string }[], label: string, format?: (day: string) => string }} props
 */
export function BarChart({ days, series, label, format = (day) => day.slice(5) }) {
  const width = 720;
  const height = 220;
  const pad = { left: 48, right: 8, top: 12, bottom: 28 };
  const totals = days.map((_, i) => series.reduce((sum, s) => sum + s.values[i], 0));
  const max = Math.max(1, ...totals);
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const barW = plotW / Math.max(days.length, 1);
  const y = (v) => pad.top + plotH - (v / max) * plotH;
  const ticks = [0, max / 2, max];
  const labelEvery = Math.ceil(days.length / 8);
  const bars = [];
  days.forEach((day, i) => {
    let base = 0;
    series.forEach((s, j) => {
      const v = s.values[i];
      if (!v) return;
      bars.push(
        html`<rect
          x=${pad.left + i * barW + 1}
          y=${y(base + v)}
          width=${Math.max(barW - 2, 1)}
          height=${(v / max) * plotH}
          fill=${s.color ?? PALETTE[j % PALETTE.length]}
          ><title>${day} · ${s.name}: ${v.toLocaleString('en-US')}</title></rect
        >`,
      );
      base += v;
    });
  });
  return html`<figure class="chart">
    <svg viewBox="0 0 ${width} ${height}" role="img" aria-label=${label}>
      ${ticks.map(
        (t) =>
          html`<g
            ><line x1=${pad.left} x2=${width - pad.right} y1=${y(t)} y2=${y(t)} class="grid" />
            <text x=${pad.left - 6} y=${y(t) + 4} text-anchor="end" class="axis">${Number(t.toFixed(2)).toLocaleString('en-US')}</text></g
          >`,
      )}
      ${bars}
      ${days.map((day, i) =>
        i % labelEvery === 0
          ? html`<text x=${pad.left + i * barW + barW / 2} y=${height - 8} text-anchor="middle" class="axis">${format(day)}</text>`
          : null,
      )}
    </svg>
    <figcaption>
      ${
        series.length === 0
          ? html`<span>Nothing in this period.</span>`
          : series.map(
              (s, j) => html`<span class="legend"><i style=${`background:${s.color ?? PALETTE[j % PALETTE.length]}`}></i>${s.name}</span>`,
            )
      }
    </figcaption>
  </figure>`;
}

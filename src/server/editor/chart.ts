/**
 * Chart blocks drawn on the server as SVG (bar, line, pie) from the block's small dataset, so they
 * show without JavaScript. Each chart has a title and description for assistive technology and
 * its data as a table under a disclosure.
 */
import { chartDataset } from '../../core/layout.js';
import { escapeHtml } from '../../core/html.js';

export type ChartKind = 'bar' | 'line' | 'pie';

const W = 640;
const H = 360;
const PAD = { top: 20, right: 20, bottom: 56, left: 56 };
/** Colour-blind-safe series colours (Okabe-Ito), dark enough on white. */
const SERIES = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#56b4e9', '#e69f00', '#000000', '#7f5f00', '#5a3e8c', '#8c2d04'];

const fmt = (n: number) =>
  Math.abs(n) >= 1000 ? n.toLocaleString('en-US', { maximumFractionDigits: 0 }) : String(Math.round(n * 100) / 100);

/** Rounded axis maximum: 1, 2, 2.5 or 5 times a power of ten at or above `max`. */
function niceMax(max: number): number {
  if (max <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(max));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= max) return m * p;
  return 10 * p;
}

export interface ChartData {
  title?: string;
  columns?: unknown;
  rows?: unknown;
  showLegend?: boolean;
}

/** The chart's SVG in a figure, or an empty string when the dataset cannot be drawn. */
export function chartSvg(kind: ChartKind, data: ChartData, idBase: string): string {
  const ds = chartDataset(data);
  if (ds.error) return '';
  const title = String(data.title ?? '') || 'Chart';
  const tid = `${idBase}-title`;
  const did = `${idBase}-desc`;
  const desc = `${kind} chart of ${ds.columns.join(', ')} for ${ds.rows.map((r) => r.label).join(', ')}`;
  let body = '';
  if (kind === 'pie') body = pie(ds.columns, ds.rows);
  else body = axes(kind, ds.columns, ds.rows);
  const legend =
    data.showLegend !== false && kind !== 'pie'
      ? `<ul class="chart-legend">${ds.columns.map((c, i) => `<li><span class="chart-swatch" style="background:${SERIES[i % SERIES.length]}"></span>${escapeHtml(c)}</li>`).join('')}</ul>`
      : '';
  const pieLegend =
    kind === 'pie' && data.showLegend !== false
      ? `<ul class="chart-legend">${ds.rows.map((r, i) => `<li><span class="chart-swatch" style="background:${SERIES[i % SERIES.length]}"></span>${escapeHtml(r.label)}: ${r.values[0] === null ? '' : fmt(r.values[0])}</li>`).join('')}</ul>`
      : '';
  const table = `<details class="chart-data"><summary>Data</summary><table><thead><tr><th scope="col">${escapeHtml(title)}</th>${ds.columns.map((c) => `<th scope="col">${escapeHtml(c)}</th>`).join('')}</tr></thead><tbody>${ds.rows
    .map(
      (r) => `<tr><th scope="row">${escapeHtml(r.label)}</th>${r.values.map((v) => `<td>${v === null ? '' : fmt(v)}</td>`).join('')}</tr>`,
    )
    .join('')}</tbody></table></details>`;
  return `<svg class="chart-svg" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="${tid} ${did}" xmlns="http://www.w3.org/2000/svg"><title id="${tid}">${escapeHtml(title)}</title><desc id="${did}">${escapeHtml(desc)}</desc>${body}</svg>${legend}${pieLegend}${table}`;
}

function axes(kind: 'bar' | 'line', columns: string[], rows: Array<{ label: string; values: Array<number | null> }>): string {
  const values = rows.flatMap((r) => r.values.filter((v): v is number => v !== null));
  const max = niceMax(Math.max(0, ...values));
  const min = Math.min(0, ...values);
  const span = max - min || 1;
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const y = (v: number) => PAD.top + plotH - ((v - min) / span) * plotH;
  const band = plotW / Math.max(1, rows.length);
  const parts: string[] = [];
  for (let t = 0; t <= 4; t++) {
    const v = min + (span * t) / 4;
    const yy = y(v);
    parts.push(`<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${yy}" y2="${yy}" stroke="#c8c8c8" stroke-width="1"/>`);
    parts.push(`<text x="${PAD.left - 8}" y="${yy + 4}" text-anchor="end" font-size="12" fill="currentColor">${fmt(v)}</text>`);
  }
  rows.forEach((r, i) => {
    const cx = PAD.left + band * i + band / 2;
    parts.push(
      `<text x="${cx}" y="${H - PAD.bottom + 18}" text-anchor="middle" font-size="12" fill="currentColor">${escapeHtml(r.label.slice(0, 16))}</text>`,
    );
  });
  if (kind === 'bar') {
    const inner = (band * 0.8) / Math.max(1, columns.length);
    rows.forEach((r, i) => {
      r.values.forEach((v, c) => {
        if (v === null) return;
        const x = PAD.left + band * i + band * 0.1 + inner * c;
        const top = Math.min(y(v), y(0));
        const h = Math.abs(y(v) - y(0));
        parts.push(
          `<rect x="${x.toFixed(1)}" y="${top.toFixed(1)}" width="${Math.max(1, inner - 2).toFixed(1)}" height="${h.toFixed(1)}" fill="${SERIES[c % SERIES.length]}"/>`,
        );
      });
    });
  } else {
    columns.forEach((_, c) => {
      const pts = rows
        .map((r, i) => (r.values[c] === null ? null : `${(PAD.left + band * i + band / 2).toFixed(1)},${y(r.values[c]!).toFixed(1)}`))
        .filter((p): p is string => p !== null);
      parts.push(`<polyline points="${pts.join(' ')}" fill="none" stroke="${SERIES[c % SERIES.length]}" stroke-width="3"/>`);
      for (const p of pts) {
        const [px, py] = p.split(',');
        parts.push(`<circle cx="${px}" cy="${py}" r="4" fill="${SERIES[c % SERIES.length]}"/>`);
      }
    });
  }
  parts.push(`<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(0)}" y2="${y(0)}" stroke="currentColor" stroke-width="1.5"/>`);
  return parts.join('');
}

function pie(_columns: string[], rows: Array<{ label: string; values: Array<number | null> }>): string {
  const vals = rows.map((r) => Math.max(0, r.values[0] ?? 0));
  const total = vals.reduce((a, b) => a + b, 0);
  const cx = W / 2;
  const cy = H / 2;
  const rad = Math.min(W, H) / 2 - 20;
  if (total <= 0) return `<circle cx="${cx}" cy="${cy}" r="${rad}" fill="#e5e5e5"/>`;
  let a = -Math.PI / 2;
  return vals
    .map((v, i) => {
      if (v <= 0) return '';
      const frac = v / total;
      if (frac >= 0.9999) return `<circle cx="${cx}" cy="${cy}" r="${rad}" fill="${SERIES[i % SERIES.length]}"/>`;
      const a2 = a + frac * Math.PI * 2;
      const x1 = cx + rad * Math.cos(a);
      const y1 = cy + rad * Math.sin(a);
      const x2 = cx + rad * Math.cos(a2);
      const y2 = cy + rad * Math.sin(a2);
      const large = frac > 0.5 ? 1 : 0;
      a = a2;
      return `<path d="M${cx},${cy} L${x1.toFixed(1)},${y1.toFixed(1)} A${rad},${rad} 0 ${large} 1 ${x2.toFixed(1)},${y2.toFixed(1)} Z" fill="${SERIES[i % SERIES.length]}" stroke="#ffffff" stroke-width="2"/>`;
    })
    .join('');
}

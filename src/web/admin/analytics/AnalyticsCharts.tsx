/**
 * Hand-written SVG charts for the analytics dashboard. Each chart is a figure with a caption and an
 * accessible name that states its figures, so screen readers get the numbers the picture shows.
 */
import type { ReactNode } from 'react';

const COLORS = { a: '#2f6fde', b: '#19a974', grid: '#e3e3e0', text: '#555', good: '#0c8a4b', ni: '#f0a400', poor: '#d0342c' };

export function fmt(n: number): string {
  return n >= 10_000 ? `${(n / 1000).toFixed(n >= 100_000 ? 0 : 1)}k` : Math.round(n).toLocaleString('en-US');
}

function niceMax(v: number): number {
  if (v <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

export function ChartFigure(props: { title: string; children: ReactNode; summary?: string }) {
  return (
    <figure className="an-chart">
      <figcaption>{props.title}</figcaption>
      {props.children}
      {props.summary ? <p className="an-visually-hidden">{props.summary}</p> : null}
    </figure>
  );
}

export interface Series {
  name: string;
  color?: string;
  values: number[];
}

/** Lines over days (visitors and page views), with a shared y scale and a legend. */
export function LineChart(props: { title: string; labels: string[]; series: Series[]; height?: number }) {
  const W = 640;
  const H = props.height ?? 220;
  const pad = { l: 44, r: 12, t: 12, b: 28 };
  const n = props.labels.length;
  const max = niceMax(Math.max(0, ...props.series.flatMap((s) => s.values)));
  const x = (i: number) => pad.l + (n <= 1 ? (W - pad.l - pad.r) / 2 : (i * (W - pad.l - pad.r)) / (n - 1));
  const y = (v: number) => pad.t + (H - pad.t - pad.b) * (1 - v / max);
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => f * max);
  const every = Math.max(1, Math.ceil(n / 8));
  const label = props.series.map((s) => `${s.name}: ${fmt(s.values.reduce((a, b) => a + b, 0))} in total`).join('; ');
  return (
    <ChartFigure title={props.title}>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${props.title}. ${label}.`} className="an-svg">
        {ticks.map((t) => (
          <g key={t}>
            <line x1={pad.l} x2={W - pad.r} y1={y(t)} y2={y(t)} stroke={COLORS.grid} />
            <text x={pad.l - 6} y={y(t) + 4} textAnchor="end" fontSize="11" fill={COLORS.text}>
              {fmt(t)}
            </text>
          </g>
        ))}
        {props.labels.map((l, i) =>
          i % every === 0 || i === n - 1 ? (
            <text key={l} x={x(i)} y={H - 8} textAnchor="middle" fontSize="11" fill={COLORS.text}>
              {l.slice(5)}
            </text>
          ) : null,
        )}
        {props.series.map((s, si) => {
          const color = s.color ?? (si === 0 ? COLORS.a : COLORS.b);
          const pts = s.values.map((v, i) => `${x(i)},${y(v)}`).join(' ');
          return (
            <g key={s.name}>
              {n > 1 ? <polyline points={pts} fill="none" stroke={color} strokeWidth="2" /> : null}
              {s.values.map((v, i) => (
                <circle key={i} cx={x(i)} cy={y(v)} r={n > 40 ? 1.5 : 3} fill={color}>
                  <title>{`${props.labels[i]}: ${fmt(v)} ${s.name.toLowerCase()}`}</title>
                </circle>
              ))}
            </g>
          );
        })}
      </svg>
      <ul className="an-legend">
        {props.series.map((s, si) => (
          <li key={s.name}>
            <span className="an-swatch" style={{ background: s.color ?? (si === 0 ? COLORS.a : COLORS.b) }} aria-hidden="true" />
            {s.name}
          </li>
        ))}
      </ul>
    </ChartFigure>
  );
}

/** Vertical bars over days (revenue). */
export function ColumnChart(props: { title: string; labels: string[]; values: number[]; format?: (v: number) => string }) {
  const W = 640;
  const H = 180;
  const pad = { l: 64, r: 12, t: 12, b: 28 };
  const n = Math.max(1, props.labels.length);
  const max = niceMax(Math.max(0, ...props.values));
  const f = props.format ?? fmt;
  const bw = (W - pad.l - pad.r) / n;
  const y = (v: number) => pad.t + (H - pad.t - pad.b) * (1 - v / max);
  const every = Math.max(1, Math.ceil(n / 8));
  const total = props.values.reduce((a, b) => a + b, 0);
  return (
    <ChartFigure title={props.title}>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${props.title}: ${f(total)} in total`} className="an-svg">
        {[0, 0.5, 1].map((t) => (
          <g key={t}>
            <line x1={pad.l} x2={W - pad.r} y1={y(t * max)} y2={y(t * max)} stroke={COLORS.grid} />
            <text x={pad.l - 6} y={y(t * max) + 4} textAnchor="end" fontSize="11" fill={COLORS.text}>
              {f(t * max)}
            </text>
          </g>
        ))}
        {props.values.map((v, i) => (
          <rect key={i} x={pad.l + i * bw + bw * 0.15} width={bw * 0.7} y={y(v)} height={Math.max(0, H - pad.b - y(v))} fill={COLORS.b}>
            <title>{`${props.labels[i]}: ${f(v)}`}</title>
          </rect>
        ))}
        {props.labels.map((l, i) =>
          i % every === 0 ? (
            <text key={l} x={pad.l + i * bw + bw / 2} y={H - 8} textAnchor="middle" fontSize="11" fill={COLORS.text}>
              {l.slice(5)}
            </text>
          ) : null,
        )}
      </svg>
    </ChartFigure>
  );
}

/** Horizontal bars with labels and counts (top pages, referrers, devices, countries, ...). */
export function BarList(props: {
  title: string;
  items: Array<{ label: string; value: number }>;
  empty?: string;
  format?: (v: number) => string;
}) {
  const max = Math.max(1, ...props.items.map((i) => i.value));
  const f = props.format ?? fmt;
  const rowH = 26;
  const W = 320;
  const H = Math.max(rowH, props.items.length * rowH);
  const summary = props.items.map((i) => `${i.label}: ${f(i.value)}`).join('; ');
  return (
    <ChartFigure title={props.title}>
      {props.items.length === 0 ? (
        <p className="an-empty">{props.empty ?? 'No data in this range.'}</p>
      ) : (
        <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${props.title}. ${summary}`} className="an-svg">
          {props.items.map((it, i) => (
            <g key={i} transform={`translate(0 ${i * rowH})`}>
              <rect x="0" y="3" height={rowH - 6} width={Math.max(2, ((W - 60) * it.value) / max)} fill="#dce7fb" rx="3" />
              <text x="6" y={rowH / 2 + 4} fontSize="12" fill="#1d1d1f">
                {it.label.length > 40 ? `${it.label.slice(0, 39)}…` : it.label}
              </text>
              <text x={W - 4} y={rowH / 2 + 4} fontSize="12" textAnchor="end" fill="#1d1d1f">
                {f(it.value)}
              </text>
            </g>
          ))}
        </svg>
      )}
    </ChartFigure>
  );
}

/** The shopper funnel: one bar per step, with the conversion from the step before. */
export function FunnelChart(props: { title: string; steps: Array<{ label: string; value: number; conversion: number | null }> }) {
  const W = 640;
  const rowH = 40;
  const H = props.steps.length * rowH;
  const max = Math.max(1, ...props.steps.map((s) => s.value));
  const pct = (c: number | null) => (c === null ? '' : `${(c * 100).toFixed(c < 0.1 && c > 0 ? 1 : 0)}%`);
  const summary = props.steps
    .map((s) => `${s.label}: ${fmt(s.value)}${s.conversion === null ? '' : ` (${pct(s.conversion)} of the step before)`}`)
    .join('; ');
  return (
    <ChartFigure title={props.title}>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${props.title}. ${summary}`} className="an-svg">
        {props.steps.map((s, i) => {
          const w = Math.max(2, ((W - 260) * s.value) / max);
          return (
            <g key={s.label} transform={`translate(0 ${i * rowH})`}>
              <text x="0" y={rowH / 2 + 4} fontSize="13" fill="#1d1d1f">
                {s.label}
              </text>
              <rect x="120" y="6" height={rowH - 12} width={w} fill={COLORS.a} rx="3" opacity={1 - i * 0.12} />
              <text x={126 + w} y={rowH / 2 + 4} fontSize="13" fill="#1d1d1f">
                {fmt(s.value)}
              </text>
              <text x={W - 4} y={rowH / 2 + 4} fontSize="12" textAnchor="end" fill={COLORS.text}>
                {s.conversion === null ? '' : `${pct(s.conversion)} from previous`}
              </text>
            </g>
          );
        })}
      </svg>
    </ChartFigure>
  );
}

/** A web vital's p75 on a good / needs improvement / poor scale. */
export function VitalGauge(props: {
  name: string;
  p75: number | null;
  good: number | null;
  poor: number | null;
  samples: number;
  unit: string;
}) {
  const W = 300;
  const H = 46;
  const { good, poor, p75 } = props;
  const hasScale = good !== null && poor !== null;
  const max = hasScale ? poor! * 1.6 : Math.max(1, (p75 ?? 1) * 1.5);
  const x = (v: number) => Math.min(W, Math.max(0, (v / max) * W));
  const value = p75 === null ? 'no data' : props.unit === '' ? p75.toFixed(3) : `${Math.round(p75)} ${props.unit}`;
  const rating = p75 === null || !hasScale ? '' : p75 <= good! ? 'good' : p75 > poor! ? 'poor' : 'needs improvement';
  return (
    <figure className="an-vital">
      <figcaption>
        <strong>{props.name}</strong> p75 {value}
        {rating ? ` (${rating})` : ''}
        <span className="an-muted"> · {fmt(props.samples)} samples</span>
      </figcaption>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`${props.name} 75th percentile ${value}${rating ? `, ${rating}` : ''}${hasScale ? `; good up to ${good}, poor above ${poor}` : ''}`}
        className="an-svg"
      >
        {hasScale ? (
          <>
            <rect x="0" y="14" height="12" width={x(good!)} fill={COLORS.good} opacity="0.7" />
            <rect x={x(good!)} y="14" height="12" width={x(poor!) - x(good!)} fill={COLORS.ni} opacity="0.7" />
            <rect x={x(poor!)} y="14" height="12" width={W - x(poor!)} fill={COLORS.poor} opacity="0.7" />
            <text x={x(good!)} y="40" fontSize="10" textAnchor="middle" fill={COLORS.text}>
              {good}
            </text>
            <text x={x(poor!)} y="40" fontSize="10" textAnchor="middle" fill={COLORS.text}>
              {poor}
            </text>
          </>
        ) : (
          <rect x="0" y="14" height="12" width={W} fill={COLORS.grid} />
        )}
        {p75 !== null ? <polygon points={`${x(p75) - 6},4 ${x(p75) + 6},4 ${x(p75)},14`} fill="#1d1d1f" /> : null}
      </svg>
    </figure>
  );
}

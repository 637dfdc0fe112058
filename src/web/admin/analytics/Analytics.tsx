/**
 * /config/analytics: the owner's view of what visitors did, read from the per-day roll-ups:
 * visitors and page views over time, top pages and referrers, devices and countries, the shopper
 * funnel, revenue, form submissions, restock sign-ups, web vitals at p75 and recent JavaScript errors.
 */
import { useState, type FormEvent } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../client/api.js';
import { useLoad } from '../ui/records.js';
import { ColumnHeads } from '../ui/design.js';
import { formatMoney } from '../../../core/money.js';
import type { AnalyticsSettings, DashboardAnswer } from '../../../core/api/analytics.js';
import { BarList, ColumnChart, FunnelChart, LineChart, VitalGauge, fmt } from './AnalyticsCharts.js';
import { formatWhen } from '../ui/dates.js';

type DashboardData = DashboardAnswer;
type Settings = AnalyticsSettings;

const STEP_LABELS: Record<string, string> = {
  product_view: 'Product view',
  add_to_cart: 'Add to cart',
  view_cart: 'View cart',
  checkout: 'Checkout',
  order: 'Order',
};
const PRESETS = [7, 30, 90];

function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

function daysBack(n: number): { from: string; to: string } {
  const to = new Date();
  return { from: isoDay(new Date(to.getTime() - (n - 1) * 86_400_000)), to: isoDay(to) };
}

const STYLE = `.an-head{display:flex;flex-wrap:wrap;gap:16px;align-items:end;justify-content:space-between}
.an-range{display:flex;flex-wrap:wrap;gap:8px;align-items:end}.an-range label{display:grid;gap:2px;font-size:13px;font-weight:600}
.an-range input,.an-settings input,.an-settings select{font:inherit;padding:6px 8px;border:1px solid #bbb;border-radius:6px}
.an-range button[aria-pressed="true"]{background:var(--c-accent);color:var(--c-accent-text)}
.an-kpis{display:grid;grid-template-columns:repeat(auto-fit,minmax(140px,1fr));gap:12px;margin:16px 0;padding:0;list-style:none}
.an-kpis li{background:#fff;border-radius:10px;padding:12px 14px;box-shadow:0 1px 4px #0001}.an-kpis strong{display:block;font-size:24px}
.an-grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(320px,1fr));gap:16px}
.an-chart,.an-vital,.an-card{margin:0;background:#fff;border-radius:10px;padding:14px;box-shadow:0 1px 4px #0001}
.an-chart figcaption,.an-card h2{font-weight:700;margin:0 0 8px;font-size:15px}.an-svg{width:100%;height:auto;display:block}
.an-legend{display:flex;gap:16px;list-style:none;padding:0;margin:6px 0 0;font-size:13px}.an-swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:6px}
.an-vitals{display:grid;grid-template-columns:repeat(auto-fit,minmax(260px,1fr));gap:12px}.an-vital figcaption{font-size:13px;margin-bottom:4px}
.an-muted{color:#666}.an-empty{color:#666;margin:0}.an-wide{grid-column:1/-1}
.an-errors{width:100%;border-collapse:collapse;font-size:13px}.an-errors th,.an-errors td{text-align:left;padding:6px;border-top:1px solid #eee;vertical-align:top}
.an-errors pre{white-space:pre-wrap;font-size:11px;max-height:160px;overflow:auto}
.an-settings{display:flex;flex-wrap:wrap;gap:16px;align-items:end}.an-settings label{display:grid;gap:2px;font-size:13px;font-weight:600}
.an-visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}`;

export function Analytics() {
  const [range, setRange] = useState(() => daysBack(30));
  const [experiment, setExperiment] = useState('');
  // The figures for the range (and experiment) through TanStack Query; the last range's figures stay up while the next load.
  const q = useQuery({
    queryKey: ['analytics', range.from, range.to, experiment],
    queryFn: () => {
      const exp = experiment ? `&experiment=${encodeURIComponent(experiment)}` : '';
      return api<DashboardData>(
        'GET',
        `/api/analytics/dashboard?from=${encodeURIComponent(range.from)}&to=${encodeURIComponent(range.to)}${exp}`,
      );
    },
    placeholderData: keepPreviousData,
  });
  const data = q.data ?? null;
  const loading = q.isFetching;
  const error = q.isError ? q.error.message : '';

  const preset = PRESETS.find((n) => {
    const r = daysBack(n);
    return r.from === range.from && r.to === range.to;
  });
  const currency = data?.revenue[0]?.dim ?? 'USD';
  const labels = data?.series.map((s) => s.day) ?? [];

  return (
    <section className="an" aria-labelledby="an-title">
      <style>{STYLE}</style>
      <div className="an-head">
        <h1 id="an-title">Analytics</h1>
        <RangePicker range={range} preset={preset} onChange={setRange} />
      </div>
      <p role="status" className="an-muted">
        {loading ? 'Loading…' : data ? `${data.from} to ${data.to}` : ''}
      </p>
      {error ? <p role="alert">{error}</p> : null}
      {data ? (
        <>
          <Totals data={data} currency={currency} />
          <div className="an-grid">
            <div className="an-wide">
              <LineChart
                title="Visitors and page views"
                labels={labels}
                series={[
                  { name: 'Visitors', values: data.series.map((s) => s.visitors) },
                  { name: 'Page views', values: data.series.map((s) => s.pageviews) },
                ]}
              />
            </div>
            <div className="an-wide">
              <FunnelChart
                title="Shopper funnel (visitors)"
                steps={data.funnel.map((s) => ({ label: STEP_LABELS[s.step] ?? s.step, value: s.visitors, conversion: s.conversion }))}
              />
            </div>
            {data.byVariant ? (
              <VariantFunnel byVariant={data.byVariant} experiments={data.experiments ?? []} onPick={setExperiment} />
            ) : null}
            <BarList title="Top pages" items={data.pages.map((p) => ({ label: p.dim, value: p.count }))} />
            <BarList title="Top referrers" items={data.referrers.map((p) => ({ label: p.dim, value: p.count }))} />
            <BarList title="Devices" items={data.devices.map((p) => ({ label: p.dim, value: p.count }))} />
            <BarList title="Countries" items={data.countries.map((p) => ({ label: p.dim, value: p.count }))} />
            <BarList title="Browsers" items={data.browsers.map((p) => ({ label: p.dim, value: p.count }))} />
            <div className="an-wide">
              <ColumnChart
                title={`Revenue (${currency})`}
                labels={labels}
                values={data.series.map((s) => s.revenue)}
                format={(v) => formatMoney(Math.round(v), currency)}
              />
            </div>
            <BarList
              title="Form submissions"
              items={data.forms.map((p) => ({ label: p.label ?? p.dim, value: p.count }))}
              empty="No form submissions in this range."
            />
            <BarList
              title="Restock sign-ups"
              items={data.restock.map((p) => ({ label: p.label ?? p.dim, value: p.count }))}
              empty="No restock sign-ups in this range."
            />
          </div>
          <Vitals vitals={data.vitals} />
          <ErrorsCard errors={data.errors} />
        </>
      ) : null}
      <AnalyticsSettings />
    </section>
  );
}

type Range = { from: string; to: string };

/** The preset ranges and the from/to dates. */
function RangePicker({ range, preset, onChange }: { range: Range; preset: number | undefined; onChange: (r: Range) => void }) {
  return (
    <div className="an-range" role="group" aria-label="Date range">
      {PRESETS.map((n) => (
        <button key={n} type="button" aria-pressed={preset === n} onClick={() => onChange(daysBack(n))}>
          Last {n} days
        </button>
      ))}
      <label>
        From
        <input
          type="date"
          value={range.from}
          max={range.to}
          onChange={(e) => e.target.value && onChange({ ...range, from: e.target.value })}
        />
      </label>
      <label>
        To
        <input
          type="date"
          value={range.to}
          min={range.from}
          onChange={(e) => e.target.value && onChange({ ...range, to: e.target.value })}
        />
      </label>
    </div>
  );
}

/** The range's totals, revenue in the shop's first currency. */
function Totals({ data, currency }: { data: DashboardData; currency: string }) {
  return (
    <ul className="an-kpis" aria-label="Totals">
      <li>
        Visitors<strong>{fmt(data.totals.visitors)}</strong>
      </li>
      <li>
        Page views<strong>{fmt(data.totals.pageviews)}</strong>
      </li>
      <li>
        Orders<strong>{fmt(data.totals.orders)}</strong>
      </li>
      <li>
        Revenue<strong>{formatMoney(data.revenue.find((r) => r.dim === currency)?.total ?? 0, currency)}</strong>
        {data.refunds?.some((r) => r.dim === currency) ? (
          <small>after {formatMoney(data.refunds.find((r) => r.dim === currency)!.total, currency)} refunded</small>
        ) : null}
      </li>
      <li>
        Form submissions<strong>{fmt(data.totals.formSubmissions)}</strong>
      </li>
      <li>
        Restock sign-ups<strong>{fmt(data.totals.restockSignups)}</strong>
      </li>
    </ul>
  );
}

/** The funnel of each variant of the chosen experiment. */
function VariantFunnel({
  byVariant,
  experiments,
  onPick,
}: {
  byVariant: NonNullable<DashboardData['byVariant']>;
  experiments: string[];
  onPick: (name: string) => void;
}) {
  return (
    <section className="an-card an-wide" aria-labelledby="an-variants">
      <h2 id="an-variants">Shopper funnel by variant</h2>
      <label className="an-settings">
        Experiment
        <select value={byVariant.experiment} onChange={(e) => onPick(e.target.value)}>
          {experiments.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <table className="an-errors">
        <caption className="an-visually-hidden">Visitors at each funnel step, by variant of {byVariant.experiment}</caption>
        <ColumnHeads columns={['Variant', 'Visitors']}>
          {Object.keys(STEP_LABELS).map((k) => (
            <th scope="col" key={k}>
              {STEP_LABELS[k]}
            </th>
          ))}
        </ColumnHeads>
        <tbody>
          {byVariant.variants.map((v) => (
            <tr key={v.variant}>
              <th scope="row">{v.variant}</th>
              <td>{fmt(v.visitors)}</td>
              {v.steps.map((st) => (
                <td key={st.step}>
                  {fmt(st.visitors)}
                  {st.conversion === null ? '' : ` (${Math.round(st.conversion * 100)}%)`}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** The web vitals' gauges. */
function Vitals({ vitals }: { vitals: DashboardData['vitals'] }) {
  return (
    <section className="an-card" aria-labelledby="an-vitals" style={{ marginTop: 16 }}>
      <h2 id="an-vitals">Web vitals (75th percentile)</h2>
      <div className="an-vitals">
        {vitals.map((v) => (
          <VitalGauge
            key={v.name}
            name={v.name}
            p75={v.p75}
            good={v.good}
            poor={v.poor}
            samples={v.samples}
            unit={v.name === 'CLS' ? '' : 'ms'}
          />
        ))}
      </div>
    </section>
  );
}

/** The JavaScript errors of the range, with their last stack. */
function ErrorsCard({ errors }: { errors: DashboardData['errors'] }) {
  return (
    <section className="an-card" aria-labelledby="an-errors" style={{ marginTop: 16 }}>
      <h2 id="an-errors">JavaScript errors</h2>
      {errors.length === 0 ? (
        <p className="an-empty">No errors in this range.</p>
      ) : (
        <table className="an-errors">
          <ColumnHeads columns={['Message', 'Count', 'Last seen', 'Last page and browser']} />
          <tbody>
            {errors.map((e) => (
              <tr key={e.fingerprint}>
                <td>
                  {e.message}
                  {e.lastStack ? (
                    <details>
                      <summary>Stack</summary>
                      <pre>{e.lastStack}</pre>
                    </details>
                  ) : null}
                </td>
                <td>{fmt(e.count)}</td>
                <td>{e.lastSeen ? formatWhen(e.lastSeen) : ''}</td>
                <td>
                  {e.lastUrl}
                  <br />
                  <span className="an-muted">{e.lastBrowser.slice(0, 120)}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function AnalyticsSettings() {
  const [s, setS, loadError, , saved] = useLoad<Settings>('/api/analytics/settings');
  const [status, setStatus] = useState('');
  if (!s) return loadError ? <p role="alert">{loadError}</p> : null;
  const save = async (ev: FormEvent) => {
    ev.preventDefault();
    setStatus('Saving…');
    try {
      saved(
        await api<Settings>('PUT', '/api/analytics/settings', {
          trackingEnabled: s.trackingEnabled,
          retentionDays: s.retentionDays,
          cookiePolicy: s.cookiePolicy,
        }),
      );
      setStatus('Saved.');
    } catch (e) {
      setStatus((e as Error).message);
    }
  };
  return (
    <section className="an-card" aria-labelledby="an-settings" style={{ marginTop: 16 }}>
      <h2 id="an-settings">Analytics settings</h2>
      <form className="an-settings" onSubmit={save}>
        <label style={{ display: 'flex', gap: 6, alignItems: 'center' }}>
          <input type="checkbox" checked={s.trackingEnabled} onChange={(e) => setS({ ...s, trackingEnabled: e.target.checked })} />
          Record visitor analytics
        </label>
        <label>
          Keep raw events (days)
          <input
            type="number"
            min={1}
            max={3650}
            value={s.retentionDays}
            onChange={(e) => setS({ ...s, retentionDays: Math.max(1, Math.min(3650, Number(e.target.value) || 1)) })}
          />
        </label>
        <label>
          Cookie policy
          <select value={s.cookiePolicy} onChange={(e) => setS({ ...s, cookiePolicy: e.target.value as Settings['cookiePolicy'] })}>
            <option value="implied">Collect without asking</option>
            <option value="ask">Wait for the visitor&apos;s consent</option>
            <option value="restrictive">Restrictive: no analytics cookies</option>
          </select>
        </label>
        <button type="submit">Save settings</button>
        <span role="status">{status}</span>
      </form>
    </section>
  );
}

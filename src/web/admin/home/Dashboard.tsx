/**
 * Home: the shop at a glance (GET /api/admin/dashboard): sales, orders and visitors for today, 7 and 30 days
 * against the period before; orders to fulfil; low-stock variants; recent form submissions and restock
 * sign-ups; the storage the site's files use of its quota; and the set-up checklist, which ticks itself from
 * what the site has.
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../client/api.js';
import { formatFileSize } from '../../../core/time.js';
import { EmptyState, PageHeader, Skeleton, useMoney } from '../ui/design.js';
import { shopLocale } from '../ui/dates.js';

interface Figures {
  salesCents: number;
  orders: number;
  visitors: number;
}
interface Summary {
  currency: string;
  timeZone: string;
  periods: Array<{ days: number; current: Figures; previous: Figures }>;
  toFulfil: { count: number; orders: Array<{ id: string; orderNumber: number; email: string; grandTotalCents: number; created: string }> };
  lowStock: Array<{ variantId: string; productId: string; title: string; variant: string; sku: string; qtyInStock: number }>;
  submissions: Array<{ id: string; formId: string; formName: string; created: string }>;
  restockSignUps: Array<{ id: string; email: string; product: string; variant: string; created: string }>;
  checklist: Array<{ key: string; label: string; done: boolean; href: string; hint: string; note?: string }>;
  /** quotaBytes 0: the server sets no quota. */
  storage: { usedBytes: number; quotaBytes: number };
}

/** The site's stored files against its quota: '1.2 GB of 10 GB used (12%)'. */
function Storage({ usedBytes, quotaBytes }: Summary['storage']) {
  const used = formatFileSize(usedBytes, 1);
  if (quotaBytes <= 0) return <p>{used} used (no quota is set).</p>;
  const pct = Math.min(100, Math.round((usedBytes / quotaBytes) * 100));
  return (
    <>
      <p>
        {used} of {formatFileSize(quotaBytes, 1)} used ({pct}%)
      </p>
      <meter
        min={0}
        max={quotaBytes}
        value={Math.min(usedBytes, quotaBytes)}
        low={quotaBytes * 0.8}
        high={quotaBytes * 0.95}
        optimum={0}
        aria-label="Storage used"
      />
    </>
  );
}

const PERIOD_NAMES: Record<number, string> = { 1: 'Today', 7: '7 days', 30: '30 days' };

function change(now: number, before: number): { text: string; tone: 'up' | 'down' | 'same' } {
  if (now === before) return { text: 'no change', tone: 'same' };
  if (before === 0) return { text: 'up from none', tone: 'up' };
  const pct = Math.round(((now - before) / before) * 100);
  return pct >= 0 ? { text: `up ${pct}%`, tone: 'up' } : { text: `down ${Math.abs(pct)}%`, tone: 'down' };
}

function Stat({
  label,
  value,
  now,
  before,
  previousName,
}: {
  label: string;
  value: string;
  now: number;
  before: number;
  previousName: string;
}) {
  const c = change(now, before);
  return (
    <div className="a-card a-stat">
      <h3>{label}</h3>
      <span className="a-stat__value">{value}</span>
      <span className={`a-stat__change a-stat__change--${c.tone}`}>
        {c.text} on {previousName}
      </span>
    </div>
  );
}

function when(iso: string, timeZone: string) {
  return new Date(iso).toLocaleString(shopLocale(), { timeZone, dateStyle: 'medium', timeStyle: 'short' });
}

/** The set-up steps, each done or linked to where it is done. */
function SetupChecklist({ checklist }: { checklist: Summary['checklist'] }) {
  const left = checklist.filter((c) => !c.done).length;
  return (
    <section className="a-card" aria-labelledby="setup-h">
      <h2 id="setup-h">Set-up checklist</h2>
      <p className="a-muted">{left === 0 ? 'Everything is set up.' : `${checklist.length - left} of ${checklist.length} done.`}</p>
      <ul className="a-list a-checklist" aria-label="Set-up steps">
        {checklist.map((c) => (
          <li key={c.key} aria-label={`${c.label}: ${c.done ? 'done' : 'not done yet'}`}>
            <span className={`a-check-mark${c.done ? ' a-check-mark--done' : ''}`} aria-hidden="true">
              {c.done ? '✓' : ''}
            </span>
            <span>
              {c.done ? <strong>{c.label}</strong> : <a href={c.href}>{c.label}</a>}
              <br />
              <span className="a-muted">{c.done ? (c.note ? `Done. ${c.note}` : 'Done.') : c.hint}</span>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Sales, orders and visitors for the chosen period, each against the period before. */
function Figures({
  periods,
  days,
  setDays,
  money,
}: {
  periods: Summary['periods'];
  days: number;
  setDays: (days: number) => void;
  money: ReturnType<typeof useMoney>;
}) {
  const period = periods.find((p) => p.days === days) ?? periods[0]!;
  const previousName = days === 1 ? 'yesterday' : `the ${days} days before`;
  return (
    <section aria-labelledby="figures-h">
      <h2 id="figures-h" className="visually-hidden">
        Figures
      </h2>
      <div className="a-tabs" role="group" aria-label="Period">
        {periods.map((p) => (
          <button key={p.days} type="button" aria-pressed={p.days === days} onClick={() => setDays(p.days)}>
            {PERIOD_NAMES[p.days] ?? `${p.days} days`}
          </button>
        ))}
      </div>
      <div className="a-grid">
        <Stat
          label="Sales"
          value={money(period.current.salesCents)}
          now={period.current.salesCents}
          before={period.previous.salesCents}
          previousName={previousName}
        />
        <Stat
          label="Orders"
          value={String(period.current.orders)}
          now={period.current.orders}
          before={period.previous.orders}
          previousName={previousName}
        />
        <Stat
          label="Visitors"
          value={String(period.current.visitors)}
          now={period.current.visitors}
          before={period.previous.visitors}
          previousName={previousName}
        />
      </div>
    </section>
  );
}

export function Dashboard() {
  const q = useQuery({ queryKey: ['dashboard'], queryFn: () => api<Summary>('GET', '/api/admin/dashboard') });
  const [days, setDays] = useState(7);
  const money = useMoney(q.data?.currency ?? 'USD');
  if (q.isPending) {
    return (
      <>
        <PageHeader title="Home" />
        <Skeleton lines={6} label="Loading the dashboard" />
      </>
    );
  }
  if (q.isError) {
    return (
      <>
        <PageHeader title="Home" />
        <p role="alert">{q.error.message}</p>
        <button type="button" onClick={() => void q.refetch()}>
          Try again
        </button>
      </>
    );
  }
  const d = q.data;
  return (
    <>
      <PageHeader
        title="Home"
        description="How the shop is doing, and what needs you."
        actions={
          <a className="a-button a-button--primary" href="/config/products/new">
            Add a product
          </a>
        }
      />

      <SetupChecklist checklist={d.checklist} />

      <Figures periods={d.periods} days={days} setDays={setDays} money={money} />

      <div className="a-grid">
        <section className="a-card" aria-labelledby="fulfil-h">
          <h2 id="fulfil-h">Orders to fulfil ({d.toFulfil.count})</h2>
          {d.toFulfil.orders.length === 0 ? (
            <EmptyState level={3} title="Nothing to fulfil">
              New paid orders appear here until they are fulfilled.
            </EmptyState>
          ) : (
            <ul className="a-list">
              {d.toFulfil.orders.map((o) => (
                <li key={o.id}>
                  <a href={`/config/orders/${o.id}`}>Order #{o.orderNumber}</a>
                  <span className="a-muted">
                    {o.email} · {money(o.grandTotalCents)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className="a-card" aria-labelledby="low-h">
          <h2 id="low-h">Low stock</h2>
          {d.lowStock.length === 0 ? (
            <EmptyState level={3} title="Stock is fine">
              Variants with 3 or fewer left show here.
            </EmptyState>
          ) : (
            <ul className="a-list">
              {d.lowStock.map((v) => (
                <li key={v.variantId}>
                  <a href={`/config/products/${v.productId}`}>
                    {v.title}
                    {v.variant ? ` (${v.variant})` : ''}
                  </a>
                  <span className="a-muted">{v.qtyInStock === 0 ? 'Sold out' : `${v.qtyInStock} left`}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className="a-card" aria-labelledby="subs-h">
          <h2 id="subs-h">Recent form submissions</h2>
          {d.submissions.length === 0 ? (
            <EmptyState level={3} title="No submissions yet">
              Add a form to a page to hear from visitors.
            </EmptyState>
          ) : (
            <ul className="a-list">
              {d.submissions.map((s) => (
                <li key={s.id}>
                  <a href="/config/forms">{s.formName}</a>
                  <span className="a-muted">{when(s.created, d.timeZone)}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className="a-card" aria-labelledby="restock-h">
          <h2 id="restock-h">Recent restock sign-ups</h2>
          {d.restockSignUps.length === 0 ? (
            <EmptyState level={3} title="No sign-ups yet">
              Visitors can ask to be told when a sold-out variant is back.
            </EmptyState>
          ) : (
            <ul className="a-list">
              {d.restockSignUps.map((r) => (
                <li key={r.id}>
                  <span>
                    {r.product}
                    {r.variant ? ` (${r.variant})` : ''}
                  </span>
                  <span className="a-muted">
                    {r.email} · {when(r.created, d.timeZone)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className="a-card" aria-labelledby="storage-h">
          <h2 id="storage-h">Storage</h2>
          <Storage {...d.storage} />
        </section>
      </div>
    </>
  );
}

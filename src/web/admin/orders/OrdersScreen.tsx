/**
 * /config/orders (issue 24): the orders list (search, payment and fulfilment filters, date range, sort, pages, CSV
 * export of the filtered list) and one order (/config/orders/:id): lines with fulfilled and refunded quantities,
 * totals, customer, addresses, payment, a timeline with notes, fulfil and refund dialogs, and a printable packing
 * slip and invoice. Calls: server/checkout/order-admin-routes.ts.
 */
import { useEffect, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../client/api.js';
import { formatMoney, moneyDecimalString, toMinorUnits } from '../../../core/money.js';
import { ColumnHeads, EmptyState, PageHeader, Skeleton, useMoney, useToast } from '../ui/design.js';
import './orders.css';
import type { Money, OrderDetailView, OrderLineView, OrderListAnswer } from '../../../core/api/orders.js';
import { formatDay, formatDayMedium, formatWhenMedium } from '../ui/dates.js';

type Detail = OrderDetailView;
type ListAnswer = OrderListAnswer;
type Line = OrderLineView;

const PAYMENT: Record<string, string> = { paid: 'Paid', partially_refunded: 'Partially refunded', refunded: 'Refunded' };
const FULFILMENT: Record<string, string> = { unfulfilled: 'Unfulfilled', partial: 'Partially fulfilled', fulfilled: 'Fulfilled' };
const CARRIERS = [
  { id: 'ups', name: 'UPS' },
  { id: 'usps', name: 'USPS' },
  { id: 'fedex', name: 'FedEx' },
  { id: 'dhl', name: 'DHL Express' },
  { id: 'royal-mail', name: 'Royal Mail' },
  { id: 'canada-post', name: 'Canada Post' },
  { id: 'australia-post', name: 'Australia Post' },
  { id: 'dpd', name: 'DPD' },
];
const SORTS: Record<string, { sort: string; dir: string; label: string }> = {
  newest: { sort: 'number', dir: 'desc', label: 'Newest first' },
  oldest: { sort: 'number', dir: 'asc', label: 'Oldest first' },
  'total-desc': { sort: 'total', dir: 'desc', label: 'Total, high to low' },
  'total-asc': { sort: 'total', dir: 'asc', label: 'Total, low to high' },
  customer: { sort: 'customer', dir: 'asc', label: 'Customer A–Z' },
};
const PAGE_SIZE = 25;
const fm = (m: Money) => formatMoney(m.value, m.currency);
const when = (t: number | string) => formatWhenMedium(t);
const dayOf = (t: number | string) => formatDayMedium(t);

function Badge({ tone, children }: { tone: 'ok' | 'warn' | 'muted' | 'info'; children: ReactNode }) {
  return <span className={`o-badge o-badge--${tone}`}>{children}</span>;
}
const paymentBadge = (s: string) => <Badge tone={s === 'paid' ? 'ok' : s === 'refunded' ? 'muted' : 'info'}>{PAYMENT[s] ?? s}</Badge>;
const fulfilmentBadge = (s: string) => <Badge tone={s === 'fulfilled' ? 'muted' : 'warn'}>{FULFILMENT[s] ?? s}</Badge>;

// ---- The minimum order subtotal (checkout setting kept on this screen) --------------------------------

function MinimumSubtotal() {
  const client = useQueryClient();
  // The same call (and key) as the screens' store currency (ui.tsx useStoreCurrency), so they share one read.
  const q = useQuery({
    queryKey: ['checkout-settings'],
    queryFn: () => api<{ minimumOrderSubtotalCents: number; currency: string }>('GET', '/api/checkout/admin/settings'),
  });
  const currency = q.data?.currency ?? 'USD';
  const stored = q.data?.minimumOrderSubtotalCents ? moneyDecimalString(q.data.minimumOrderSubtotalCents, currency) : '';
  /** What the owner typed; null shows the stored minimum. */
  const [typed, setTyped] = useState<string | null>(null);
  const text = typed ?? stored;
  const [note, setNote] = useState('');
  const m = useMutation({
    mutationFn: (cents: number) => api('PUT', '/api/checkout/admin/settings', { minimumOrderSubtotalCents: cents }),
    onSuccess: (_r, cents) => {
      setNote(cents ? `Saved: orders must be ${formatMoney(cents, currency)} or more.` : 'Saved: no minimum.');
      setTyped(null);
      void client.invalidateQueries({ queryKey: ['checkout-settings'] });
    },
    onError: (err: Error) => setNote(err.message),
  });
  function save(e: FormEvent) {
    e.preventDefault();
    let cents = 0;
    try {
      cents = text.trim() ? toMinorUnits(text.trim(), currency) : 0;
    } catch {
      setNote('Enter an amount such as 25.00.');
      return;
    }
    m.mutate(cents);
  }
  return (
    <form onSubmit={save} className="a-card o-minimum" aria-label="Minimum order subtotal">
      <label htmlFor="min-subtotal">Minimum order subtotal ({currency})</label>
      <div className="o-row">
        <input id="min-subtotal" value={text} inputMode="decimal" onChange={(e) => setTyped(e.target.value)} />
        <button type="submit">Save minimum</button>
      </div>
      {note && <span role="status">{note}</span>}
    </form>
  );
}

// ---- The list ------------------------------------------------------------------------------------------

function OrdersList() {
  const [q, setQ] = useState('');
  const [payment, setPayment] = useState('');
  const [fulfilment, setFulfilment] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [sort, setSort] = useState('newest');
  const [page, setPage] = useState(1);
  const params = useMemo(() => {
    const p = new URLSearchParams();
    if (q.trim()) p.set('q', q.trim());
    if (payment) p.set('payment', payment);
    if (fulfilment) p.set('fulfilment', fulfilment);
    if (from) p.set('from', from);
    if (to) p.set('to', to);
    p.set('sort', SORTS[sort]!.sort);
    p.set('dir', SORTS[sort]!.dir);
    return p;
  }, [q, payment, fulfilment, from, to, sort]);
  useEffect(() => setPage(1), [params]);
  const list = useQuery({
    queryKey: ['orders', params.toString(), page],
    queryFn: () => api<ListAnswer>('GET', `/api/checkout/admin/orders?${params.toString()}&page=${page}&pageSize=${PAGE_SIZE}`),
    placeholderData: keepPreviousData,
  });
  const filtered = Boolean(q.trim() || payment || fulfilment || from || to);
  const d = list.data;
  const first = d ? (d.page - 1) * d.pageSize + 1 : 0;
  const last = d ? Math.min(d.total, d.page * d.pageSize) : 0;
  return (
    <>
      <PageHeader
        title="Orders"
        description="Every order placed in your store: find one, fulfil it, refund it or export the list."
        actions={
          <a className="a-button" href={`/api/checkout/admin/orders.csv?${params.toString()}`} download>
            Export CSV
          </a>
        }
      />
      <form role="search" aria-label="Find orders" className="a-card o-filters" onSubmit={(e) => e.preventDefault()}>
        <label className="o-filters__search">
          Search orders
          <input type="search" value={q} placeholder="Order number, email or name" onChange={(e) => setQ(e.target.value)} />
        </label>
        <FilterSelect label="Payment" value={payment} onChange={setPayment} options={{ '': 'Any', ...PAYMENT }} />
        <FilterSelect label="Fulfilment" value={fulfilment} onChange={setFulfilment} options={{ '': 'Any', ...FULFILMENT }} />
        <label>
          From
          <input type="date" value={from} max={to || undefined} onChange={(e) => setFrom(e.target.value)} />
        </label>
        <label>
          To
          <input type="date" value={to} min={from || undefined} onChange={(e) => setTo(e.target.value)} />
        </label>
        <FilterSelect
          label="Sort"
          value={sort}
          onChange={setSort}
          options={Object.fromEntries(Object.entries(SORTS).map(([k, v]) => [k, v.label]))}
        />
        {filtered ? (
          <button
            type="button"
            className="o-filters__clear"
            onClick={() => {
              setQ('');
              setPayment('');
              setFulfilment('');
              setFrom('');
              setTo('');
            }}
          >
            Clear filters
          </button>
        ) : null}
      </form>
      {list.isPending ? (
        <Skeleton lines={6} label="Loading orders" />
      ) : list.isError ? (
        <p role="alert">{list.error.message}</p>
      ) : d!.orders.length === 0 ? (
        <div className="a-card">
          <EmptyState title={filtered ? 'No orders match' : 'No orders yet'}>
            {filtered ? 'Try another search or clear the filters.' : 'Orders appear here as soon as a customer checks out.'}
          </EmptyState>
        </div>
      ) : (
        <div className="a-card o-table-card">
          <table className="o-table" aria-label="Orders">
            <ColumnHeads columns={['Order', 'Date', 'Customer', 'Payment', 'Fulfilment', 'Items']}>
              <th scope="col" className="o-num">
                Total
              </th>
            </ColumnHeads>
            <tbody>
              {d!.orders.map((o) => (
                <tr key={o.id}>
                  <td className="o-table__order">
                    <a href={`/config/orders/${o.id}`}>Order #{o.orderNumber}</a>
                    {o.testMode ? <Badge tone="muted">Test</Badge> : null}
                  </td>
                  <td>{when(o.created)}</td>
                  <td>
                    <span className="o-table__name">{o.customerName || o.email}</span>
                    {o.customerName ? <span className="a-muted o-table__email">{o.email}</span> : null}
                  </td>
                  <td>{paymentBadge(o.paymentStatus)}</td>
                  <td>{fulfilmentBadge(o.fulfilmentStatus)}</td>
                  <td>{o.items.reduce((s, i) => s + i.quantity, 0)} items</td>
                  <td className="o-num">{fm(o.grandTotal)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <nav className="o-pager" aria-label="Pages of orders">
            <span role="status">
              {first}–{last} of {d!.total} orders
            </span>
            <span className="o-row">
              <button type="button" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
                Previous page
              </button>
              <button type="button" disabled={last >= d!.total} onClick={() => setPage((p) => p + 1)}>
                Next page
              </button>
            </span>
          </nav>
        </div>
      )}
      <MinimumSubtotal />
    </>
  );
}

// ---- Dialogs ---------------------------------------------------------------------------------------------

function ActionDialog({
  trigger,
  title,
  description,
  children,
}: {
  trigger: ReactNode;
  title: string;
  description: string;
  children: (close: () => void) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>{trigger}</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="a-overlay" />
        <Dialog.Content className="a-dialog o-dialog">
          <Dialog.Title>{title}</Dialog.Title>
          <Dialog.Description className="a-muted">{description}</Dialog.Description>
          {open ? children(() => setOpen(false)) : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function QuantityRows({
  lines,
  left,
  values,
  onChange,
  verb,
}: {
  lines: Line[];
  left: (l: Line) => number;
  values: Record<number, number>;
  onChange: (line: number, q: number) => void;
  verb: string;
}) {
  return (
    <ul className="o-qty-list">
      {lines.map((l) => (
        <li key={l.line}>
          <span>
            <strong>{l.productName}</strong>
            <span className="a-muted"> {l.sku}</span>
          </span>
          <label>
            <span className="visually-hidden">
              Quantity to {verb} for {l.productName} ({l.sku})
            </span>
            <input
              type="number"
              min={0}
              max={left(l)}
              value={values[l.line] ?? 0}
              disabled={left(l) === 0}
              onChange={(e) => onChange(l.line, Math.max(0, Math.min(left(l), Math.trunc(Number(e.target.value) || 0))))}
            />
            <span className="a-muted"> of {left(l)}</span>
          </label>
        </li>
      ))}
    </ul>
  );
}

/**
 * The scaffolding the order's action forms share (fulfil, refund, note): POST `/orders/<id>/<action>` with `body()`,
 * the answer (the order again) handed to `onDone`, `toast()`'s words in a toast, then `after`; a failure's message
 * in an alert under the form. `check` may answer a message to show instead of sending.
 */
function useOrderAction(
  orderId: string,
  action: 'fulfil' | 'refund' | 'notes',
  opts: { body: () => unknown; onDone: (d: Detail) => void; toast: () => string; after?: () => void; check?: () => string | undefined },
) {
  const [error, setError] = useState('');
  const toast = useToast();
  const m = useMutation({
    mutationFn: () => api<Detail>('POST', `/api/checkout/admin/orders/${orderId}/${action}`, opts.body()),
    onSuccess: (d) => {
      opts.onDone(d);
      toast(opts.toast());
      opts.after?.();
    },
    onError: (e: Error) => setError(e.message),
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setError('');
    const problem = opts.check?.();
    if (problem) return setError(problem);
    m.mutate();
  };
  const message = error ? (
    <p role="alert" className="a-field__error">
      {error}
    </p>
  ) : null;
  return { onSubmit, pending: m.isPending, message };
}

function FulfilForm({ detail, close, onDone }: { detail: Detail; close: () => void; onDone: (d: Detail) => void }) {
  const left = (l: Line) => Math.max(0, l.quantity - l.fulfilled - l.refunded);
  const [values, setValues] = useState<Record<number, number>>(() => Object.fromEntries(detail.lines.map((l) => [l.line, left(l)])));
  const [carrier, setCarrier] = useState('ups');
  const [other, setOther] = useState('');
  const [tracking, setTracking] = useState('');
  const [notify, setNotify] = useState(true);
  const m = useOrderAction(detail.order.id, 'fulfil', {
    body: () => ({
      lines: detail.lines.map((l) => ({ line: l.line, quantity: values[l.line] ?? 0 })).filter((l) => l.quantity > 0),
      carrier: carrier === 'other' ? other : carrier,
      trackingNumber: tracking,
      notify,
    }),
    onDone,
    toast: () => (notify ? 'Items fulfilled. The customer was emailed.' : 'Items fulfilled.'),
    after: close,
  });
  const count = Object.values(values).reduce((s, q) => s + q, 0);
  return (
    <form className="a-form" onSubmit={m.onSubmit}>
      <QuantityRows
        lines={detail.lines}
        left={left}
        values={values}
        onChange={(line, q) => setValues((v) => ({ ...v, [line]: q }))}
        verb="fulfil"
      />
      <div className="o-fields">
        <label>
          Carrier
          <select value={carrier} onChange={(e) => setCarrier(e.target.value)}>
            {CARRIERS.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
            <option value="other">Other</option>
          </select>
        </label>
        {carrier === 'other' ? (
          <label>
            Carrier name
            <input value={other} maxLength={60} onChange={(e) => setOther(e.target.value)} />
          </label>
        ) : null}
        <label>
          Tracking number
          <input value={tracking} maxLength={100} autoComplete="off" onChange={(e) => setTracking(e.target.value)} />
        </label>
      </div>
      <label className="a-check">
        <input type="checkbox" checked={notify} onChange={(e) => setNotify(e.target.checked)} /> Send a shipping email to the customer
      </label>
      {m.message}
      <div className="a-dialog__actions">
        <Dialog.Close asChild>
          <button type="button">Cancel</button>
        </Dialog.Close>
        <button type="submit" disabled={m.pending || count === 0}>
          Fulfil {count} {count === 1 ? 'item' : 'items'}
        </button>
      </div>
    </form>
  );
}

function RefundForm({ detail, close, onDone }: { detail: Detail; close: () => void; onDone: (d: Detail) => void }) {
  const o = detail.order;
  const money = useMoney(o.currency);
  const left = (l: Line) => Math.max(0, l.quantity - l.refunded);
  const [values, setValues] = useState<Record<number, number>>({});
  const [restock, setRestock] = useState(true);
  const [amountText, setAmountText] = useState('');
  const [edited, setEdited] = useState(false);
  const [reason, setReason] = useState('');
  const [notify, setNotify] = useState(true);
  const fromLines = Math.min(
    detail.refundableCents,
    detail.lines.reduce((s, l) => s + l.unitPriceCents * (values[l.line] ?? 0), 0),
  );
  useEffect(() => {
    if (!edited) setAmountText(fromLines ? moneyDecimalString(fromLines, o.currency) : '');
  }, [fromLines, edited, o.currency]);
  let amount: number | null = null;
  try {
    amount = amountText.trim() ? toMinorUnits(amountText.trim(), o.currency) : 0;
  } catch {
    amount = null;
  }
  const m = useOrderAction(o.id, 'refund', {
    body: () => ({
      lines: detail.lines.map((l) => ({ line: l.line, quantity: values[l.line] ?? 0 })).filter((l) => l.quantity > 0),
      amountCents: amount ?? 0,
      restock,
      reason,
      notify,
    }),
    check: () => (amount === null ? 'Enter an amount such as 25.00.' : undefined),
    onDone,
    toast: () => `Refunded ${money(amount ?? 0)}.`,
    after: close,
  });
  return (
    <form className="a-form" onSubmit={m.onSubmit}>
      <QuantityRows
        lines={detail.lines}
        left={left}
        values={values}
        onChange={(line, q) => setValues((v) => ({ ...v, [line]: q }))}
        verb="refund"
      />
      <button
        type="button"
        className="o-dialog__all"
        onClick={() => {
          setValues(Object.fromEntries(detail.lines.map((l) => [l.line, left(l)])));
          setEdited(true);
          setAmountText(moneyDecimalString(detail.refundableCents, o.currency));
        }}
      >
        Refund everything ({money(detail.refundableCents)})
      </button>
      <label className="a-check">
        <input type="checkbox" checked={restock} onChange={(e) => setRestock(e.target.checked)} /> Restock the refunded items
      </label>
      <div className="o-fields">
        <label>
          Refund amount ({o.currency})
          <input
            inputMode="decimal"
            value={amountText}
            aria-describedby="refund-max"
            onChange={(e) => {
              setEdited(true);
              setAmountText(e.target.value);
            }}
          />
          <span id="refund-max" className="a-muted">
            {money(detail.refundableCents)} available to refund
          </span>
        </label>
        <label>
          Reason (for your records)
          <input value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />
        </label>
      </div>
      <label className="a-check">
        <input type="checkbox" checked={notify} onChange={(e) => setNotify(e.target.checked)} /> Email the customer about the refund
      </label>
      {m.message}
      <div className="a-dialog__actions">
        <Dialog.Close asChild>
          <button type="button">Cancel</button>
        </Dialog.Close>
        <button
          type="submit"
          className="a-button--danger"
          disabled={m.pending || amount === null || (amount === 0 && fromLines === 0 && Object.values(values).every((q) => !q))}
        >
          Refund {amount === null ? '' : money(amount)}
        </button>
      </div>
    </form>
  );
}

// ---- Printable documents ---------------------------------------------------------------------------------

function PrintDocument({ detail, kind, siteTitle }: { detail: Detail; kind: 'slip' | 'invoice'; siteTitle: string }) {
  const o = detail.order;
  const money = useMoney(o.currency);
  const a = o.shippingAddress;
  return (
    <section className="o-print" aria-label={kind === 'slip' ? 'Packing slip' : 'Invoice'}>
      <header className="o-print__head">
        <div>
          <h2>{kind === 'slip' ? 'Packing slip' : 'Invoice'}</h2>
          {detail.shopAddressLines.length ? <AddressLines lines={detail.shopAddressLines} /> : <p>{siteTitle}</p>}
        </div>
        <div className="o-print__meta">
          <p>
            <strong>Order #{o.orderNumber}</strong>
          </p>
          <p>{dayOf(o.created)}</p>
        </div>
      </header>
      <div className="o-print__parties">
        <div>
          <h3>{kind === 'slip' ? 'Ship to' : 'Bill to'}</h3>
          {a ? <AddressLines lines={o.shippingAddressLines} /> : <p>{o.email}</p>}
          {kind === 'invoice' ? <p>{o.email}</p> : null}
        </div>
        {kind === 'invoice' ? (
          <div>
            <h3>Payment</h3>
            <p>{PAYMENT[o.paymentStatus]}</p>
            {o.payment?.last4 ? (
              <p>
                {o.payment.brand} ending in {o.payment.last4}
              </p>
            ) : null}
          </div>
        ) : null}
      </div>
      <table>
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col">SKU</th>
            <th scope="col" className="o-num">
              Quantity
            </th>
            {kind === 'invoice' ? (
              <>
                <th scope="col" className="o-num">
                  Price
                </th>
                <th scope="col" className="o-num">
                  Amount
                </th>
              </>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {detail.lines.map((l) => (
            <tr key={l.line}>
              <td>
                {l.productName}
                {Object.keys(l.attributes).length ? <span className="a-muted"> ({Object.values(l.attributes).join(', ')})</span> : null}
              </td>
              <td>{l.sku}</td>
              <td className="o-num">{l.quantity}</td>
              {kind === 'invoice' ? (
                <>
                  <td className="o-num">{money(l.unitPriceCents)}</td>
                  <td className="o-num">{money(l.unitPriceCents * l.quantity)}</td>
                </>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
      {kind === 'invoice' ? <Totals detail={detail} /> : <p className="o-print__thanks">Thank you for your order.</p>}
    </section>
  );
}

/** The address as its country writes it: the lines the server formatted (core/address-format.ts). */
function AddressLines({ lines }: { lines: readonly string[] }) {
  return (
    <address>
      {lines.map((x, i) => (
        <span key={i}>
          {x}
          <br />
        </span>
      ))}
    </address>
  );
}

function Totals({ detail }: { detail: Detail }) {
  const o = detail.order;
  const money = useMoney(o.currency);
  const t = o.totals;
  const count = o.items.reduce((s, i) => s + i.quantity, 0);
  return (
    <table className="o-totals" aria-label="Totals">
      <tbody>
        <tr>
          <th scope="row">Subtotal</th>
          <td>{count} items</td>
          <td className="o-num">{money(t.subtotalCents)}</td>
        </tr>
        {t.discountCents > 0 ? (
          <tr>
            <th scope="row">Discount</th>
            <td>{o.coupons.join(', ')}</td>
            <td className="o-num">−{money(t.discountCents)}</td>
          </tr>
        ) : null}
        <tr>
          <th scope="row">Shipping</th>
          <td>{o.shippingOption?.name ?? ''}</td>
          <td className="o-num">{money(t.shippingCents)}</td>
        </tr>
        <tr>
          <th scope="row">Tax</th>
          <td />
          <td className="o-num">{money(t.taxCents)}</td>
        </tr>
        {t.giftCardCents > 0 ? (
          <tr>
            <th scope="row">Gift card</th>
            <td />
            <td className="o-num">−{money(t.giftCardCents)}</td>
          </tr>
        ) : null}
        <tr className="o-totals__total">
          <th scope="row">Total</th>
          <td />
          <td className="o-num">{money(t.grandTotalCents)}</td>
        </tr>
        {o.refundedCents > 0 ? (
          <>
            <tr>
              <th scope="row">Refunded</th>
              <td />
              <td className="o-num">−{money(o.refundedCents)}</td>
            </tr>
            <tr className="o-totals__total">
              <th scope="row">Net payment</th>
              <td />
              <td className="o-num">{money(t.grandTotalCents - o.refundedCents)}</td>
            </tr>
          </>
        ) : null}
      </tbody>
    </table>
  );
}

// ---- One order ---------------------------------------------------------------------------------------------

function NoteForm({ orderId, onDone }: { orderId: string; onDone: (d: Detail) => void }) {
  const [body, setBody] = useState('');
  const m = useOrderAction(orderId, 'notes', { body: () => ({ body }), onDone, toast: () => 'Note added.', after: () => setBody('') });
  return (
    <form className="o-note-form" onSubmit={m.onSubmit}>
      <label htmlFor="order-note" className="visually-hidden">
        Add a note
      </label>
      <textarea
        id="order-note"
        rows={2}
        maxLength={2000}
        placeholder="Add a note for your team…"
        value={body}
        onChange={(e) => setBody(e.target.value)}
      />
      <button type="submit" disabled={m.pending || !body.trim()}>
        Add note
      </button>
      {m.message}
    </form>
  );
}

/** The order's subscription and the one control for it: cancel (at Stripe first when Stripe Billing bills it). */
function SubscriptionCard({ detail, onDone }: { detail: Detail; onDone: (d: Detail) => void }) {
  const [error, setError] = useState('');
  const toast = useToast();
  const s = detail.subscription!;
  const m = useMutation({
    mutationFn: () => api<Detail>('POST', `/api/checkout/admin/orders/${detail.order.id}/subscription/cancel`, {}),
    onSuccess: (d) => {
      onDone(d);
      toast('Subscription canceled.');
    },
    onError: (e: Error) => setError(e.message),
  });
  const running = s.status === 'active' || s.status === 'past_due';
  return (
    <section className="a-card" aria-labelledby="subscription-h">
      <h2 id="subscription-h">Subscription</h2>
      <p>
        Status: {s.status.replace('_', ' ')}
        {s.provider === 'stripe' ? ' (billed by Stripe)' : ''}
        {s.cancelAt ? `, ends ${formatDay(s.cancelAt)}` : ''}
      </p>
      {running ? (
        <button type="button" disabled={m.isPending} onClick={() => m.mutate()}>
          Cancel subscription
        </button>
      ) : null}
      {error ? (
        <p role="alert" className="a-field__error">
          {error}
        </p>
      ) : null}
    </section>
  );
}

function OrderDetail({ id }: { id: string }) {
  const client = useQueryClient();
  const key = ['order', id];
  const q = useQuery({ queryKey: key, queryFn: () => api<Detail>('GET', `/api/checkout/admin/orders/${encodeURIComponent(id)}`) });
  const [print, setPrint] = useState<'slip' | 'invoice' | null>(null);
  const siteTitle = typeof document === 'undefined' ? '' : (document.querySelector('.a-topbar__site')?.textContent ?? '');
  useEffect(() => {
    if (!print) return;
    const after = () => setPrint(null);
    window.addEventListener('afterprint', after, { once: true });
    window.print();
    return () => window.removeEventListener('afterprint', after);
  }, [print]);
  const update = (d: Detail) => {
    client.setQueryData(key, d);
    void client.invalidateQueries({ queryKey: ['orders'] });
  };
  if (q.isPending) return <Skeleton lines={8} label="Loading the order" />;
  if (q.isError) return <p role="alert">{q.error.message}</p>;
  const d = q.data;
  const o = d.order;
  return (
    <>
      <div className="o-screen">
        <PageHeader
          title={`Order #${o.orderNumber}`}
          breadcrumbs={[{ label: 'Orders', href: '/config/orders' }, { label: `Order #${o.orderNumber}` }]}
          description={
            <span className="o-row o-wrap">
              {paymentBadge(o.paymentStatus)} {fulfilmentBadge(o.fulfilmentStatus)}{' '}
              {o.testMode ? <Badge tone="muted">Test mode</Badge> : null}
              <span className="a-muted">{when(o.created)}</span>
            </span>
          }
          actions={
            <>
              <button type="button" onClick={() => setPrint('slip')}>
                Print packing slip
              </button>
              <button type="button" onClick={() => setPrint('invoice')}>
                Print invoice
              </button>
            </>
          }
        />
        <div className="o-layout">
          <div className="o-main">
            <ItemsCard detail={d} onDone={update} />
            <PaymentCard detail={d} />
            {d.subscription ? <SubscriptionCard detail={d} onDone={update} /> : null}
            <TimelineCard detail={d} onDone={update} />
          </div>
          <CustomerSide order={o} />
        </div>
      </div>
      {print ? <PrintDocument detail={d} kind={print} siteTitle={siteTitle} /> : null}
    </>
  );
}

/** One of the order list's filters: a labelled select over `options` (value -> words), in their order. */
/** The order's lines, its shipments, and the refund and fulfil actions. */
function ItemsCard({ detail: d, onDone: update }: { detail: Detail; onDone: (d: Detail) => void }) {
  const o = d.order;
  const canFulfil = o.paymentStatus !== 'refunded' && d.lines.some((l) => l.quantity - l.fulfilled - l.refunded > 0);
  const canRefund = d.refundableCents > 0;
  return (
    <section className="a-card" aria-labelledby="items-h">
      <div className="o-card-head">
        <h2 id="items-h">Items</h2>
        {fulfilmentBadge(o.fulfilmentStatus)}
      </div>
      <table className="o-lines" aria-label="Items">
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col" className="o-num">
              Quantity
            </th>
            <th scope="col" className="o-num">
              Price
            </th>
            <th scope="col" className="o-num">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          {d.lines.map((l) => (
            <tr key={l.line}>
              <td>
                <span className="o-lines__name">{l.productName}</span>
                <span className="a-muted o-lines__meta">
                  {Object.values(l.attributes).filter(Boolean).join(' / ')}
                  {Object.keys(l.attributes).length ? ' · ' : ''}SKU {l.sku}
                </span>
                <span className="o-lines__state">
                  {l.fulfilled > 0 ? <Badge tone="muted">{l.fulfilled} fulfilled</Badge> : null}
                  {l.refunded > 0 ? <Badge tone="info">{l.refunded} refunded</Badge> : null}
                </span>
              </td>
              <td className="o-num">{l.quantity}</td>
              <td className="o-num">{formatMoney(l.unitPriceCents, o.currency)}</td>
              <td className="o-num">{formatMoney(l.unitPriceCents * l.quantity, o.currency)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {d.fulfilments.length ? (
        <ul className="o-shipments" aria-label="Shipments">
          {d.fulfilments.map((f) => (
            <li key={f.id}>
              <strong>{f.carrier || 'Shipment'}</strong> · {dayOf(f.created)} ·{' '}
              {f.trackingNumber ? (
                f.trackingUrl ? (
                  <a href={f.trackingUrl} target="_blank" rel="noopener noreferrer">
                    Track {f.trackingNumber}
                  </a>
                ) : (
                  <span>Tracking {f.trackingNumber}</span>
                )
              ) : (
                <span className="a-muted">No tracking number</span>
              )}
            </li>
          ))}
        </ul>
      ) : null}
      <div className="o-card-actions">
        {canRefund ? (
          <ActionDialog
            trigger={<button type="button">Refund</button>}
            title={`Refund order #${o.orderNumber}`}
            description="Choose the items to refund, or enter an amount. The money goes back through the payment provider."
          >
            {(close) => <RefundForm detail={d} close={close} onDone={update} />}
          </ActionDialog>
        ) : null}
        {canFulfil ? (
          <ActionDialog
            trigger={
              <button type="button" className="a-button--primary">
                Fulfil items
              </button>
            }
            title={`Fulfil order #${o.orderNumber}`}
            description="Choose what ships now and add the tracking number; the customer gets a shipping email with the tracking link."
          >
            {(close) => <FulfilForm detail={d} close={close} onDone={update} />}
          </ActionDialog>
        ) : null}
      </div>
    </section>
  );
}

/** The totals and how the order was paid. */
function PaymentCard({ detail: d }: { detail: Detail }) {
  const o = d.order;
  return (
    <section className="a-card" aria-labelledby="payment-h">
      <div className="o-card-head">
        <h2 id="payment-h">Payment</h2>
        {paymentBadge(o.paymentStatus)}
      </div>
      <Totals detail={d} />
      {o.payment?.last4 ? (
        <p className="a-muted">
          Paid with {o.payment.brand} ending in {o.payment.last4} ({o.payment.provider} payment {o.payment.paymentId})
        </p>
      ) : null}
      {d.giftCards.length > 0 ? <p>Gift cards issued: {d.giftCards.map((g) => g.code).join(', ')}</p> : null}
    </section>
  );
}

/** The owner's notes and the order's history. */
function TimelineCard({ detail: d, onDone: update }: { detail: Detail; onDone: (d: Detail) => void }) {
  const o = d.order;
  return (
    <section className="a-card" aria-labelledby="timeline-h">
      <h2 id="timeline-h">Timeline</h2>
      <NoteForm orderId={o.id} onDone={update} />
      <ol className="o-timeline">
        {d.timeline.map((e, i) => (
          <li key={i} className={`o-timeline__item o-timeline__item--${e.kind}`}>
            <p className="o-timeline__text">{e.text}</p>
            {e.detail ? <p className="a-muted o-timeline__detail">{e.detail}</p> : null}
            <time dateTime={e.at} className="a-muted">
              {when(e.at)}
            </time>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** Who ordered, and where it goes. */
function CustomerSide({ order: o }: { order: Detail['order'] }) {
  return (
    <aside className="o-side" aria-label="Customer">
      <section className="a-card" aria-labelledby="customer-h">
        <h2 id="customer-h">Customer</h2>
        <p className="o-strong">{o.customerName || 'Guest'}</p>
        <p>
          <a href={`mailto:${o.email}`}>{o.email}</a>
        </p>
      </section>
      <section className="a-card" aria-labelledby="ship-h">
        <h2 id="ship-h">Shipping address</h2>
        {o.shippingAddress ? <AddressLines lines={o.shippingAddressLines} /> : <p className="a-muted">No shipping needed.</p>}
        {o.shippingOption ? <p className="a-muted">{o.shippingOption.name}</p> : null}
      </section>
      <section className="a-card" aria-labelledby="bill-h">
        <h2 id="bill-h">Billing address</h2>
        <p className="a-muted">{o.shippingAddress ? 'Same as the shipping address.' : 'Not collected.'}</p>
      </section>
    </aside>
  );
}

function FilterSelect({
  label,
  value,
  onChange,
  options,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  options: Record<string, string>;
}) {
  return (
    <label>
      {label}
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        {Object.entries(options).map(([k, v]) => (
          <option key={k} value={k}>
            {v}
          </option>
        ))}
      </select>
    </label>
  );
}

export function OrdersScreen({ path }: { path: string }) {
  const detail = /^\/config\/orders\/([0-9a-f]{24})\/?$/.exec(path);
  return detail ? <OrderDetail id={detail[1]!} /> : <OrdersList />;
}

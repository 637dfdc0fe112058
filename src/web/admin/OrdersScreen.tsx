/** /config/orders: the orders list, one order's detail (mark fulfilled, refund), and the minimum order subtotal. */
import { useEffect, useState, type FormEvent } from 'react';
import { api } from '../client/api.js';
import { formatMoney, moneyDecimalString, toMinorUnits } from '../../core/money.js';

interface Money {
  value: string;
  currency: string;
  decimalValue: string;
}

interface AdminOrder {
  id: string;
  orderNumber: number;
  status: string;
  testMode: boolean;
  email: string;
  created: number;
  currency: string;
  items: Array<{ sku: string; productName: string; quantity: number; unitPrice: Money }>;
  subtotal: Money;
  discountTotal: Money;
  shippingTotal: Money;
  taxTotal: Money;
  giftCardTotal: Money;
  grandTotal: Money;
  shippingAddress: Record<string, string> | null;
  shippingOption: { name: string } | null;
  coupons: string[];
  payment: { provider?: string; brand?: string; last4?: string; paymentId?: string } | null;
}

const STATUS: Record<string, string> = { paid: 'Paid', fulfilled: 'Fulfilled', refunded: 'Refunded' };
const fm = (m: Money) => formatMoney(m.value, m.currency);

function MinimumSubtotal() {
  const [text, setText] = useState('');
  const [currency, setCurrency] = useState('USD');
  const [note, setNote] = useState('');
  useEffect(() => {
    api<{ minimumOrderSubtotalCents: number; currency: string }>('GET', '/api/checkout/admin/settings').then((s) => {
      setCurrency(s.currency);
      setText(s.minimumOrderSubtotalCents ? moneyDecimalString(s.minimumOrderSubtotalCents, s.currency) : '');
    }, () => undefined);
  }, []);
  async function save(e: FormEvent) {
    e.preventDefault();
    let cents = 0;
    try {
      cents = text.trim() ? toMinorUnits(text.trim(), currency) : 0;
    } catch {
      setNote('Enter an amount such as 25.00.');
      return;
    }
    try {
      await api('PUT', '/api/checkout/admin/settings', { minimumOrderSubtotalCents: cents });
      setNote(cents ? `Saved: orders must be ${formatMoney(cents, currency)} or more.` : 'Saved: no minimum.');
    } catch (err) {
      setNote((err as Error).message);
    }
  }
  return (
    <form onSubmit={save} className="admin-inline-form" aria-label="Minimum order subtotal">
      <label htmlFor="min-subtotal">Minimum order subtotal ({currency})</label> <input id="min-subtotal" value={text} inputMode="decimal" onChange={(e) => setText(e.target.value)} />{' '}
      <button type="submit">Save minimum</button> {note && <span role="status">{note}</span>}
    </form>
  );
}

function OrderDetail({ id }: { id: string }) {
  const [order, setOrder] = useState<AdminOrder | null>(null);
  const [giftCards, setGiftCards] = useState<Array<{ code: string }>>([]);
  const [error, setError] = useState('');
  const [confirmRefund, setConfirmRefund] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    api<{ order: AdminOrder; giftCards: Array<{ code: string }> }>('GET', `/api/checkout/admin/orders/${encodeURIComponent(id)}`).then(
      (r) => {
        setOrder(r.order);
        setGiftCards(r.giftCards);
      },
      (e: Error) => setError(e.message),
    );
  }, [id]);
  async function act(action: 'fulfil' | 'refund') {
    setBusy(true);
    setError('');
    try {
      const r = await api<{ order: AdminOrder }>('POST', `/api/checkout/admin/orders/${encodeURIComponent(id)}/${action}`);
      setOrder(r.order);
      setConfirmRefund(false);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }
  if (!order) return error ? <p role="alert">{error}</p> : <p>Loading…</p>;
  const a = order.shippingAddress;
  return (
    <>
      <p>
        <a href="/config/orders">← All orders</a>
      </p>
      <h1>Order #{order.orderNumber}</h1>
      <p>
        Status: <strong>{STATUS[order.status] ?? order.status}</strong>
        {order.testMode && ' (test mode)'} · {new Date(order.created).toLocaleString()} · {order.email}
      </p>
      <table className="admin-table" aria-label="Items">
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col">SKU</th>
            <th scope="col">Quantity</th>
            <th scope="col">Price</th>
          </tr>
        </thead>
        <tbody>
          {order.items.map((i, n) => (
            <tr key={n}>
              <td>{i.productName}</td>
              <td>{i.sku}</td>
              <td>{i.quantity}</td>
              <td>{fm(i.unitPrice)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table className="admin-table" aria-label="Totals">
        <tbody>
          <tr><th scope="row">Subtotal</th><td>{fm(order.subtotal)}</td></tr>
          <tr><th scope="row">Discount</th><td>-{fm(order.discountTotal)}{order.coupons.length > 0 && ` (${order.coupons.join(', ')})`}</td></tr>
          <tr><th scope="row">Shipping</th><td>{fm(order.shippingTotal)}{order.shippingOption && ` (${order.shippingOption.name})`}</td></tr>
          <tr><th scope="row">Tax</th><td>{fm(order.taxTotal)}</td></tr>
          <tr><th scope="row">Gift card</th><td>-{fm(order.giftCardTotal)}</td></tr>
          <tr><th scope="row">Total</th><td>{fm(order.grandTotal)}</td></tr>
        </tbody>
      </table>
      {order.payment?.last4 && (
        <p>
          Paid with {order.payment.brand} ending in {order.payment.last4} ({order.payment.provider} payment {order.payment.paymentId})
        </p>
      )}
      {a && (
        <address>
          {a.name}
          <br />
          {a.line1}
          {a.line2 && (
            <>
              <br />
              {a.line2}
            </>
          )}
          <br />
          {a.city} {a.region} {a.postalCode}
          <br />
          {a.country}
        </address>
      )}
      {giftCards.length > 0 && <p>Gift cards issued: {giftCards.map((g) => g.code).join(', ')}</p>}
      {error && <p role="alert">{error}</p>}
      <div className="admin-actions">
        {order.status === 'paid' && (
          <button type="button" disabled={busy} onClick={() => void act('fulfil')}>
            Mark fulfilled
          </button>
        )}{' '}
        {order.status !== 'refunded' &&
          (confirmRefund ? (
            <>
              <span>Refund {fm(order.grandTotal)} and put the items back in stock?</span>{' '}
              <button type="button" disabled={busy} onClick={() => void act('refund')}>
                Confirm refund
              </button>{' '}
              <button type="button" onClick={() => setConfirmRefund(false)}>
                Cancel
              </button>
            </>
          ) : (
            <button type="button" onClick={() => setConfirmRefund(true)}>
              Refund
            </button>
          ))}
      </div>
    </>
  );
}

export function OrdersScreen({ path }: { path: string }) {
  const detail = /^\/config\/orders\/([0-9a-f]{24})\/?$/.exec(path);
  const [orders, setOrders] = useState<AdminOrder[] | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    if (detail) return;
    api<{ orders: AdminOrder[] }>('GET', '/api/checkout/admin/orders').then((r) => setOrders(r.orders), (e: Error) => setError(e.message));
  }, [detail?.[1]]);
  if (detail) return <OrderDetail id={detail[1]!} />;
  return (
    <>
      <h1>Orders</h1>
      <MinimumSubtotal />
      {error && <p role="alert">{error}</p>}
      {!orders ? (
        !error && <p>Loading…</p>
      ) : orders.length === 0 ? (
        <p>No orders yet.</p>
      ) : (
        <table className="admin-table" aria-label="Orders">
          <thead>
            <tr>
              <th scope="col">Order</th>
              <th scope="col">Date</th>
              <th scope="col">Customer</th>
              <th scope="col">Total</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {orders.map((o) => (
              <tr key={o.id}>
                <td>
                  <a href={`/config/orders/${o.id}`}>Order #{o.orderNumber}</a>
                </td>
                <td>{new Date(o.created).toLocaleString()}</td>
                <td>{o.email}</td>
                <td>{fm(o.grandTotal)}</td>
                <td>
                  {STATUS[o.status] ?? o.status}
                  {o.testMode && ' (test)'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

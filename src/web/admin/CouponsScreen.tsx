/** /config/coupons: percentage, fixed-amount and free-shipping codes with a minimum subtotal, expiry and usage limit. */
import { useEffect, useState, type FormEvent } from 'react';
import { api } from '../client/api.js';
import { formatMoney, toMinorUnits } from '../../core/money.js';

interface Coupon {
  id: string;
  code: string;
  kind: 'percent' | 'fixed' | 'free_shipping';
  percentBasisPoints: number;
  amountCents: number;
  minSubtotalCents: number;
  expiresAt: number | null;
  usageLimit: number;
  timesUsed: number;
}

function describe(c: Coupon): string {
  if (c.kind === 'percent') return `${c.percentBasisPoints / 100}% off`;
  if (c.kind === 'fixed') return `${formatMoney(c.amountCents)} off`;
  return 'Free shipping';
}

export function CouponsScreen() {
  const [list, setList] = useState<Coupon[]>([]);
  const [error, setError] = useState('');
  const [form, setForm] = useState({ code: '', kind: 'percent', value: '', min: '', expires: '', limit: '' });
  const load = () => api<{ coupons: Coupon[] }>('GET', '/api/checkout/admin/coupons').then((r) => setList(r.coupons), (e: Error) => setError(e.message));
  useEffect(() => {
    void load();
  }, []);
  const set = (k: keyof typeof form) => (v: string) => setForm((f) => ({ ...f, [k]: v }));
  async function add(e: FormEvent) {
    e.preventDefault();
    setError('');
    try {
      const cents = (s: string) => (s.trim() ? toMinorUnits(s.trim()) : 0);
      await api('POST', '/api/checkout/admin/coupons', {
        code: form.code,
        kind: form.kind,
        percentBasisPoints: form.kind === 'percent' ? Math.round(Number(form.value) * 100) || 0 : 0,
        amountCents: form.kind === 'fixed' ? cents(form.value) : 0,
        minSubtotalCents: cents(form.min),
        expiresAt: form.expires ? new Date(`${form.expires}T23:59:59`).getTime() : null,
        usageLimit: Number(form.limit) || 0,
      });
      setForm({ code: '', kind: 'percent', value: '', min: '', expires: '', limit: '' });
      await load();
    } catch (err) {
      setError(err instanceof RangeError || err instanceof TypeError ? 'Enter amounts such as 5.00.' : (err as Error).message);
    }
  }
  async function remove(id: string) {
    await api('DELETE', `/api/checkout/admin/coupons/${id}`).catch((e: Error) => setError(e.message));
    await load();
  }
  return (
    <>
      <h1>Coupons</h1>
      {list.length > 0 && (
        <table className="admin-table" aria-label="Coupons">
          <thead>
            <tr>
              <th scope="col">Code</th>
              <th scope="col">Discount</th>
              <th scope="col">Minimum subtotal</th>
              <th scope="col">Expires</th>
              <th scope="col">Used</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.map((c) => (
              <tr key={c.id}>
                <td>{c.code}</td>
                <td>{describe(c)}</td>
                <td>{c.minSubtotalCents ? formatMoney(c.minSubtotalCents) : '—'}</td>
                <td>{c.expiresAt ? new Date(c.expiresAt).toLocaleDateString() : 'Never'}</td>
                <td>
                  {c.timesUsed}
                  {c.usageLimit ? ` of ${c.usageLimit}` : ''}
                </td>
                <td>
                  <button type="button" aria-label={`Delete ${c.code}`} onClick={() => void remove(c.id)}>
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>Add a coupon</h2>
      <form onSubmit={add} className="admin-form" aria-label="Add a coupon">
        <label>
          Code <input value={form.code} onChange={(e) => set('code')(e.target.value.toUpperCase())} required />
        </label>
        <label>
          Kind{' '}
          <select value={form.kind} onChange={(e) => set('kind')(e.target.value)}>
            <option value="percent">Percentage off</option>
            <option value="fixed">Fixed amount off</option>
            <option value="free_shipping">Free shipping</option>
          </select>
        </label>
        {form.kind !== 'free_shipping' && (
          <label>
            {form.kind === 'percent' ? 'Percent off' : 'Amount off'} <input value={form.value} inputMode="decimal" onChange={(e) => set('value')(e.target.value)} required />
          </label>
        )}
        <label>
          Minimum subtotal <input value={form.min} inputMode="decimal" onChange={(e) => set('min')(e.target.value)} />
        </label>
        <label>
          Expires on <input type="date" value={form.expires} onChange={(e) => set('expires')(e.target.value)} />
        </label>
        <label>
          Usage limit (blank for none) <input value={form.limit} inputMode="numeric" onChange={(e) => set('limit')(e.target.value)} />
        </label>
        <button type="submit">Add coupon</button>
      </form>
      {error && <p role="alert">{error}</p>}
    </>
  );
}

/** /config/shipping: the shipping options the owner offers (flat rate, free above an amount, by weight). */
import { useEffect, useState, type FormEvent } from 'react';
import { api } from '../client/api.js';
import { formatMoney, toMinorUnits } from '../../core/money.js';

interface Option {
  id: string;
  name: string;
  kind: 'flat' | 'free_above' | 'weight';
  priceCents: number;
  freeAboveCents: number;
  weightRates: Array<{ upToGrams: number; priceCents: number }>;
  countries: string[];
}

const KIND: Record<string, string> = { flat: 'Flat rate', free_above: 'Free above an amount', weight: 'By weight' };

export function describeOption(o: Option, currency = 'USD'): string {
  const f = (c: number) => formatMoney(c, currency);
  if (o.kind === 'flat') return f(o.priceCents);
  if (o.kind === 'free_above') return `${f(o.priceCents)}, free from ${f(o.freeAboveCents)}`;
  return o.weightRates.map((r) => `up to ${r.upToGrams} g: ${f(r.priceCents)}`).join('; ');
}

export function ShippingScreen() {
  const [list, setList] = useState<Option[]>([]);
  const [error, setError] = useState('');
  const [form, setForm] = useState({ name: '', kind: 'flat', price: '', freeAbove: '', rates: '', countries: '' });
  const load = () => api<{ shippingOptions: Option[] }>('GET', '/api/checkout/admin/shipping-options').then((r) => setList(r.shippingOptions), (e: Error) => setError(e.message));
  useEffect(() => {
    void load();
  }, []);
  const set = (k: keyof typeof form) => (v: string) => setForm((f) => ({ ...f, [k]: v }));

  async function add(e: FormEvent) {
    e.preventDefault();
    setError('');
    try {
      const cents = (s: string) => (s.trim() ? toMinorUnits(s.trim()) : 0);
      // Weight rates as lines or commas of 'grams:price', e.g. '1000:4.50, 5000:12'.
      const weightRates = form.rates
        .split(/[\n,]/)
        .map((x) => x.trim())
        .filter(Boolean)
        .map((x) => {
          const [g, p] = x.split(':');
          return { upToGrams: Number(g), priceCents: cents(p ?? '') };
        });
      await api('POST', '/api/checkout/admin/shipping-options', {
        name: form.name,
        kind: form.kind,
        priceCents: cents(form.price),
        freeAboveCents: cents(form.freeAbove),
        weightRates,
        countries: form.countries.split(/[\s,]+/).filter(Boolean),
      });
      setForm({ name: '', kind: 'flat', price: '', freeAbove: '', rates: '', countries: '' });
      await load();
    } catch (err) {
      setError(err instanceof RangeError || err instanceof TypeError ? 'Enter amounts such as 5.99.' : (err as Error).message);
    }
  }
  async function remove(id: string) {
    await api('DELETE', `/api/checkout/admin/shipping-options/${id}`).catch((e: Error) => setError(e.message));
    await load();
  }

  return (
    <>
      <h1>Shipping</h1>
      {list.length === 0 ? (
        <p>No shipping options yet: carts that need shipping cannot check out until you add one.</p>
      ) : (
        <table className="admin-table" aria-label="Shipping options">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Kind</th>
              <th scope="col">Price</th>
              <th scope="col">Countries</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.map((o) => (
              <tr key={o.id}>
                <td>{o.name}</td>
                <td>{KIND[o.kind]}</td>
                <td>{describeOption(o)}</td>
                <td>{o.countries.length ? o.countries.join(', ') : 'Everywhere'}</td>
                <td>
                  <button type="button" aria-label={`Delete ${o.name}`} onClick={() => void remove(o.id)}>
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>Add a shipping option</h2>
      <form onSubmit={add} className="admin-form" aria-label="Add a shipping option">
        <label>
          Name <input value={form.name} onChange={(e) => set('name')(e.target.value)} required />
        </label>
        <label>
          Kind{' '}
          <select value={form.kind} onChange={(e) => set('kind')(e.target.value)}>
            <option value="flat">Flat rate</option>
            <option value="free_above">Free above an amount</option>
            <option value="weight">By weight</option>
          </select>
        </label>
        {form.kind !== 'weight' && (
          <label>
            Price <input value={form.price} inputMode="decimal" onChange={(e) => set('price')(e.target.value)} />
          </label>
        )}
        {form.kind === 'free_above' && (
          <label>
            Free from subtotal <input value={form.freeAbove} inputMode="decimal" onChange={(e) => set('freeAbove')(e.target.value)} />
          </label>
        )}
        {form.kind === 'weight' && (
          <label>
            Weight rates (grams:price, comma separated) <input value={form.rates} placeholder="1000:4.50, 5000:12.00" onChange={(e) => set('rates')(e.target.value)} />
          </label>
        )}
        <label>
          Countries (codes, blank for everywhere) <input value={form.countries} placeholder="US, CA" onChange={(e) => set('countries')(e.target.value)} />
        </label>
        <button type="submit">Add shipping option</button>
      </form>
      {error && <p role="alert">{error}</p>}
    </>
  );
}

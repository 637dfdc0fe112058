/** /config/tax: tax rules by country and region. */
import { useEffect, useState, type FormEvent } from 'react';
import { api } from '../client/api.js';

interface Rule {
  id: string;
  name: string;
  country: string;
  region: string;
  rateBasisPoints: number;
  appliesToShipping: boolean;
}

/** '8.25' (percent) -> 825 basis points; null when it is not a percentage with up to 2 decimals. */
function basisPoints(text: string): number | null {
  const m = /^\s*(\d{1,3})(?:\.(\d{1,2}))?\s*%?\s*$/.exec(text);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0') || 0);
}

export function TaxScreen() {
  const [list, setList] = useState<Rule[]>([]);
  const [error, setError] = useState('');
  const [form, setForm] = useState({ name: '', country: '', region: '', rate: '', shipping: false });
  const load = () => api<{ taxRules: Rule[] }>('GET', '/api/checkout/admin/tax-rules').then((r) => setList(r.taxRules), (e: Error) => setError(e.message));
  useEffect(() => {
    void load();
  }, []);
  async function add(e: FormEvent) {
    e.preventDefault();
    setError('');
    const bp = basisPoints(form.rate);
    if (bp === null) {
      setError('Enter the rate as a percentage, such as 8.25.');
      return;
    }
    try {
      await api('POST', '/api/checkout/admin/tax-rules', { name: form.name, country: form.country, region: form.region, rateBasisPoints: bp, appliesToShipping: form.shipping });
      setForm({ name: '', country: '', region: '', rate: '', shipping: false });
      await load();
    } catch (err) {
      setError((err as Error).message);
    }
  }
  async function remove(id: string) {
    await api('DELETE', `/api/checkout/admin/tax-rules/${id}`).catch((e: Error) => setError(e.message));
    await load();
  }
  return (
    <>
      <h1>Tax</h1>
      <p>Rules apply by the shipping address: every rule for the country without a region, plus the region's own. Orders that need no shipping carry no tax.</p>
      {list.length > 0 && (
        <table className="admin-table" aria-label="Tax rules">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Country</th>
              <th scope="col">Region</th>
              <th scope="col">Rate</th>
              <th scope="col">Shipping taxed</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.map((r) => (
              <tr key={r.id}>
                <td>{r.name}</td>
                <td>{r.country}</td>
                <td>{r.region || 'All'}</td>
                <td>{(r.rateBasisPoints / 100).toFixed(2)}%</td>
                <td>{r.appliesToShipping ? 'Yes' : 'No'}</td>
                <td>
                  <button type="button" aria-label={`Delete ${r.name}`} onClick={() => void remove(r.id)}>
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>Add a tax rule</h2>
      <form onSubmit={add} className="admin-form" aria-label="Add a tax rule">
        <label>
          Name <input value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} required />
        </label>
        <label>
          Country code <input value={form.country} maxLength={2} onChange={(e) => setForm({ ...form, country: e.target.value.toUpperCase() })} required />
        </label>
        <label>
          Region code (blank for the whole country) <input value={form.region} onChange={(e) => setForm({ ...form, region: e.target.value.toUpperCase() })} />
        </label>
        <label>
          Rate (%) <input value={form.rate} inputMode="decimal" onChange={(e) => setForm({ ...form, rate: e.target.value })} required />
        </label>
        <label>
          <input type="checkbox" checked={form.shipping} onChange={(e) => setForm({ ...form, shipping: e.target.checked })} /> Tax shipping too
        </label>
        <button type="submit">Add tax rule</button>
      </form>
      {error && <p role="alert">{error}</p>}
    </>
  );
}

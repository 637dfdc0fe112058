/** Local pickup locations and local delivery areas: a small form each, the countries picked from the list. */
import { useState, type FormEvent } from 'react';
import { ApiError, api } from '../../../client/api.js';
import { useCountries } from '../../ui/CountryPicker.js';
import { TextBox, readAmount } from './parts.js';
import { AMOUNT } from './convert.js';

const BASE = '/api/checkout/admin/shipping';

function CountrySelect({ label, value, onChange }: { label: string; value: string; onChange: (v: string) => void }) {
  const list = useCountries().data?.countries ?? [];
  return (
    <div className="a-ship-field">
      <label>
        {label}
        <select value={value} onChange={(e) => onChange(e.target.value)}>
          <option value="">Choose a country</option>
          {list.map(([code, name]) => (
            <option key={code} value={code}>
              {name}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}

/** Sends a body; answers the server's field messages (empty when saved). */
async function send(url: string, body: unknown): Promise<{ errors: Record<string, string>; message: string }> {
  try {
    await api('POST', url, body);
    return { errors: {}, message: '' };
  } catch (err) {
    const errors = err instanceof ApiError ? ((err.data.errors as Record<string, string> | undefined) ?? {}) : {};
    return { errors, message: Object.values(errors)[0] ?? (err instanceof Error ? err.message : String(err)) };
  }
}

export function PickupForm({ onSaved }: { onSaved: () => Promise<void> | void }) {
  const empty = { name: '', line1: '', city: '', region: '', postalCode: '', country: '', instructions: '' };
  const [v, setV] = useState(empty);
  const [res, setRes] = useState({ errors: {} as Record<string, string>, message: '' });
  const set = (k: keyof typeof empty) => (x: string) => setV({ ...v, [k]: x });
  async function save(e: FormEvent) {
    e.preventDefault();
    const { name, instructions, ...address } = v;
    const r = await send(`${BASE}/pickups`, { name, instructions, address });
    setRes(r);
    if (!r.message) {
      setV(empty);
      await onSaved();
    }
  }
  const err = (k: string) => res.errors[`address.${k}`];
  return (
    <form aria-label="Add a pickup location" className="a-ship-zone-form" onSubmit={(e) => void save(e)} noValidate>
      <TextBox label="Pickup location name" value={v.name} onChange={set('name')} error={res.errors.name} />
      <TextBox label="Street address" value={v.line1} onChange={set('line1')} error={err('line1')} />
      <TextBox label="City or suburb" value={v.city} onChange={set('city')} error={err('city')} />
      <TextBox label="State or region" value={v.region} onChange={set('region')} error={err('region')} />
      <TextBox label="Postcode" value={v.postalCode} onChange={set('postalCode')} error={err('postalCode')} />
      <CountrySelect label="Pickup country" value={v.country} onChange={set('country')} />
      <TextBox label="Pickup instructions" value={v.instructions} onChange={set('instructions')} multiline />
      {res.message ? (
        <p role="alert" className="a-field__error">
          {res.message}
        </p>
      ) : null}
      <button type="submit" className="a-button a-button--primary">
        Add pickup location
      </button>
    </form>
  );
}

export function DeliveryForm({ currency, onSaved }: { currency: string; onSaved: () => Promise<void> | void }) {
  const empty = { name: '', country: '', postcodes: '', fee: '', minOrder: '', estimate: '' };
  const [v, setV] = useState(empty);
  const [res, setRes] = useState({ errors: {} as Record<string, string>, message: '' });
  const set = (k: keyof typeof empty) => (x: string) => setV({ ...v, [k]: x });
  async function save(e: FormEvent) {
    e.preventDefault();
    const fee = readAmount(v.fee, currency);
    const min = readAmount(v.minOrder, currency);
    if (Number.isNaN(fee) || Number.isNaN(min)) return setRes({ errors: {}, message: AMOUNT });
    const r = await send(`${BASE}/deliveries`, {
      name: v.name,
      country: v.country,
      postcodes: v.postcodes.split(/[\s,]+/).filter(Boolean),
      feeCents: fee ?? 0,
      minOrderCents: min ?? 0,
      estimate: v.estimate,
    });
    setRes(r);
    if (!r.message) {
      setV(empty);
      await onSaved();
    }
  }
  return (
    <form aria-label="Add a local delivery area" className="a-ship-zone-form" onSubmit={(e) => void save(e)} noValidate>
      <TextBox label="Delivery area name" value={v.name} onChange={set('name')} error={res.errors.name} />
      <CountrySelect label="Delivery country" value={v.country} onChange={set('country')} />
      <TextBox
        label="Postcodes or prefixes (comma separated)"
        value={v.postcodes}
        onChange={set('postcodes')}
        error={res.errors.postcodes}
        placeholder="3000, 3121, 30"
      />
      <TextBox label="Delivery fee" value={v.fee} onChange={set('fee')} inputMode="decimal" error={res.errors.feeCents} />
      <TextBox label="Minimum order value" value={v.minOrder} onChange={set('minOrder')} inputMode="decimal" />
      <TextBox label="Delivery estimate" value={v.estimate} onChange={set('estimate')} placeholder="Same day" />
      {res.message ? (
        <p role="alert" className="a-field__error">
          {res.message}
        </p>
      ) : null}
      <button type="submit" className="a-button a-button--primary">
        Add delivery area
      </button>
    </form>
  );
}

/**
 * /config/shipping: zones (named sets of countries and regions, each with its rates: flat, weight bands, order
 * value bands, free above a threshold), local pickup locations and local delivery areas.
 */
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { formatMoney } from '../../../core/money.js';
import type { ShippingSetupAnswer } from '../../../core/api/shipping.js';
import type { ShippingRate } from '../../../core/shipping.js';
import { api } from '../../client/api.js';
import { PageHeader } from '../ui/design.js';
import { ZoneForm, EMPTY_ZONE } from './shipping/ZoneForm.js';
import { zoneDraftOf } from './shipping/convert.js';
import { DeliveryForm, PickupForm } from './shipping/LocalForms.js';

const URL = '/api/checkout/admin/shipping';

/** A rate in a line: "Standard — up to 500 g A$9.95; up to 3000 g A$14.95 (2–5 business days)". */
export function describeRate(r: ShippingRate, currency: string): string {
  const f = (c: number) => formatMoney(c, currency);
  const edge = (v: number) => (r.kind === 'weight' ? `${v} g` : f(v));
  let price = f(r.priceCents);
  if (r.kind === 'free_above') price = `${f(r.priceCents)}, free from ${f(r.freeAboveCents ?? 0)}`;
  if (r.kind === 'weight' || r.kind === 'value')
    price = (r.bands ?? [])
      .map((b) => (b.to === null ? `over ${edge(b.from)}: ${f(b.priceCents)}` : `up to ${edge(b.to)}: ${f(b.priceCents)}`))
      .join('; ');
  return `${r.name} — ${price}${r.estimate ? ` (${r.estimate})` : ''}`;
}

export function ShippingScreen() {
  const qc = useQueryClient();
  const q = useQuery({ queryKey: ['shipping-setup'], queryFn: () => api<ShippingSetupAnswer>('GET', URL) });
  const [editing, setEditing] = useState<string | null>(null);
  const currency = q.data?.currency ?? 'USD';
  const reload = async () => {
    await qc.invalidateQueries({ queryKey: ['shipping-setup'] });
    await qc.invalidateQueries({ queryKey: ['dashboard'] });
  };
  const remove = async (what: 'zones' | 'pickups' | 'deliveries', id: string) => {
    await api('DELETE', `${URL}/${what}/${id}`);
    await reload();
  };
  const data = q.data;
  return (
    <>
      <PageHeader
        title="Shipping"
        description="Zones of countries and regions with their rates, local pickup and local delivery: what customers choose from at checkout."
      />
      {q.isError ? <p role="alert">The shipping set-up could not be loaded.</p> : null}
      <section aria-labelledby="ship-zones" className="a-ship">
        <h2 id="ship-zones">Shipping zones</h2>
        {data && data.zones.length === 0 ? <p>No zones yet: carts that need shipping cannot check out until you add one.</p> : null}
        {data?.zones.map((z) => (
          <article key={z.id} className="a-ship-zone" aria-label={`Zone ${z.name}`}>
            <h3>{z.name}</h3>
            <p className="a-muted">
              {z.restOfWorld ? 'Rest of the world' : [...z.countries, ...z.regions.map((r) => `${r.region} (${r.country})`)].join(', ')}
            </p>
            <ul>
              {z.rates.map((r) => (
                <li key={r.id}>{describeRate(r, currency)}</li>
              ))}
            </ul>
            {editing === z.id ? (
              <ZoneForm
                id={z.id}
                initial={zoneDraftOf(z, currency)}
                currency={currency}
                label={`Edit ${z.name}`}
                submit="Save zone"
                onCancel={() => setEditing(null)}
                onSaved={async () => {
                  await reload();
                  setEditing(null);
                }}
              />
            ) : (
              <div className="a-ship-actions">
                <button type="button" onClick={() => setEditing(z.id)}>
                  Edit {z.name}
                </button>
                <button type="button" onClick={() => void remove('zones', z.id)}>
                  Delete {z.name}
                </button>
              </div>
            )}
          </article>
        ))}
        <h2>Add a zone</h2>
        <ZoneForm id={null} initial={EMPTY_ZONE} currency={currency} label="Add a zone" submit="Add zone" onSaved={reload} />
      </section>
      <section aria-labelledby="ship-pickup" className="a-ship">
        <h2 id="ship-pickup">Local pickup</h2>
        <ul>
          {data?.pickups.map((p) => (
            <li key={p.id}>
              {p.name}:{' '}
              {[p.address.line1, p.address.city, p.address.region, p.address.postalCode, p.address.country].filter(Boolean).join(', ')}{' '}
              <button type="button" onClick={() => void remove('pickups', p.id)}>
                Delete {p.name}
              </button>
            </li>
          ))}
        </ul>
        <PickupForm onSaved={reload} />
      </section>
      <section aria-labelledby="ship-delivery" className="a-ship">
        <h2 id="ship-delivery">Local delivery</h2>
        <ul>
          {data?.deliveries.map((d) => (
            <li key={d.id}>
              {d.name}: {d.postcodes.join(', ')} — {formatMoney(d.feeCents, currency)}, minimum order{' '}
              {formatMoney(d.minOrderCents, currency)}{' '}
              <button type="button" onClick={() => void remove('deliveries', d.id)}>
                Delete {d.name}
              </button>
            </li>
          ))}
        </ul>
        <DeliveryForm currency={currency} onSaved={reload} />
      </section>
    </>
  );
}

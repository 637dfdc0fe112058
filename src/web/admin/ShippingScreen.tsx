/** /config/shipping: the shipping options the owner offers (flat rate, free above an amount, by weight); add, edit, delete. */
import { api } from '../client/api.js';
import { formatMoney, moneyDecimalString } from '../../core/money.js';
import { Field, RecordForm, amountReader, useRecordForm, useRecordList, useRowEditing, useStoreCurrency, type AmountFormProps, type Checked } from './ui.js';
import { EmptyState, PageHeader, Skeleton } from './design.js';

interface Option {
  id: string;
  name: string;
  kind: 'flat' | 'free_above' | 'weight';
  priceCents: number;
  freeAboveCents: number;
  weightRates: Array<{ upToGrams: number; priceCents: number }>;
  countries: string[];
  enabled?: boolean;
  ordering?: number;
}

const KIND: Record<string, string> = { flat: 'Flat rate', free_above: 'Free above an amount', weight: 'By weight' };

export function describeOption(o: Option, currency = 'USD'): string {
  const f = (c: number) => formatMoney(c, currency);
  if (o.kind === 'flat') return f(o.priceCents);
  if (o.kind === 'free_above') return `${f(o.priceCents)}, free from ${f(o.freeAboveCents)}`;
  return o.weightRates.map((r) => `up to ${r.upToGrams} g: ${f(r.priceCents)}`).join('; ');
}

interface Values {
  name: string;
  kind: string;
  price: string;
  freeAbove: string;
  rates: string;
  countries: string;
}
const EMPTY: Values = { name: '', kind: 'flat', price: '', freeAbove: '', rates: '', countries: '' };
const AMOUNT = 'Enter amounts such as 5.99.';

/** The form's text for a stored option (amounts as 5.99, weight rates as '1000:4.50, 5000:12.00'). */
function valuesOf(o: Option, currency: string): Values {
  const d = (c: number) => moneyDecimalString(c, currency);
  return {
    name: o.name,
    kind: o.kind,
    price: o.kind === 'weight' ? '' : d(o.priceCents),
    freeAbove: o.kind === 'free_above' ? d(o.freeAboveCents) : '',
    rates: o.kind === 'weight' ? o.weightRates.map((r) => `${r.upToGrams}:${d(r.priceCents)}`).join(', ') : '',
    countries: o.countries.join(', '),
  };
}

/** The request body, or the fields whose amounts cannot be read (under the server's names for them). */
function bodyOf(v: Values, currency: string): Checked {
  const { cents, result } = amountReader(AMOUNT, currency);
  // Weight rates as lines or commas of 'grams:price', e.g. '1000:4.50, 5000:12'.
  const weightRates =
    v.kind === 'weight'
      ? v.rates
          .split(/[\n,]/)
          .map((x) => x.trim())
          .filter(Boolean)
          .map((x) => {
            const [g, p] = x.split(':');
            return { upToGrams: Number(g), priceCents: cents(p ?? '', 'weightRates') };
          })
      : [];
  const body = {
    name: v.name,
    kind: v.kind,
    priceCents: v.kind === 'weight' ? 0 : cents(v.price, 'priceCents'),
    freeAboveCents: v.kind === 'free_above' ? cents(v.freeAbove, 'freeAboveCents') : 0,
    weightRates,
    countries: v.countries.split(/[\s,]+/).filter(Boolean),
  };
  return result(body);
}

/** The add form and each row's edit form: the same fields, the server's messages beside them. */
function OptionForm({ label, submit, initial, currency, onSave, onCancel }: AmountFormProps<Values>) {
  const state = useRecordForm({ initial, empty: EMPTY, check: (v: Values) => bodyOf(v, currency), onSave, onCancel });
  const { v, set, err } = state;
  const shown = ['name', 'kind', 'countries', ...(v.kind !== 'weight' ? ['priceCents'] : []), ...(v.kind === 'free_above' ? ['freeAboveCents'] : []), ...(v.kind === 'weight' ? ['weightRates'] : [])];

  return (
    <RecordForm label={label} submit={submit} state={state} shown={shown}>
      <Field label="Name" error={err('name')}>
        {(a) => <input {...a} value={v.name} onChange={(e) => set('name')(e.target.value)} required autoFocus={!!onCancel} />}
      </Field>
      <Field label="Kind" error={err('kind')}>
        {(a) => (
          <select {...a} value={v.kind} onChange={(e) => set('kind')(e.target.value)}>
            <option value="flat">Flat rate</option>
            <option value="free_above">Free above an amount</option>
            <option value="weight">By weight</option>
          </select>
        )}
      </Field>
      {v.kind !== 'weight' && (
        <Field label="Price" error={err('priceCents')}>
          {(a) => <input {...a} value={v.price} inputMode="decimal" onChange={(e) => set('price')(e.target.value)} />}
        </Field>
      )}
      {v.kind === 'free_above' && (
        <Field label="Free from subtotal" error={err('freeAboveCents')}>
          {(a) => <input {...a} value={v.freeAbove} inputMode="decimal" onChange={(e) => set('freeAbove')(e.target.value)} />}
        </Field>
      )}
      {v.kind === 'weight' && (
        <Field label="Weight rates (grams:price, comma separated)" error={err('weightRates')}>
          {(a) => <input {...a} value={v.rates} placeholder="1000:4.50, 5000:12.00" onChange={(e) => set('rates')(e.target.value)} />}
        </Field>
      )}
      <Field label="Countries (codes, blank for everywhere)" error={err('countries')}>
        {(a) => <input {...a} value={v.countries} placeholder="US, CA" onChange={(e) => set('countries')(e.target.value)} />}
      </Field>
    </RecordForm>
  );
}

export function ShippingScreen() {
  const { list, loading, error, load, remove } = useRecordList<Option>('/api/checkout/admin/shipping-options', 'shippingOptions');
  const { close, rowButtons, editRow } = useRowEditing();
  const currency = useStoreCurrency();
  return (
    <>
      <PageHeader title="Shipping" description="The options customers choose from at checkout: flat rate, by weight, or free over an amount." />
      {loading ? (
        <Skeleton lines={3} label="Loading shipping options" />
      ) : list.length === 0 ? (
        <EmptyState title="No shipping options yet">Carts that need shipping cannot check out until you add one below.</EmptyState>
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
            {list.flatMap((o) => [
              <tr key={o.id}>
                <td>{o.name}</td>
                <td>{KIND[o.kind]}</td>
                <td>{describeOption(o, currency)}</td>
                <td>{o.countries.length ? o.countries.join(', ') : 'Everywhere'}</td>
                <td>
                  {rowButtons(o.id, o.name, remove)}
                </td>
              </tr>,
              editRow(o.id, 5, () => (
                <OptionForm
                  currency={currency}
                  label={`Edit ${o.name}`}
                  submit="Save"
                  initial={valuesOf(o, currency)}
                  onCancel={() => close(o.id)}
                  onSave={async (body) => {
                    // Fields this screen does not show keep their stored values.
                    await api('PUT', `/api/checkout/admin/shipping-options/${o.id}`, { ...body, enabled: o.enabled ?? true, ordering: o.ordering ?? 0 });
                    await load();
                    close(o.id);
                  }}
                />
              )),
            ])}
          </tbody>
        </table>
      )}
      <h2>Add a shipping option</h2>
      <OptionForm
                  currency={currency}
        label="Add a shipping option"
        submit="Add shipping option"
        initial={EMPTY}
        onSave={async (body) => {
          await api('POST', '/api/checkout/admin/shipping-options', body);
          await load();
        }}
      />
      {error && <p role="alert">{error}</p>}
    </>
  );
}

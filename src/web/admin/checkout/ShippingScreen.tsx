/** /config/shipping: the shipping options the owner offers (flat rate, free above an amount, by weight); add, edit, delete. */
import { formatMoney, moneyDecimalString } from '../../../core/money.js';
import { shippingOptionSchema, type ShippingOptionBody } from '../../../core/store-rules.js';
import { RecordForm, RecordTable, amountReader, useRecordForm, useStoreCurrency, type RecordFormProps } from '../ui/records.js';
import { checkoutUrls, saveRecord, useShippingOptions } from './queries.js';
import { Field, SelectField, type Converted } from '../ui/fields.js';
import { PageHeader } from '../ui/design.js';
import { CountryPicker } from '../ui/CountryPicker.js';

export interface Option {
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

/** The form's fields, under the server's names: amounts as typed (5.99), weight rates as '1000:4.50, 5000:12.00', countries as 'US, CA'. */
interface Values {
  name: string;
  kind: string;
  priceCents: string;
  freeAboveCents: string;
  weightRates: string;
  countries: string;
}
const EMPTY: Values = { name: '', kind: 'flat', priceCents: '', freeAboveCents: '', weightRates: '', countries: '' };
const AMOUNT = 'Enter amounts such as 5.99.';
const RATES = 'Write each rate as grams:price, such as 1000:4.50.';
const KINDS = Object.entries(KIND).map(([value, label]) => ({ value, label }));

/** The form's text for a stored option. */
function valuesOf(o: Option, currency: string): Values {
  const d = (c: number) => moneyDecimalString(c, currency);
  return {
    name: o.name,
    kind: o.kind,
    priceCents: o.kind === 'weight' ? '' : d(o.priceCents),
    freeAboveCents: o.kind === 'free_above' ? d(o.freeAboveCents) : '',
    weightRates: o.kind === 'weight' ? o.weightRates.map((r) => `${r.upToGrams}:${d(r.priceCents)}`).join(', ') : '',
    countries: o.countries.join(', '),
  };
}

/** The fields on screen for a kind of option. */
const shown = (v: Values) => [
  'name',
  'kind',
  'countries',
  ...(v.kind !== 'weight' ? ['priceCents'] : []),
  ...(v.kind === 'free_above' ? ['freeAboveCents'] : []),
  ...(v.kind === 'weight' ? ['weightRates'] : []),
];

/** The request body, with messages for amounts and rates that cannot be read (under the server's names for them). */
function convert(v: Values, currency: string): Converted {
  const { cents, errors } = amountReader(AMOUNT, currency);
  const weightRates =
    v.kind === 'weight'
      ? v.weightRates
          .split(/[\n,]/)
          .map((x) => x.trim())
          .filter(Boolean)
          .map((x) => {
            const [g = '', p = ''] = x.split(':');
            if (!/^\d{1,8}$/.test(g.trim())) errors.weightRates ??= RATES;
            return { upToGrams: Number(g), priceCents: cents(p, 'weightRates') };
          })
      : [];
  const body = {
    name: v.name,
    kind: v.kind,
    priceCents: v.kind === 'weight' ? 0 : cents(v.priceCents, 'priceCents'),
    freeAboveCents: v.kind === 'free_above' ? cents(v.freeAboveCents, 'freeAboveCents') : 0,
    weightRates,
    countries: v.countries.split(/[\s,]+/).filter(Boolean),
  };
  return { body, errors };
}

/** The add form and each row's edit form: the same fields, checked by the server's schema, the server's messages beside them. */
function OptionForm({
  label,
  submit,
  initial,
  currency,
  onSave,
  onCancel,
}: RecordFormProps<Values, ShippingOptionBody> & { currency: string }) {
  const state = useRecordForm({
    initial,
    empty: EMPTY,
    schema: shippingOptionSchema,
    convert: (v: Values) => convert(v, currency),
    shown,
    onSave,
    onCancel,
  });
  const { form } = state;
  const kind = form.watch('kind');
  return (
    <RecordForm label={label} submit={submit} state={state}>
      <Field form={form} name="name" label="Name" autoFocus={!!onCancel} />
      <SelectField form={form} name="kind" label="Kind" options={KINDS} />
      {kind !== 'weight' && <Field form={form} name="priceCents" label="Price" inputMode="decimal" />}
      {kind === 'free_above' && <Field form={form} name="freeAboveCents" label="Free from subtotal" inputMode="decimal" />}
      {kind === 'weight' && (
        <Field form={form} name="weightRates" label="Weight rates (grams:price, comma separated)" placeholder="1000:4.50, 5000:12.00" />
      )}
      <CountryPicker form={form} name="countries" legend="Countries" emptyMeans="Everywhere" />
    </RecordForm>
  );
}

export function ShippingScreen() {
  const records = useShippingOptions();
  const { error, load } = records;
  const currency = useStoreCurrency();
  return (
    <>
      <PageHeader
        title="Shipping"
        description="The options customers choose from at checkout: flat rate, by weight, or free over an amount."
      />
      <RecordTable
        caption="Shipping options"
        columns={['Name', 'Kind', 'Price', 'Countries']}
        loadingLabel="Loading shipping options"
        emptyTitle="No shipping options yet"
        empty="Carts that need shipping cannot check out until you add one below."
        records={records}
        nameOf={(o) => o.name}
        cells={(o) => (
          <>
            <td>{o.name}</td>
            <td>{KIND[o.kind]}</td>
            <td>{describeOption(o, currency)}</td>
            <td>{o.countries.length ? o.countries.join(', ') : 'Everywhere'}</td>
          </>
        )}
        editForm={(o, close) => (
          <OptionForm
            currency={currency}
            label={`Edit ${o.name}`}
            submit="Save"
            initial={valuesOf(o, currency)}
            onCancel={close}
            onSave={async (body) => {
              // Fields this screen does not show keep their stored values.
              await saveRecord(checkoutUrls.shipping, o.id, { ...body, enabled: o.enabled ?? true, ordering: o.ordering ?? 0 });
              await load();
              close();
            }}
          />
        )}
      />
      <h2>Add a shipping option</h2>
      <OptionForm
        currency={currency}
        label="Add a shipping option"
        submit="Add shipping option"
        initial={EMPTY}
        onSave={async (body) => {
          await saveRecord(checkoutUrls.shipping, null, body);
          await load();
        }}
      />
      {error && <p role="alert">{error}</p>}
    </>
  );
}

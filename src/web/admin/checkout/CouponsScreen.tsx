/** /config/coupons: percentage, fixed-amount and free-shipping codes with a minimum subtotal, expiry and usage limit; add, edit, delete. */
import { formatMoney, moneyDecimalString } from '../../../core/money.js';
import { couponSchema, type CouponBody } from '../../../core/store-rules.js';
import { RecordForm, RecordTable, amountReader, useRecordForm, useStoreCurrency, type RecordFormProps } from '../ui/records.js';
import { checkoutUrls, saveRecord, useCoupons } from './queries.js';
import { CheckboxField, Field, SelectField, type Converted } from '../ui/fields.js';
import { PageHeader } from '../ui/design.js';
import { formatDay } from '../ui/dates.js';

export interface Coupon {
  id: string;
  code: string;
  kind: 'percent' | 'fixed' | 'free_shipping';
  percentBasisPoints: number;
  amountCents: number;
  minSubtotalCents: number;
  expiresAt: number | null;
  usageLimit: number;
  timesUsed: number;
  appliesToGiftCards?: boolean;
  enabled?: boolean;
}

function describe(c: Coupon, currency: string): string {
  if (c.kind === 'percent') return `${c.percentBasisPoints / 100}% off`;
  if (c.kind === 'fixed') return `${formatMoney(c.amountCents, currency)} off`;
  return 'Free shipping';
}

/** The form's fields, under the server's names: amounts as typed (5.00), the percentage as typed (10), the expiry as a day. */
interface Values {
  code: string;
  kind: string;
  percentBasisPoints: string;
  amountCents: string;
  minSubtotalCents: string;
  expiresAt: string;
  usageLimit: string;
  /** Whether the discount also applies to gift cards (off by default: gift cards stay at full price). */
  appliesToGiftCards: boolean;
}
const EMPTY: Values = {
  code: '',
  kind: 'percent',
  percentBasisPoints: '',
  amountCents: '',
  minSubtotalCents: '',
  expiresAt: '',
  usageLimit: '',
  appliesToGiftCards: false,
};
const AMOUNT = 'Enter amounts such as 5.00.';
const PERCENT = 'Enter the percentage off, such as 10 or 12.5.';
const LIMIT = 'Enter a whole number, or leave it blank for no limit.';
const KINDS = [
  { value: 'percent', label: 'Percentage off' },
  { value: 'fixed', label: 'Fixed amount off' },
  { value: 'free_shipping', label: 'Free shipping' },
];

/** The local calendar day of a time, as a date input wants it (YYYY-MM-DD). */
function day(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

function valuesOf(c: Coupon, currency: string): Values {
  const moneyDecimal = (cents: number) => moneyDecimalString(cents, currency);
  return {
    code: c.code,
    kind: c.kind,
    percentBasisPoints: c.kind === 'percent' ? String(c.percentBasisPoints / 100) : '',
    amountCents: c.kind === 'fixed' ? moneyDecimal(c.amountCents) : '',
    minSubtotalCents: c.minSubtotalCents ? moneyDecimal(c.minSubtotalCents) : '',
    expiresAt: c.expiresAt ? day(c.expiresAt) : '',
    usageLimit: c.usageLimit ? String(c.usageLimit) : '',
    appliesToGiftCards: !!c.appliesToGiftCards,
  };
}

/** The fields on screen for a kind of coupon. */
const shown = (v: Values) => [
  'code',
  'kind',
  'minSubtotalCents',
  'expiresAt',
  'usageLimit',
  ...(v.kind === 'percent' ? ['percentBasisPoints', 'appliesToGiftCards'] : []),
  ...(v.kind === 'fixed' ? ['amountCents', 'appliesToGiftCards'] : []),
];

/** The request body, with messages for the amounts, percentage and limit that cannot be read (under the server's names). */
function convert(v: Values, currency: string): Converted {
  const { cents, errors } = amountReader(AMOUNT, currency);
  const percent = v.percentBasisPoints.trim().replace(/%$/, '');
  if (v.kind === 'percent' && percent && !/^\d{1,3}(\.\d{1,2})?$/.test(percent)) errors.percentBasisPoints = PERCENT;
  const limit = v.usageLimit.trim();
  if (limit && !/^\d{1,10}$/.test(limit)) errors.usageLimit = LIMIT;
  const body = {
    code: v.code.trim().toUpperCase(),
    kind: v.kind,
    percentBasisPoints: v.kind === 'percent' ? Math.round(Number(percent) * 100) || 0 : 0,
    amountCents: v.kind === 'fixed' ? cents(v.amountCents, 'amountCents') : 0,
    minSubtotalCents: cents(v.minSubtotalCents, 'minSubtotalCents'),
    // The coupon works through the whole of its last day.
    expiresAt: v.expiresAt ? new Date(`${v.expiresAt}T23:59:59`).getTime() : null,
    usageLimit: Number(limit) || 0,
    appliesToGiftCards: v.kind !== 'free_shipping' && v.appliesToGiftCards,
  };
  return { body, errors };
}

/** The add form and each row's edit form: the same fields, checked by the server's schema, the server's messages beside them. */
function CouponForm({ label, submit, initial, currency, onSave, onCancel }: RecordFormProps<Values, CouponBody> & { currency: string }) {
  const state = useRecordForm({
    initial,
    empty: EMPTY,
    schema: couponSchema,
    convert: (v: Values) => convert(v, currency),
    shown,
    onSave,
    onCancel,
  });
  const { form } = state;
  const kind = form.watch('kind');
  return (
    <RecordForm label={label} submit={submit} state={state}>
      <Field form={form} name="code" label="Code" autoFocus={!!onCancel} />
      <SelectField form={form} name="kind" label="Kind" options={KINDS} />
      {kind === 'percent' && <Field form={form} name="percentBasisPoints" label="Percent off" inputMode="decimal" />}
      {kind === 'fixed' && <Field form={form} name="amountCents" label="Amount off" inputMode="decimal" />}
      <Field form={form} name="minSubtotalCents" label="Minimum subtotal" inputMode="decimal" />
      <Field form={form} name="expiresAt" label="Expires on" type="date" />
      <Field form={form} name="usageLimit" label="Usage limit (blank for none)" inputMode="numeric" />
      {kind !== 'free_shipping' && <CheckboxField form={form} name="appliesToGiftCards" label="Also discount gift cards" />}
    </RecordForm>
  );
}

export function CouponsScreen() {
  const records = useCoupons();
  const { error, load } = records;
  const currency = useStoreCurrency();
  return (
    <>
      <PageHeader title="Coupons" description="Codes customers type at checkout for a percentage or an amount off." />
      <RecordTable
        caption="Coupons"
        columns={['Code', 'Discount', 'Minimum subtotal', 'Expires', 'Used']}
        loadingLabel="Loading coupons"
        emptyTitle="No coupons yet"
        empty="Add one below; customers type its code at checkout."
        records={records}
        nameOf={(c) => c.code}
        cells={(c) => (
          <>
            <td>{c.code}</td>
            <td>{describe(c, currency)}</td>
            <td>{c.minSubtotalCents ? formatMoney(c.minSubtotalCents, currency) : '—'}</td>
            <td>{c.expiresAt ? formatDay(c.expiresAt) : 'Never'}</td>
            <td>
              {c.timesUsed}
              {c.usageLimit ? ` of ${c.usageLimit}` : ''}
            </td>
          </>
        )}
        editForm={(c, close) => (
          <CouponForm
            currency={currency}
            label={`Edit ${c.code}`}
            submit="Save"
            initial={valuesOf(c, currency)}
            onCancel={close}
            onSave={async (body) => {
              // Whether the coupon is switched on is not shown here: it keeps its stored value, and so does
              // its exact expiry time while the day stays the same.
              const expiresAt =
                typeof body.expiresAt === 'number' && c.expiresAt && day(body.expiresAt) === day(c.expiresAt)
                  ? c.expiresAt
                  : body.expiresAt;
              await saveRecord(checkoutUrls.coupons, c.id, { ...body, expiresAt, enabled: c.enabled ?? true });
              await load();
              close();
            }}
          />
        )}
      />
      <h2>Add a coupon</h2>
      <CouponForm
        currency={currency}
        label="Add a coupon"
        submit="Add coupon"
        initial={EMPTY}
        onSave={async (body) => {
          await saveRecord(checkoutUrls.coupons, null, body);
          await load();
        }}
      />
      {error && <p role="alert">{error}</p>}
    </>
  );
}

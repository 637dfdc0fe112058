/** /config/coupons: percentage, fixed-amount and free-shipping codes with a minimum subtotal, expiry and usage limit; add, edit, delete. */
import { api } from '../client/api.js';
import { formatMoney, moneyDecimalString } from '../../core/money.js';
import { Field, RecordForm, amountReader, useRecordForm, useRecordList, useRowEditing, useStoreCurrency, type AmountFormProps, type Checked } from './ui.js';
import { EmptyState, PageHeader, Skeleton } from './design.js';

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
  appliesToGiftCards?: boolean;
  enabled?: boolean;
}

function describe(c: Coupon, currency: string): string {
  if (c.kind === 'percent') return `${c.percentBasisPoints / 100}% off`;
  if (c.kind === 'fixed') return `${formatMoney(c.amountCents, currency)} off`;
  return 'Free shipping';
}

interface Values {
  code: string;
  kind: string;
  value: string;
  min: string;
  expires: string;
  limit: string;
  /** 'yes' when the discount also applies to gift cards ('' by default: gift cards stay at full price). */
  giftCards: string;
}
const EMPTY: Values = { code: '', kind: 'percent', value: '', min: '', expires: '', limit: '', giftCards: '' };
const AMOUNT = 'Enter amounts such as 5.00.';

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
    value: c.kind === 'percent' ? String(c.percentBasisPoints / 100) : c.kind === 'fixed' ? moneyDecimal(c.amountCents) : '',
    min: c.minSubtotalCents ? moneyDecimal(c.minSubtotalCents) : '',
    expires: c.expiresAt ? day(c.expiresAt) : '',
    limit: c.usageLimit ? String(c.usageLimit) : '',
    giftCards: c.appliesToGiftCards ? 'yes' : '',
  };
}

/** The request body, or the fields whose amounts cannot be read (under the server's names for them). */
function bodyOf(v: Values, currency: string): Checked {
  const { cents, result } = amountReader(AMOUNT, currency);
  const body = {
    code: v.code,
    kind: v.kind,
    percentBasisPoints: v.kind === 'percent' ? Math.round(Number(v.value) * 100) || 0 : 0,
    amountCents: v.kind === 'fixed' ? cents(v.value, 'amountCents') : 0,
    minSubtotalCents: cents(v.min, 'minSubtotalCents'),
    // The coupon works through the whole of its last day.
    expiresAt: v.expires ? new Date(`${v.expires}T23:59:59`).getTime() : null,
    usageLimit: Number(v.limit) || 0,
    appliesToGiftCards: v.giftCards === 'yes',
  };
  return result(body);
}

/** The add form and each row's edit form: the same fields, the server's messages beside them. */
function CouponForm({ label, submit, initial, currency, onSave, onCancel }: AmountFormProps<Values>) {
  const state = useRecordForm({ initial, empty: EMPTY, check: (v: Values) => bodyOf(v, currency), onSave, onCancel });
  const { v, set, err } = state;
  const valueField = v.kind === 'percent' ? 'percentBasisPoints' : 'amountCents';
  const shown = ['code', 'kind', 'minSubtotalCents', 'expiresAt', 'usageLimit', 'appliesToGiftCards', ...(v.kind !== 'free_shipping' ? [valueField] : [])];

  return (
    <RecordForm label={label} submit={submit} state={state} shown={shown}>
      <Field label="Code" error={err('code')}>
        {(a) => <input {...a} value={v.code} onChange={(e) => set('code')(e.target.value.toUpperCase())} required autoFocus={!!onCancel} />}
      </Field>
      <Field label="Kind" error={err('kind')}>
        {(a) => (
          <select {...a} value={v.kind} onChange={(e) => set('kind')(e.target.value)}>
            <option value="percent">Percentage off</option>
            <option value="fixed">Fixed amount off</option>
            <option value="free_shipping">Free shipping</option>
          </select>
        )}
      </Field>
      {v.kind !== 'free_shipping' && (
        <Field label={v.kind === 'percent' ? 'Percent off' : 'Amount off'} error={err(valueField)}>
          {(a) => <input {...a} value={v.value} inputMode="decimal" onChange={(e) => set('value')(e.target.value)} required />}
        </Field>
      )}
      <Field label="Minimum subtotal" error={err('minSubtotalCents')}>
        {(a) => <input {...a} value={v.min} inputMode="decimal" onChange={(e) => set('min')(e.target.value)} />}
      </Field>
      <Field label="Expires on" error={err('expiresAt')}>
        {(a) => <input {...a} type="date" value={v.expires} onChange={(e) => set('expires')(e.target.value)} />}
      </Field>
      <Field label="Usage limit (blank for none)" error={err('usageLimit')}>
        {(a) => <input {...a} value={v.limit} inputMode="numeric" onChange={(e) => set('limit')(e.target.value)} />}
      </Field>
      {v.kind !== 'free_shipping' && (
        <Field label="Also discount gift cards" error={err('appliesToGiftCards')}>
          {(a) => <input {...a} type="checkbox" checked={v.giftCards === 'yes'} onChange={(e) => set('giftCards')(e.target.checked ? 'yes' : '')} />}
        </Field>
      )}
    </RecordForm>
  );
}

export function CouponsScreen() {
  const { list, loading, error, load, remove } = useRecordList<Coupon>('/api/checkout/admin/coupons', 'coupons');
  const { close, rowButtons, editRow } = useRowEditing();
  const currency = useStoreCurrency();
  return (
    <>
      <PageHeader title="Coupons" description="Codes customers type at checkout for a percentage or an amount off." />
      {loading ? (
        <Skeleton lines={3} label="Loading coupons" />
      ) : list.length === 0 ? (
        <EmptyState title="No coupons yet">Add one below; customers type its code at checkout.</EmptyState>
      ) : (
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
            {list.flatMap((c) => [
              <tr key={c.id}>
                <td>{c.code}</td>
                <td>{describe(c, currency)}</td>
                <td>{c.minSubtotalCents ? formatMoney(c.minSubtotalCents, currency) : '—'}</td>
                <td>{c.expiresAt ? new Date(c.expiresAt).toLocaleDateString() : 'Never'}</td>
                <td>
                  {c.timesUsed}
                  {c.usageLimit ? ` of ${c.usageLimit}` : ''}
                </td>
                <td>
                  {rowButtons(c.id, c.code, remove)}
                </td>
              </tr>,
              editRow(c.id, 6, () => (
                <CouponForm
                  currency={currency}
                  label={`Edit ${c.code}`}
                  submit="Save"
                  initial={valuesOf(c, currency)}
                  onCancel={() => close(c.id)}
                  onSave={async (body) => {
                    // Whether the coupon is switched on is not shown here: it keeps its stored value, and so does
                    // its exact expiry time while the day stays the same.
                    const expiresAt = typeof body.expiresAt === 'number' && c.expiresAt && day(body.expiresAt) === day(c.expiresAt) ? c.expiresAt : body.expiresAt;
                    await api('PUT', `/api/checkout/admin/coupons/${c.id}`, { ...body, expiresAt, enabled: c.enabled ?? true });
                    await load();
                    close(c.id);
                  }}
                />
              )),
            ])}
          </tbody>
        </table>
      )}
      <h2>Add a coupon</h2>
      <CouponForm
                  currency={currency}
        label="Add a coupon"
        submit="Add coupon"
        initial={EMPTY}
        onSave={async (body) => {
          await api('POST', '/api/checkout/admin/coupons', body);
          await load();
        }}
      />
      {error && <p role="alert">{error}</p>}
    </>
  );
}

/**
 * The product editor's per-type card (issue 24): a digital product's file (uploaded to private storage, sent to
 * buyers only through their order's signed download link), a gift card's denominations (each an Amount value and
 * its price), a subscription's plan (billing period WEEK, MONTH or YEAR, every N, number of cycles, 0 for
 * open-ended) with the price text visitors see, and the additional-fields form, picked from the site's forms by name.
 */
import { useEffect, useRef, useState } from 'react';
import { api, readCookie, ApiError, errorWords } from '../../client/api.js';
import { useToast } from '../ui/design.js';
import { useLoad } from '../ui/records.js';
import { suggestSku, type DraftVariant } from './model.js';
import { CatField } from './CatField.js';
import { formatFileSize } from '../../../core/time.js';
import { CRUMB_COOKIE } from '../../../core/cookies.js';

export type BillingUnit = 'WEEK' | 'MONTH' | 'YEAR';
export interface SubscriptionPlan {
  billingPeriod: { value: number; unit: BillingUnit };
  numBillingCycles: number;
}

interface DigitalFileInfo {
  name: string;
  size: number;
  uploadedOn: string;
}

const UNIT_WORDS: Record<BillingUnit, [string, string]> = { WEEK: ['week', 'weeks'], MONTH: ['month', 'months'], YEAR: ['year', 'years'] };

/** "every month", "every 2 weeks"; with the number of payments or "until cancelled". */
export function planText(plan: SubscriptionPlan): string {
  const n = Math.max(1, plan.billingPeriod.value);
  const [one, many] = UNIT_WORDS[plan.billingPeriod.unit];
  const every = n === 1 ? `every ${one}` : `every ${n} ${many}`;
  const cycles =
    plan.numBillingCycles > 0 ? `for ${plan.numBillingCycles} payment${plan.numBillingCycles === 1 ? '' : 's'}` : 'until cancelled';
  return `${every}, ${cycles}`;
}

function DigitalFile({ productId }: { productId: string | null }) {
  const toast = useToast();
  const [file, setFile] = useState<DigitalFileInfo | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const url = productId ? `/api/config/catalog/products/${encodeURIComponent(productId)}/digital-file` : '';
  useEffect(() => {
    if (!url) return;
    api<{ file: DigitalFileInfo | null }>('GET', url).then(
      (r) => setFile(r.file),
      (e: Error) => setError(e.message),
    );
  }, [url]);
  if (!productId) return <p className="a-muted">Save the product first, then upload the file buyers download.</p>;

  const upload = async (f: File) => {
    setBusy(true);
    setError('');
    try {
      const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/octet-stream' };
      const crumb = readCookie(CRUMB_COOKIE);
      if (crumb) headers['x-csrf-token'] = crumb;
      const res = await fetch(`${url}?name=${encodeURIComponent(f.name)}`, {
        method: 'POST',
        headers,
        credentials: 'same-origin',
        body: f,
      });
      const data = (await res.json().catch(() => ({}))) as Record<string, unknown>;
      if (!res.ok) throw new ApiError(res.status, errorWords(data), data);
      setFile(data.file as DigitalFileInfo);
      toast('File uploaded.');
    } catch (x) {
      const msg = x instanceof Error ? x.message : String(x);
      setError(msg);
      toast(msg, { tone: 'error' });
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };
  const remove = async () => {
    try {
      await api('DELETE', url);
      setFile(null);
      toast('File removed.');
    } catch (x) {
      toast(x instanceof Error ? x.message : String(x), { tone: 'error' });
    }
  };

  return (
    <div className="cat-digital">
      {file ? (
        <p className="cat-digital__file" aria-label="Current file">
          <strong>{file.name}</strong> <span className="a-muted">{formatFileSize(file.size)}</span>
        </p>
      ) : (
        <p className="a-muted">No file yet. Buyers get a download link that works for 24 hours after they pay.</p>
      )}
      <CatField
        label={file ? 'Replace file' : 'Upload file'}
        id="cat-digital-file"
        hint="Kept private: only buyers' signed download links can fetch it. Up to 20 MB."
      >
        <input
          ref={input}
          id="cat-digital-file"
          type="file"
          disabled={busy}
          aria-describedby="cat-digital-file-hint"
          onChange={(e) => e.target.files?.[0] && void upload(e.target.files[0])}
        />
      </CatField>
      {busy ? <p role="status">Uploading…</p> : null}
      {error ? <p className="field-error">{error}</p> : null}
      {file ? (
        <button type="button" onClick={() => void remove()}>
          Remove file
        </button>
      ) : null}
    </div>
  );
}

/** A gift card's amounts: each is a variant whose Amount value is its price, written in the store currency. */
function Denominations({
  title,
  variants,
  currency,
  onChange,
}: {
  title: string;
  variants: DraftVariant[];
  currency: string;
  onChange: (v: DraftVariant[]) => void;
}) {
  const [amount, setAmount] = useState('');
  const [error, setError] = useState('');
  const label = (price: string) => {
    const n = Number(price.replace(',', '.'));
    if (!Number.isFinite(n) || n <= 0) return '';
    return new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: Number.isInteger(n) ? 0 : 2 }).format(n);
  };
  const variantFor = (price: string, like?: DraftVariant): DraftVariant => {
    const attributes = { Amount: label(price) };
    return {
      ...(like ?? variants[0]!),
      id: like?.id,
      attributes,
      price,
      salePrice: '',
      onSale: false,
      unlimited: true,
      qtyInStock: '0',
      sku: like && !like.skuAuto ? like.sku : suggestSku(title, attributes),
      skuAuto: like ? like.skuAuto : true,
    };
  };
  const add = () => {
    const l = label(amount);
    if (!l) return setError('Enter an amount above zero, such as 50.');
    if (variants.some((v) => v.attributes.Amount === l)) return setError(`${l} is already a denomination.`);
    setError('');
    const only = variants.length === 1 && !variants[0]!.attributes.Amount;
    onChange(only ? [variantFor(amount, variants[0])] : [...variants, variantFor(amount)]);
    setAmount('');
  };
  const withAmounts = variants.filter((v) => v.attributes.Amount);
  return (
    <div className="cat-denoms">
      <ul className="cat-denoms__list" aria-label="Denominations">
        {withAmounts.map((v, i) => (
          <li key={v.id ?? `${v.attributes.Amount}-${i}`}>
            <CatField label={`Denomination ${i + 1} amount`} id={`cat-denom-${i}`}>
              <input
                id={`cat-denom-${i}`}
                inputMode="decimal"
                value={v.price}
                onChange={(e) => onChange(variants.map((x) => (x === v ? variantFor(e.target.value, v) : x)))}
              />
            </CatField>
            <span className="cat-denoms__label" aria-hidden="true">
              {v.attributes.Amount}
            </span>
            {withAmounts.length > 1 ? (
              <button type="button" aria-label={`Remove ${v.attributes.Amount}`} onClick={() => onChange(variants.filter((x) => x !== v))}>
                Remove
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      <div className="cat-denoms__add">
        <CatField label="New denomination" id="cat-denom-new" hint={`Amount in ${currency}`}>
          <input
            id="cat-denom-new"
            inputMode="decimal"
            value={amount}
            placeholder="50"
            aria-describedby="cat-denom-new-hint"
            onChange={(e) => setAmount(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                add();
              }
            }}
          />
        </CatField>
        <button type="button" onClick={add}>
          Add denomination
        </button>
      </div>
      {error ? <p className="field-error">{error}</p> : null}
    </div>
  );
}

function Plan({
  on,
  plan,
  onChange,
  error,
}: {
  on: boolean;
  plan: SubscriptionPlan;
  onChange: (on: boolean, plan: SubscriptionPlan) => void;
  error?: string;
}) {
  return (
    <fieldset className="cat-plan">
      <legend className="visually-hidden">Subscription</legend>
      <label className="a-check">
        <input type="checkbox" checked={on} onChange={(e) => onChange(e.target.checked, plan)} /> Sell as a subscription
      </label>
      {on ? (
        <>
          <div className="cat-plan__row">
            <CatField label="Bill every" id="cat-plan-value">
              <input
                id="cat-plan-value"
                type="number"
                min={1}
                max={52}
                value={plan.billingPeriod.value}
                onChange={(e) =>
                  onChange(on, {
                    ...plan,
                    billingPeriod: { ...plan.billingPeriod, value: Math.max(1, Math.trunc(Number(e.target.value) || 1)) },
                  })
                }
              />
            </CatField>
            <CatField label="Billing period" id="cat-plan-unit">
              <select
                id="cat-plan-unit"
                value={plan.billingPeriod.unit}
                onChange={(e) => onChange(on, { ...plan, billingPeriod: { ...plan.billingPeriod, unit: e.target.value as BillingUnit } })}
              >
                <option value="WEEK">Week</option>
                <option value="MONTH">Month</option>
                <option value="YEAR">Year</option>
              </select>
            </CatField>
          </div>
          <CatField label="Number of payments" id="cat-plan-cycles" hint="0 keeps it going until the customer cancels.">
            <input
              id="cat-plan-cycles"
              type="number"
              min={0}
              max={1000}
              value={plan.numBillingCycles}
              aria-describedby="cat-plan-cycles-hint"
              onChange={(e) => onChange(on, { ...plan, numBillingCycles: Math.max(0, Math.trunc(Number(e.target.value) || 0)) })}
            />
          </CatField>
          <p className="cat-plan__preview" aria-label="Subscription price text">
            Billed {planText(plan)}.
          </p>
        </>
      ) : null}
      {error ? <p className="field-error">{error}</p> : null}
    </fieldset>
  );
}

function FormPicker({ value, onChange }: { value: string | null; onChange: (id: string | null) => void }) {
  // The forms list through TanStack Query (useLoad, shared with the Forms screen); none when it cannot be read.
  const [d, , error] = useLoad<{ forms: Array<{ id: string; name: string }> }>('/api/config/forms');
  const forms = d?.forms ?? (error ? [] : null);
  const missing = value && forms && !forms.some((f) => f.id === value);
  return (
    <CatField
      label="Additional fields form"
      id="cat-form"
      hint={
        forms && forms.length === 0
          ? 'The site has no forms yet: add one under Forms.'
          : 'Buyers fill it in when they add the product to the cart.'
      }
    >
      <select
        id="cat-form"
        value={value ?? ''}
        disabled={!forms}
        aria-describedby="cat-form-hint"
        onChange={(e) => onChange(e.target.value || null)}
      >
        <option value="">None</option>
        {(forms ?? []).map((f) => (
          <option key={f.id} value={f.id}>
            {f.name}
          </option>
        ))}
        {missing ? <option value={value}>A removed form</option> : null}
      </select>
    </CatField>
  );
}

export const DEFAULT_PLAN: SubscriptionPlan = { billingPeriod: { value: 1, unit: 'MONTH' }, numBillingCycles: 0 };

export function planOf(x: unknown): SubscriptionPlan {
  const p = (x ?? {}) as Partial<SubscriptionPlan>;
  const unit = p.billingPeriod?.unit;
  return {
    billingPeriod: {
      value: Math.max(1, Math.trunc(Number(p.billingPeriod?.value) || 1)),
      unit: unit === 'WEEK' || unit === 'YEAR' ? unit : 'MONTH',
    },
    numBillingCycles: Math.max(0, Math.trunc(Number(p.numBillingCycles) || 0)),
  };
}

export interface TypeDetailsProps {
  productId: string | null;
  productType: number;
  title: string;
  currency: string;
  variants: DraftVariant[];
  onVariants: (v: DraftVariant[]) => void;
  isSubscribable: boolean;
  plan: SubscriptionPlan;
  onPlan: (on: boolean, plan: SubscriptionPlan) => void;
  formId: string | null;
  onForm: (id: string | null) => void;
  errors: Record<string, string>;
}

export function TypeDetails(p: TypeDetailsProps) {
  const heading = p.productType === 2 ? 'Digital file' : p.productType === 4 ? 'Denominations' : 'Subscription and checkout';
  return (
    <section className="a-card" aria-labelledby="cat-type-h">
      <h2 id="cat-type-h">{heading}</h2>
      {p.productType === 2 ? <DigitalFile productId={p.productId} /> : null}
      {p.productType === 4 ? <Denominations title={p.title} variants={p.variants} currency={p.currency} onChange={p.onVariants} /> : null}
      {p.productType === 1 || p.productType === 3 ? (
        <Plan on={p.isSubscribable} plan={p.plan} onChange={p.onPlan} error={p.errors.subscriptionPlan ?? p.errors.isSubscribable} />
      ) : null}
      <FormPicker value={p.formId} onChange={p.onForm} />
    </section>
  );
}

/**
 * One rate of a zone: its name, kind, delivery estimate and price; for weight and order-value rates a table of
 * bands (from, to, price; a blank "to" on the last band means no upper limit); optional conditions.
 */
import { useId } from 'react';
import { TextBox } from './parts.js';

/** A rate as the form holds it: every amount as typed. */
export interface RateDraft {
  id?: string;
  name: string;
  kind: 'flat' | 'weight' | 'value' | 'free_above';
  price: string;
  freeAbove: string;
  estimate: string;
  bands: Array<{ from: string; to: string; price: string }>;
  minOrder: string;
  maxOrder: string;
  minWeight: string;
  maxWeight: string;
  enabled: boolean;
}

export const EMPTY_RATE: RateDraft = {
  name: '',
  kind: 'flat',
  price: '',
  freeAbove: '',
  estimate: '',
  bands: [],
  minOrder: '',
  maxOrder: '',
  minWeight: '',
  maxWeight: '',
  enabled: true,
};

const KINDS: Array<[RateDraft['kind'], string]> = [
  ['flat', 'Flat rate'],
  ['weight', 'By weight bands'],
  ['value', 'By order value bands'],
  ['free_above', 'Free above an order value'],
];

function BandTable({
  rate,
  n,
  onChange,
  errors,
}: {
  rate: RateDraft;
  n: number;
  onChange: (r: RateDraft) => void;
  errors: Record<string, string>;
}) {
  const unit = rate.kind === 'weight' ? 'g' : '';
  const set = (i: number, part: 'from' | 'to' | 'price', v: string) =>
    onChange({ ...rate, bands: rate.bands.map((b, j) => (j === i ? { ...b, [part]: v } : b)) });
  const add = () => {
    const last = rate.bands[rate.bands.length - 1];
    onChange({ ...rate, bands: [...rate.bands, { from: last ? last.to : '0', to: '', price: '' }] });
  };
  const label = rate.kind === 'weight' ? 'Weight bands' : 'Order value bands';
  return (
    <fieldset className="a-ship-bands">
      <legend>
        {label} of rate {n}
      </legend>
      <p className="a-muted">
        Each band starts where the one before ends and covers up to and including its own end
        {rate.kind === 'weight' ? ' (grams)' : ''}. Leave the last band’s “to” blank for no upper limit.
      </p>
      {errors.bands ? <p className="a-field__error">{errors.bands}</p> : null}
      <table className="a-ship-bands__table">
        <thead>
          <tr>
            <th scope="col">From{unit ? ` (${unit})` : ''}</th>
            <th scope="col">To{unit ? ` (${unit})` : ''}</th>
            <th scope="col">Price</th>
            <th scope="col">
              <span className="visually-hidden">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rate.bands.map((b, i) => {
            const err = errors[`bands.${i}.from`] ?? errors[`bands.${i}.to`] ?? errors[`bands.${i}.priceCents`];
            return (
              <tr key={i}>
                <td>
                  <TextBox
                    label={`Band ${i + 1} from`}
                    value={b.from}
                    onChange={(v) => set(i, 'from', v)}
                    inputMode="decimal"
                    error={err}
                  />
                </td>
                <td>
                  <TextBox label={`Band ${i + 1} to`} value={b.to} onChange={(v) => set(i, 'to', v)} inputMode="decimal" />
                </td>
                <td>
                  <TextBox label={`Band ${i + 1} price`} value={b.price} onChange={(v) => set(i, 'price', v)} inputMode="decimal" />
                </td>
                <td>
                  <button type="button" onClick={() => onChange({ ...rate, bands: rate.bands.filter((_, j) => j !== i) })}>
                    Remove band {i + 1}
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <button type="button" onClick={add}>
        Add a band to rate {n}
      </button>
    </fieldset>
  );
}

export function RateEditor({
  rate,
  n,
  onChange,
  onRemove,
  errors,
}: {
  rate: RateDraft;
  n: number;
  onChange: (r: RateDraft) => void;
  onRemove: () => void;
  errors: Record<string, string>;
}) {
  const kindId = useId();
  const set = (part: keyof RateDraft) => (v: string) => onChange({ ...rate, [part]: v });
  const banded = rate.kind === 'weight' || rate.kind === 'value';
  return (
    <fieldset className="a-ship-rate">
      <legend>Rate {n}</legend>
      <TextBox label={`Rate ${n} name`} value={rate.name} onChange={set('name')} error={errors.name} placeholder="Standard" />
      <div className="a-ship-field">
        <label htmlFor={kindId}>Rate {n} kind</label>
        <select
          id={kindId}
          value={rate.kind}
          onChange={(e) => {
            const kind = e.target.value as RateDraft['kind'];
            const bands =
              (kind === 'weight' || kind === 'value') && rate.bands.length === 0 ? [{ from: '0', to: '', price: '' }] : rate.bands;
            onChange({ ...rate, kind, bands });
          }}
        >
          {KINDS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <TextBox
        label={`Rate ${n} delivery estimate`}
        value={rate.estimate}
        onChange={set('estimate')}
        error={errors.estimate}
        placeholder="2–4 business days"
      />
      {!banded && (
        <TextBox
          label={rate.kind === 'free_above' ? `Rate ${n} price below the threshold` : `Rate ${n} price`}
          value={rate.price}
          onChange={set('price')}
          error={errors.priceCents}
          inputMode="decimal"
        />
      )}
      {rate.kind === 'free_above' && (
        <TextBox
          label={`Rate ${n} free from order value`}
          value={rate.freeAbove}
          onChange={set('freeAbove')}
          error={errors.freeAboveCents}
          inputMode="decimal"
        />
      )}
      {banded && <BandTable rate={rate} n={n} onChange={onChange} errors={errors} />}
      <details className="a-ship-conditions">
        <summary>Conditions of rate {n} (optional)</summary>
        <TextBox label={`Rate ${n} minimum order value`} value={rate.minOrder} onChange={set('minOrder')} inputMode="decimal" />
        <TextBox
          label={`Rate ${n} maximum order value`}
          value={rate.maxOrder}
          onChange={set('maxOrder')}
          error={errors['conditions.maxOrderCents']}
          inputMode="decimal"
        />
        <TextBox label={`Rate ${n} minimum weight (g)`} value={rate.minWeight} onChange={set('minWeight')} inputMode="numeric" />
        <TextBox
          label={`Rate ${n} maximum weight (g)`}
          value={rate.maxWeight}
          onChange={set('maxWeight')}
          error={errors['conditions.maxWeightGrams']}
          inputMode="numeric"
        />
      </details>
      <button type="button" onClick={onRemove}>
        Remove rate {n}
      </button>
    </fieldset>
  );
}

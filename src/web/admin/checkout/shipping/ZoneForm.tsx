/** Adding or changing a zone: its name, what it covers (picked from lists) and its rates; saved in one call. */
import { useState, type FormEvent } from 'react';
import { ApiError, api } from '../../../client/api.js';
import { PlacesPicker } from './PlacesPicker.js';
import { EMPTY_RATE, RateEditor } from './RateEditor.js';
import { TextBox, errorsUnder } from './parts.js';
import { zoneBody, type ZoneDraft } from './convert.js';

export const EMPTY_ZONE: ZoneDraft = { name: '', countries: [], regions: [], restOfWorld: false, rates: [{ ...EMPTY_RATE }] };
const URL = '/api/checkout/admin/shipping/zones';

export function ZoneForm({
  id,
  initial,
  currency,
  label,
  submit,
  onSaved,
  onCancel,
}: {
  id: string | null;
  initial: ZoneDraft;
  currency: string;
  label: string;
  submit: string;
  onSaved: () => Promise<void> | void;
  onCancel?: () => void;
}) {
  const [z, setZ] = useState<ZoneDraft>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);

  async function save(e: FormEvent) {
    e.preventDefault();
    const { body, errors: unread } = zoneBody(z, currency);
    if (Object.keys(unread).length > 0) {
      setErrors(unread);
      setMessage(Object.values(unread)[0]!);
      return;
    }
    setBusy(true);
    try {
      await api(id ? 'PUT' : 'POST', id ? `${URL}/${id}` : URL, body);
      setErrors({});
      setMessage('');
      if (!id) setZ(EMPTY_ZONE);
      await onSaved();
    } catch (err) {
      const fields = err instanceof ApiError ? ((err.data.errors as Record<string, string> | undefined) ?? {}) : {};
      setErrors(fields);
      // The message names the first refused field; the field's own message sits beside it.
      setMessage(Object.values(fields)[0] ?? (err instanceof Error ? err.message : String(err)));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="a-ship-zone-form" aria-label={label} onSubmit={(e) => void save(e)} noValidate>
      <TextBox label="Zone name" value={z.name} onChange={(name) => setZ({ ...z, name })} error={errors.name} placeholder="Australia" />
      <label className="a-ship-check">
        <input type="checkbox" checked={z.restOfWorld} onChange={(e) => setZ({ ...z, restOfWorld: e.target.checked })} /> Rest of the world
        (every address no other zone covers)
      </label>
      {errors.restOfWorld ? <p className="a-field__error">{errors.restOfWorld}</p> : null}
      {!z.restOfWorld && (
        <PlacesPicker
          value={{ countries: z.countries, regions: z.regions }}
          onChange={(p) => setZ({ ...z, ...p })}
          error={errors.countries ?? Object.entries(errors).find(([k]) => k.startsWith('regions.') || k.startsWith('countries.'))?.[1]}
        />
      )}
      <h3>Rates</h3>
      {errors.rates ? <p className="a-field__error">{errors.rates}</p> : null}
      {z.rates.map((r, i) => (
        <RateEditor
          key={i}
          n={i + 1}
          rate={r}
          errors={errorsUnder(errors, `rates.${i}.`)}
          onChange={(next) => setZ({ ...z, rates: z.rates.map((x, j) => (j === i ? next : x)) })}
          onRemove={() => setZ({ ...z, rates: z.rates.filter((_, j) => j !== i) })}
        />
      ))}
      <button type="button" onClick={() => setZ({ ...z, rates: [...z.rates, { ...EMPTY_RATE }] })}>
        Add a rate
      </button>
      {message ? (
        <p role="alert" className="a-field__error">
          {message}
        </p>
      ) : null}
      <div className="a-ship-actions">
        <button type="submit" className="a-button a-button--primary" disabled={busy}>
          {submit}
        </button>
        {onCancel ? (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}

/** Small controls of the shipping editor: a labelled text box with its message, and amounts read as typed. */
import { useId } from 'react';
import { moneyDecimalString, toMinorUnits } from '../../../../core/money.js';

/** A labelled input whose accessible name is its visible label; the server's or the form's message under it. */
export function TextBox({
  label,
  value,
  onChange,
  error,
  inputMode,
  placeholder,
  multiline,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  inputMode?: 'numeric' | 'decimal';
  placeholder?: string;
  multiline?: boolean;
}) {
  const id = useId();
  const common = {
    id,
    value,
    placeholder,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
  };
  return (
    <div className="a-ship-field">
      <label htmlFor={id}>{label}</label>
      {multiline ? (
        <textarea {...common} rows={3} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input {...common} inputMode={inputMode} onChange={(e) => onChange(e.target.value)} />
      )}
      {error ? (
        <p id={`${id}-error`} className="a-field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** An amount typed as 5.99 into minor units; NaN when it cannot be read, null when blank. */
export function readAmount(text: string, currency: string): number | null {
  if (!text.trim()) return null;
  try {
    return toMinorUnits(text.trim(), currency);
  } catch {
    return Number.NaN;
  }
}

/** Whole grams typed into a number; NaN when not a whole number, null when blank. */
export function readGrams(text: string): number | null {
  if (!text.trim()) return null;
  return /^\d{1,9}$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
}

export const shownAmount = (cents: number | null | undefined, currency: string) =>
  cents == null ? '' : moneyDecimalString(cents, currency);
export const shownGrams = (g: number | null | undefined) => (g == null ? '' : String(g));

/** The server's field messages under a prefix (rates.0.), with the prefix taken off. */
export function errorsUnder(errors: Record<string, string>, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(errors)) if (k.startsWith(prefix)) out[k.slice(prefix.length)] = v;
  return out;
}

/** Labelled form controls of the editor's side panel; a field's problem is tied to it with aria-describedby. */
import { useId, type ReactNode } from 'react';

interface Base {
  label: string;
  error?: string;
  hint?: string;
}

/** A field's hint and error lines, with the ids its control's aria-describedby names. */
export function Problem({ id, error, hint }: { id: string; error?: string; hint?: string }) {
  return (
    <>
      {hint ? <small id={`${id}-hint`}>{hint}</small> : null}
      {error ? (
        <small id={`${id}-error`} className="ed-error">
          {error}
        </small>
      ) : null}
    </>
  );
}

const describedBy = (id: string, error?: string, hint?: string) =>
  [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;

export function TextField({
  label,
  value,
  onChange,
  error,
  hint,
  type = 'text',
  onBlur,
  required,
}: Base & { value: string; onChange: (v: string) => void; type?: string; onBlur?: () => void; required?: boolean }) {
  const id = useId();
  return (
    <div className="ed-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={type}
        value={value}
        required={required}
        onChange={(e) => onChange(e.target.value)}
        onBlur={onBlur}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
      />
      <Problem id={id} error={error} hint={hint} />
    </div>
  );
}

export function AreaField({
  label,
  value,
  onChange,
  error,
  hint,
  rows = 4,
}: Base & { value: string; onChange: (v: string) => void; rows?: number }) {
  const id = useId();
  return (
    <div className="ed-field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        rows={rows}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
      />
      <Problem id={id} error={error} hint={hint} />
    </div>
  );
}

export function SelectField({
  label,
  value,
  onChange,
  options,
  error,
  hint,
}: Base & { value: string; onChange: (v: string) => void; options: ReadonlyArray<{ value: string; label: string }> }) {
  const id = useId();
  return (
    <div className="ed-field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <Problem id={id} error={error} hint={hint} />
    </div>
  );
}

export function CheckField({ label, checked, onChange }: { label: string; checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <label className="ed-check">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  );
}

export function Fieldset({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset style={{ border: '1px solid #ddd', borderRadius: 6, margin: '0 0 10px', padding: 8 }}>
      <legend>{legend}</legend>
      {children}
    </fieldset>
  );
}

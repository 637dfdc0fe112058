/** A product editor field: its label, the control, then its hint and its error (each tied to the control by id). */
import type { ReactNode } from 'react';

export function CatField({
  label,
  error,
  hint,
  children,
  id,
}: {
  label: string;
  error?: string;
  hint?: ReactNode;
  children: ReactNode;
  id: string;
}) {
  return (
    <div className="cat-field">
      <label htmlFor={id}>{label}</label>
      {children}
      {hint ? (
        <p className="a-muted cat-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

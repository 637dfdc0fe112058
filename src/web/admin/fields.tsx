/**
 * Form fields for React Hook Form in the /config design (issue 23): a labelled input or select with its hint
 * and its error tied to it (aria-describedby, aria-invalid), and `serverErrorsOnFields`, which puts a server's
 * per-field messages (400 `errors`) on the fields they name. Any form's values type.
 */
import { useId, type ReactNode } from 'react';
import type { FieldPath, FieldValues, UseFormReturn } from 'react-hook-form';
import { ApiError } from '../client/api.js';

export function Field<T extends FieldValues>({
  form,
  name,
  label,
  type = 'text',
  hint,
  autoComplete,
  placeholder,
  inputMode,
}: {
  form: UseFormReturn<T>;
  name: FieldPath<T>;
  label: string;
  type?: string;
  hint?: ReactNode;
  autoComplete?: string;
  placeholder?: string;
  inputMode?: 'numeric' | 'email' | 'text';
}) {
  const id = useId();
  const err = form.getFieldState(name, form.formState).error?.message;
  const described = [hint ? `${id}-hint` : '', err ? `${id}-err` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div>
      <label htmlFor={id}>{label}</label>
      <input id={id} type={type} autoComplete={autoComplete} placeholder={placeholder} inputMode={inputMode} aria-invalid={err ? true : undefined} aria-describedby={described} {...form.register(name)} />
      {hint ? (
        <p id={`${id}-hint`} className="a-muted">
          {hint}
        </p>
      ) : null}
      {err ? (
        <p id={`${id}-err`} className="a-field__error">
          {err}
        </p>
      ) : null}
    </div>
  );
}

export function SelectField<T extends FieldValues>({ form, name, label, options, hint }: { form: UseFormReturn<T>; name: FieldPath<T>; label: string; options: Array<{ value: string; label: string }>; hint?: ReactNode }) {
  const id = useId();
  const err = form.getFieldState(name, form.formState).error?.message;
  const described = [hint ? `${id}-hint` : '', err ? `${id}-err` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div>
      <label htmlFor={id}>{label}</label>
      <select id={id} aria-invalid={err ? true : undefined} aria-describedby={described} {...form.register(name)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {hint ? (
        <p id={`${id}-hint`} className="a-muted">
          {hint}
        </p>
      ) : null}
      {err ? (
        <p id={`${id}-err`} className="a-field__error">
          {err}
        </p>
      ) : null}
    </div>
  );
}

/** Puts a 400's per-field messages on their fields (focusing the first); answers whether any landed. */
export function serverErrorsOnFields<T extends FieldValues>(form: UseFormReturn<T>, e: unknown): boolean {
  const fields = e instanceof ApiError && e.data.errors && typeof e.data.errors === 'object' ? (e.data.errors as Record<string, string>) : {};
  let placed = false;
  for (const [k, m] of Object.entries(fields)) {
    form.setError(k as FieldPath<T>, { message: m }, { shouldFocus: !placed });
    placed = true;
  }
  return placed;
}

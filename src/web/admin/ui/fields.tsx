/**
 * Form fields for React Hook Form in the /config design (issue 23): a labelled input, select or checkbox with its
 * hint and its error tied to it (aria-describedby, aria-invalid) by one `FieldMessages`; `serverErrorsOnFields`,
 * which puts a server's per-field messages (400 `errors`) on the fields they name; and `schemaResolver`, which
 * checks a form's values with the zod schema the server checks too, so both say the same thing on the same field.
 * Any form's values type.
 */
import { useId, type ReactNode } from 'react';
import type { FieldErrors, FieldPath, FieldValues, Resolver, UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { ApiError } from '../../client/api.js';

/** The ids a control's aria-describedby names: its hint and its error, when it has them. */
export function describedBy(id: string, hint: ReactNode, error: string | undefined): string | undefined {
  return [hint ? `${id}-hint` : '', error ? `${id}-err` : ''].filter(Boolean).join(' ') || undefined;
}

/** A control's hint and error under it, with the ids `describedBy` gives the control; the error is announced. */
export function FieldMessages({ id, hint, error }: { id: string; hint?: ReactNode; error?: string }) {
  return (
    <>
      {hint ? (
        <p id={`${id}-hint`} className="a-muted">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-err`} className="a-field__error" role="alert">
          {error}
        </p>
      ) : null}
    </>
  );
}

export const errorOf = <T extends FieldValues, C, O>(form: UseFormReturn<T, C, O>, name: FieldPath<T>) =>
  form.getFieldState(name, form.formState).error?.message;

export function Field<T extends FieldValues, C = unknown, O = T>({
  form,
  name,
  label,
  type = 'text',
  hint,
  autoComplete,
  placeholder,
  inputMode,
  autoFocus,
}: {
  form: UseFormReturn<T, C, O>;
  name: FieldPath<T>;
  label: string;
  type?: string;
  hint?: ReactNode;
  autoComplete?: string;
  placeholder?: string;
  inputMode?: 'numeric' | 'decimal' | 'email' | 'text';
  autoFocus?: boolean;
}) {
  const id = useId();
  const err = errorOf(form, name);
  return (
    <div>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={type}
        autoComplete={autoComplete}
        placeholder={placeholder}
        inputMode={inputMode}
        autoFocus={autoFocus}
        aria-invalid={err ? true : undefined}
        aria-describedby={describedBy(id, hint, err)}
        {...form.register(name)}
      />
      <FieldMessages id={id} hint={hint} error={err} />
    </div>
  );
}

export function SelectField<T extends FieldValues, C = unknown, O = T>({
  form,
  name,
  label,
  options,
  hint,
}: {
  form: UseFormReturn<T, C, O>;
  name: FieldPath<T>;
  label: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  hint?: ReactNode;
}) {
  const id = useId();
  const err = errorOf(form, name);
  return (
    <div>
      <label htmlFor={id}>{label}</label>
      <select id={id} aria-invalid={err ? true : undefined} aria-describedby={describedBy(id, hint, err)} {...form.register(name)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldMessages id={id} hint={hint} error={err} />
    </div>
  );
}

/** A checkbox with its label after it (a boolean field). */
export function CheckboxField<T extends FieldValues, C = unknown, O = T>({
  form,
  name,
  label,
  hint,
}: {
  form: UseFormReturn<T, C, O>;
  name: FieldPath<T>;
  label: string;
  hint?: ReactNode;
}) {
  const id = useId();
  const err = errorOf(form, name);
  return (
    <div>
      <label htmlFor={id} className="a-check">
        <input
          id={id}
          type="checkbox"
          aria-invalid={err ? true : undefined}
          aria-describedby={describedBy(id, hint, err)}
          {...form.register(name)}
        />{' '}
        {label}
      </label>
      <FieldMessages id={id} hint={hint} error={err} />
    </div>
  );
}

/**
 * The field on screen a message named `key` belongs to: `key` itself or the longest of `names` it is part of
 * (`weightRates.0.upToGrams` belongs to `weightRates`); undefined when none is.
 */
export function fieldFor(key: string, names: readonly string[]): string | undefined {
  return names.filter((n) => key === n || key.startsWith(`${n}.`)).sort((a, b) => b.length - a.length)[0];
}

/**
 * Puts a 400's per-field messages on their fields (focusing the first) and answers whether every one landed on a
 * field. With `names` (the fields on screen), a message goes to the field it belongs to (`fieldFor`), and the
 * call's message goes on the form's `root` when one of them has no field to sit next to.
 */
export function serverErrorsOnFields<T extends FieldValues, C, O>(
  form: UseFormReturn<T, C, O>,
  e: unknown,
  names?: readonly string[],
): boolean {
  const fields =
    e instanceof ApiError && e.data.errors && typeof e.data.errors === 'object' ? (e.data.errors as Record<string, string>) : {};
  let placed = false;
  let all = Object.keys(fields).length > 0;
  for (const [k, m] of Object.entries(fields)) {
    const name = names ? fieldFor(k, names) : k;
    if (!name) {
      all = false;
      continue;
    }
    form.setError(name as FieldPath<T>, { message: m }, { shouldFocus: !placed });
    placed = true;
  }
  if (names && !all) form.setError('root', { message: e instanceof Error ? e.message : String(e) });
  return placed && all;
}

/** What a form's values turn into before the schema reads them: the request body, and messages for values that could not be read. */
export interface Converted {
  body: Record<string, unknown>;
  errors: Record<string, string>;
}

/**
 * A React Hook Form resolver for a form whose fields are text (amounts as 5.99, lists as 'US, CA'): `convert` turns
 * the values into the request body, then the server's own zod `schema` checks it. Messages land on the field of
 * `shown(values)` they belong to, the rest on the form's root; a valid form hands the schema's output to the submit.
 * `convert` and `shown` are read through getters so a form keeps one resolver while the store's currency loads.
 */
export function schemaResolver<V extends FieldValues, B>(
  schema: z.ZodType<B>,
  convert: () => (v: V) => Converted,
  shown: () => (v: V) => readonly string[],
): Resolver<V, unknown, B> {
  return (values) => {
    const { body, errors } = convert()(values);
    const names = shown()(values);
    const messages: Record<string, string> = {};
    const put = (key: string, message: string) => {
      const name = fieldFor(key, names) ?? 'root';
      messages[name] ??= message;
    };
    for (const [k, m] of Object.entries(errors)) put(k, m);
    const r = schema.safeParse(body);
    if (!r.success) for (const i of r.error.issues) put(i.path.join('.'), i.message);
    if (r.success && Object.keys(messages).length === 0) return { values: r.data, errors: {} };
    const out = Object.fromEntries(Object.entries(messages).map(([k, message]) => [k, { type: 'validate', message }]));
    return { values: {}, errors: out as FieldErrors<V> };
  };
}

/**
 * A product's additional-fields form, drawn simply (text, email, textarea, select; other types as text)
 * and validated with core/forms.ts. Errors show above each field title. While saving the button reads
 * 'Saving…'. The answers are handed back as a map of field id to value.
 */
import { useState, type FormEvent } from 'react';
import { characterCounter, validateForm, type FormField } from '../../core/forms.js';
import { forms as formMessages } from '../../core/messages.js';
import type { AdditionalFieldsFormProps } from './product-props.js';
import { domId } from './product-props.js';

export interface AdditionalFieldsFormViewProps {
  form: AdditionalFieldsFormProps;
  scope: string;
  initial?: Record<string, string>;
  submitLabel: string;
  saving: boolean;
  /** A failure of the save itself (shown above the button). */
  error?: string | null;
  onSubmit: (values: Record<string, string>) => void;
  /**
   * Drawn on the server for a visitor without JavaScript: a real form posting to `action` with the
   * hidden fields, each answer named `field.<id>`, and the server's errors shown next to the fields.
   */
  plainPost?: { action: string; hidden: Record<string, string>; errors?: Record<string, string> };
}

/** Whether a form definition can be drawn. */
export function usableForm(form: unknown): form is AdditionalFieldsFormProps {
  const f = form as AdditionalFieldsFormProps | null | undefined;
  return (
    !!f &&
    Array.isArray(f.fields) &&
    f.fields.length > 0 &&
    f.fields.every((x) => x && typeof x.id === 'string' && typeof x.type === 'string')
  );
}

export function AdditionalFieldsForm({
  form,
  scope,
  initial,
  submitLabel,
  saving,
  error,
  onSubmit,
  plainPost,
}: AdditionalFieldsFormViewProps) {
  const [values, setValues] = useState<Record<string, string>>(() => ({ ...(initial ?? {}) }));
  const [errors, setErrors] = useState<Record<string, string>>(() => ({ ...(plainPost?.errors ?? {}) }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (saving) return;
    const found = validateForm(form.fields, values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    onSubmit(values);
  };

  const field = (f: FormField) => {
    const id = domId(scope, `field-${f.id}`);
    const errId = `${id}-error`;
    const value = values[f.id] ?? '';
    const set = (v: string) => setValues((old) => ({ ...old, [f.id]: v }));
    const common = {
      id,
      name: plainPost ? `field.${f.id}` : f.id,
      'aria-invalid': errors[f.id] ? true : undefined,
      'aria-describedby': errors[f.id] ? errId : undefined,
      'aria-required': f.required ? true : undefined,
    } as const;
    let control;
    if (f.type === 'textarea') {
      const counter = typeof f.maxLength === 'number' ? characterCounter(value, f.maxLength) : null;
      control = (
        <>
          <textarea {...common} value={value} placeholder={f.placeholder} onChange={(e) => set(e.target.value)} />
          {counter && <div className={`form-counter${counter.error ? ' error' : ''}`}>{counter.text}</div>}
        </>
      );
    } else if (f.type === 'select') {
      control = (
        <select {...common} value={value} onChange={(e) => set(e.target.value)}>
          <option value="">{f.placeholder ?? ''}</option>
          {(f.options ?? []).map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      );
    } else {
      control = (
        <input
          {...common}
          type={f.type === 'email' ? 'email' : 'text'}
          value={value}
          placeholder={f.placeholder}
          onChange={(e) => set(e.target.value)}
        />
      );
    }
    return (
      <div key={f.id} className={`form-item field ${f.type}${f.required ? ' required' : ''}${errors[f.id] ? ' error' : ''}`}>
        {errors[f.id] && (
          <div className="field-error" id={errId}>
            {errors[f.id]}
          </div>
        )}
        <label className="title" htmlFor={id}>
          {f.title ?? f.id}
          {f.required && (
            <span className="required" aria-hidden="true">
              {' '}
              *
            </span>
          )}
        </label>
        {f.description && <div className="description">{f.description}</div>}
        {control}
      </div>
    );
  };

  return (
    <form
      className="sqs-additional-fields-form"
      noValidate
      onSubmit={plainPost ? undefined : submit}
      method={plainPost ? 'post' : undefined}
      action={plainPost?.action}
    >
      {plainPost && Object.entries(plainPost.hidden).map(([k, v]) => <input key={k} type="hidden" name={k} value={v} />)}
      {form.fields.filter((f) => f.type !== 'section').map(field)}
      {error && (
        <div className="form-submission-error" role="alert">
          {error}
        </div>
      )}
      <button type="submit" className="sqs-button-element--primary" disabled={saving}>
        {saving ? formMessages.SAVING : submitLabel}
      </button>
    </form>
  );
}

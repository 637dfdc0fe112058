/**
 * One form-builder field with its properties. Inputs carry the names of the plain form post
 * (f.<id>, f.<id>.<part>), so the server-rendered form works without JavaScript. The error is shown
 * above the field title.
 */
import type { ReactNode } from 'react';
import type { FormField } from '../../core/forms.js';
import { characterCounter, LIKERT_LABELS } from '../../core/forms.js';

export type RawValue = string | string[] | Record<string, string>;

const PARTS: Record<string, string[]> = {
  name: ['First Name', 'Last Name'],
  address: ['Address Line 1', 'Address Line 2', 'City', 'State/Province', 'Zip/Postal Code', 'Country'],
  date: ['Month', 'Day', 'Year'],
  time: ['Hour', 'Minute', 'Second'],
};
const PHONE_PARTS = ['Area Code', 'Prefix', 'Line'];

const INPUT_TYPES: Record<string, string> = {
  email: 'email',
  number: 'number',
  website: 'url',
  password: 'password',
  currency: 'text',
  twitter: 'text',
  text: 'text',
};

export function partsOf(field: FormField): string[] {
  if (field.type === 'phone') return field.showCountryCode ? ['Country Code', ...PHONE_PARTS] : PHONE_PARTS;
  if (field.type === 'time') return [...PARTS.time!, 'AM/PM'];
  return PARTS[field.type] ?? [];
}

interface Props {
  field: FormField;
  value: RawValue | undefined;
  error?: string;
  onChange(v: RawValue): void;
  /** The value of a hidden field: the URL query parameter of the same name, else its default. */
  hiddenValue?: string;
}

export function FormFieldView({ field, value, error, onChange, hiddenValue }: Props) {
  const id = `field-${field.id}`;
  const name = `f.${field.id}`;
  const errId = `${id}-error`;
  const descId = `${id}-description`;
  const describedBy = [error ? errId : '', field.description ? descId : ''].filter(Boolean).join(' ') || undefined;
  const title = field.title || field.id;
  const req = field.required ? <span className="form-required"> (required)</span> : null;
  const errorEl = error ? (
    <div className="field-error" id={errId} role="alert">
      {error}
    </div>
  ) : null;
  const desc = field.description ? (
    <p className="description" id={descId}>
      {field.description}
    </p>
  ) : null;
  const cls = `form-item field ${field.type}${error ? ' error' : ''}${field.required ? ' required' : ''}`;
  /** A field of one control: the error, the label and the description above it. */
  const labelled = (control: ReactNode) => (
    <div className={cls}>
      {errorEl}
      <label htmlFor={id} className="title">
        {title}
        {req}
      </label>
      {desc}
      {control}
    </div>
  );
  /** A field of several controls: a fieldset with the error, the title as its legend and the description. */
  const grouped = (controls: ReactNode) => (
    <fieldset className={cls} aria-describedby={describedBy} aria-invalid={error ? true : undefined}>
      {errorEl}
      <legend className="title">
        {title}
        {req}
      </legend>
      {desc}
      {controls}
    </fieldset>
  );

  switch (field.type) {
    case 'section':
      return (
        <div className={`form-item section${field.underline ? ' underline' : ''}`}>
          <h3 className="title">{title}</h3>
          {desc}
          {field.underline ? <hr /> : null}
        </div>
      );
    case 'hidden':
      return <input type="hidden" name={name} value={hiddenValue ?? field.value ?? ''} />;
    case 'textarea': {
      const text = typeof value === 'string' ? value : '';
      const counter = typeof field.maxLength === 'number' ? characterCounter(text, field.maxLength) : null;
      return labelled(
        <>
          <textarea
            id={id}
            name={name}
            placeholder={field.placeholder}
            value={text}
            aria-invalid={error ? true : undefined}
            aria-describedby={[describedBy, counter ? `${id}-counter` : ''].filter(Boolean).join(' ') || undefined}
            onChange={(e) => onChange(e.target.value)}
          />
          {counter ? (
            <div id={`${id}-counter`} className={`form-counter${counter.error ? ' error' : ''}`} aria-live="polite">
              {counter.text}
            </div>
          ) : null}
        </>,
      );
    }
    case 'name':
    case 'address':
    case 'date':
    case 'time':
    case 'phone': {
      const parts = partsOf(field);
      const arr = Array.isArray(value) ? value : [];
      const set = (i: number, v: string) => {
        const next = parts.map((_, j) => (j === i ? v : (arr[j] ?? '')));
        onChange(next);
      };
      return grouped(
        <>
          <div className="field-parts">
            {parts.map((p, i) =>
              p === 'AM/PM' ? (
                <label key={p} className="field-part">
                  <span>{p}</span>
                  <select name={`${name}.${i}`} value={arr[i] ?? ''} onChange={(e) => set(i, e.target.value)}>
                    <option value="">--</option>
                    <option value="AM">AM</option>
                    <option value="PM">PM</option>
                  </select>
                </label>
              ) : (
                <label key={p} className="field-part">
                  <span>{p}</span>
                  <input
                    type={field.type === 'phone' ? 'tel' : 'text'}
                    inputMode={field.type === 'date' || field.type === 'time' ? 'numeric' : undefined}
                    name={`${name}.${i}`}
                    value={arr[i] ?? ''}
                    onChange={(e) => set(i, e.target.value)}
                  />
                </label>
              ),
            )}
          </div>
        </>,
      );
    }
    case 'radio':
    case 'checkbox': {
      const checked = field.type === 'checkbox' ? (Array.isArray(value) ? value : []) : typeof value === 'string' ? [value] : [];
      return grouped(
        <>
          {(field.options ?? []).map((o) => (
            <label key={o} className="option">
              <input
                type={field.type}
                name={name}
                value={o}
                checked={checked.includes(o)}
                onChange={(e) => {
                  if (field.type === 'radio') onChange(o);
                  else onChange(e.target.checked ? [...checked, o] : checked.filter((x) => x !== o));
                }}
              />{' '}
              {o}
            </label>
          ))}
        </>,
      );
    }
    case 'select':
      return labelled(
        <>
          <select
            id={id}
            name={name}
            value={typeof value === 'string' ? value : ''}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            onChange={(e) => onChange(e.target.value)}
          >
            <option value="">Select an option</option>
            {(field.options ?? []).map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
        </>,
      );
    case 'likert': {
      const map = value && typeof value === 'object' && !Array.isArray(value) ? value : {};
      return grouped(
        <>
          {(field.options ?? []).map((q, qi) => (
            <div key={q} className="likert-question" role="radiogroup" aria-label={q}>
              <div className="likert-statement">{q}</div>
              {LIKERT_LABELS.map((label, i) => (
                <label key={label} className="likert-answer">
                  <input
                    type="radio"
                    name={`${name}.${qi}`}
                    value={String(i + 1)}
                    checked={map[q] === String(i + 1)}
                    onChange={() => onChange({ ...map, [q]: String(i + 1) })}
                  />{' '}
                  {label}
                </label>
              ))}
            </div>
          ))}
        </>,
      );
    }
    default:
      return labelled(
        <>
          <div className="field-input">
            {field.type === 'currency' ? <span className="currency-symbol">{field.currencySymbol ?? '$'}</span> : null}
            <input
              id={id}
              name={name}
              type={INPUT_TYPES[field.type] ?? 'text'}
              placeholder={field.placeholder}
              value={typeof value === 'string' ? value : ''}
              aria-invalid={error ? true : undefined}
              aria-describedby={describedBy}
              onChange={(e) => onChange(e.target.value)}
            />
          </div>
        </>,
      );
  }
}

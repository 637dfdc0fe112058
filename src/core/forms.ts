/**
 * Site forms: field definitions, value shapes by field type, client/server validation with the
 * messages of core/messages.ts, submission payloads and status messages.
 */
import { isEmailAddress, MAX_EMAIL_CHECK } from './email';
import { FormFieldType } from './enums';
import { forms as m } from './messages';

export interface FormField {
  id: string;
  type: FormFieldType;
  title?: string;
  description?: string;
  required?: boolean;
  placeholder?: string;
  /** Maximum text length (textarea). */
  maxLength?: number | null;
  /** Choices of radio, checkbox and select fields; statements of a likert field. */
  options?: string[];
  /** Hidden fields: the query-parameter name / key. */
  key?: string;
  /** Hidden fields: the default value. */
  value?: string;
  showCountryCode?: boolean;
  underline?: boolean;
  currencySymbol?: string;
}

/** A field's value as submitted. */
export type FieldValue = string | string[] | Record<string, string | string[]> | undefined;

/** Field types whose value is an array of sub-values. */
export const MULTI_PART_TYPES: readonly FormFieldType[] = Object.freeze(['address', 'name', 'date', 'time'] as const);

/** The parts of the phone field when shown with a country code. */
export const PHONE_PARTS_WITH_COUNTRY = 4;

export interface ShapeContext {
  /** Query parameters of the page URL, for hidden fields. */
  query?: URLSearchParams | Record<string, string | string[] | undefined>;
}

function queryValue(query: ShapeContext['query'], name: string): string | undefined {
  if (!query || !name) return undefined;
  if (typeof URLSearchParams !== 'undefined' && query instanceof URLSearchParams) {
    return query.has(name) ? (query.get(name) as string) : undefined;
  }
  const v = (query as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Shapes the raw input of a field into the submitted value:
 * address, name, date, time: the array of sub-values; phone: the array, with an empty first
 * element prepended when there are 3 parts (no country code); checkbox: the array of checked
 * values; radio: the single checked value ('' when none); select: the selected value; likert: the
 * map of statement to answer; hidden: the URL query parameter of the same name (key, else title),
 * else the default; section: nothing (undefined); other fields: the text.
 */
export function shapeFieldValue(field: FormField, raw: unknown, ctx: ShapeContext = {}): FieldValue {
  switch (field.type) {
    case 'section':
      return undefined;
    case 'hidden': {
      const name = field.key ?? field.title ?? field.id;
      return queryValue(ctx.query, name) ?? field.value ?? '';
    }
    case 'address':
    case 'name':
    case 'date':
    case 'time':
      return toStringArray(raw);
    case 'phone': {
      const parts = toStringArray(raw);
      return parts.length === 3 ? ['', ...parts] : parts;
    }
    case 'checkbox':
      return toStringArray(raw).filter((v) => v !== '');
    case 'radio':
    case 'select':
      return Array.isArray(raw) ? String(raw[0] ?? '') : raw === undefined || raw === null ? '' : String(raw);
    case 'likert': {
      const out: Record<string, string> = {};
      if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
        for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
          if (v !== undefined && v !== null && v !== '') out[k] = String(v);
        }
      }
      return out;
    }
    default:
      return raw === undefined || raw === null ? '' : Array.isArray(raw) ? raw.join('') : String(raw);
  }
}

function toStringArray(raw: unknown): string[] {
  if (Array.isArray(raw)) return raw.map((v) => (v === undefined || v === null ? '' : String(v)));
  if (raw === undefined || raw === null) return [];
  return [String(raw)];
}

// ---- Validation -------------------------------------------------------------------------------

/** The email check of form fields: local@domain.tld without spaces (linear and length-first, core/email.ts). */
export function isValidEmail(text: string): boolean {
  if (text.length > MAX_EMAIL_CHECK * 2) return false;
  return isEmailAddress(text.trim());
}

/** The general emptiness rule: undefined, null, or blank text. Arrays and maps are never empty here. */
function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** Whether a value counts as empty for the required check of its field type. */
export function isEmptyValue(field: FormField, value: unknown): boolean {
  if (isBlank(value)) return true;
  switch (field.type) {
    case 'address':
    case 'name':
    case 'date':
    case 'time':
      return Array.isArray(value) && value.every((p) => isBlank(p));
    case 'checkbox':
      return Array.isArray(value) && value.filter((p) => !isBlank(p)).length === 0;
    case 'radio':
    case 'select':
      return Array.isArray(value) && value.every((p) => isBlank(p));
    default:
      // likert and phone: only the general rule; other text fields: blank text.
      return false;
  }
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  return Array.isArray(value) ? value.join('') : String(value);
}

/**
 * Validates one field; returns the message or null. Sections are never validated.
 * - Required and empty: 'Required' (single, multi-part, radio, select, checkbox; likert and phone
 *   only when the value is missing altogether).
 * - Email: valid if optional and empty, or a valid email; else the email-format message.
 * - Maximum length: valid within the maximum, or optional and empty; else 'You have exceeded the character limit.'
 */
export function validateField(field: FormField, value: unknown): string | null {
  if (field.type === 'section') return null;
  const empty = isEmptyValue(field, value);
  if (field.required && empty) return m.REQUIRED;
  if (field.type === 'email') {
    const t = textOf(value);
    if (!(t.trim() === '' && !field.required) && !isValidEmail(t)) return m.INVALID_EMAIL;
  }
  if (typeof field.maxLength === 'number' && field.maxLength >= 0 && (typeof value === 'string' || value === undefined || value === null)) {
    const t = textOf(value);
    const ok = t.length <= field.maxLength || (!field.required && t === '');
    if (!ok) return m.CHARACTER_LIMIT;
  }
  return null;
}

export interface ValidateFormOptions {
  /** Validation can be disabled per submission. */
  validate?: boolean;
}

/** Validates all fields; returns a map of field id to message (empty when valid). */
export function validateForm(
  fields: readonly FormField[],
  values: Readonly<Record<string, unknown>>,
  options: ValidateFormOptions = {},
): Record<string, string> {
  const errors: Record<string, string> = {};
  if (options.validate === false) return errors;
  for (const f of fields) {
    const msg = validateField(f, values[f.id]);
    if (msg) errors[f.id] = msg;
  }
  return errors;
}

// ---- Textarea counter --------------------------------------------------------------------------

/** The live counter of a textarea with a maximum: 'current / max', in error above the maximum. */
export function characterCounter(text: string, max: number): { text: string; error: boolean } {
  return { text: m.counter(text.length, max), error: text.length > max };
}

// ---- Likert -----------------------------------------------------------------------------------

export const LIKERT_LABELS = m.LIKERT_LABELS;

/** The label of a likert answer 1-5 (1 Strongly Disagree ... 5 Strongly Agree), else undefined. */
export function likertLabel(answer: number | string): string | undefined {
  const n = Number(answer);
  return Number.isInteger(n) && n >= 1 && n <= 5 ? LIKERT_LABELS[n - 1] : undefined;
}

// ---- Summary ----------------------------------------------------------------------------------

/**
 * The localized no-answer texts of form summaries ('N/A' unless a localized
 * no-answer text exists), by language. Languages not listed (English among them) keep 'N/A'.
 */
export const NO_ANSWER_TEXTS: Readonly<Record<string, string>> = Object.freeze({
  da: 'Intet svar',
  de: 'Keine Antwort',
  es: 'Sin respuesta',
  fi: 'Ei vastausta',
  fr: 'Pas de réponse',
  it: 'Nessuna risposta',
  ja: '回答なし',
  nb: 'Ingen svar',
  nl: 'Geen antwoord',
  pl: 'Brak odpowiedzi',
  pt: 'Sem resposta',
  sv: 'Inget svar',
});

/** A language code as the forms keep it ('fr', 'pt-BR'), or null. */
export function formLanguage(code: unknown): string | null {
  return typeof code === 'string' && code.length <= 35 && /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/.test(code) ? code : null;
}

/** The localized no-answer text of a submission's language ('pt-BR' uses 'pt'), or null for 'N/A'. */
export function noAnswerText(language: unknown): string | null {
  const code = formLanguage(language);
  if (!code) return null;
  return NO_ANSWER_TEXTS[code.toLowerCase()] ?? NO_ANSWER_TEXTS[code.toLowerCase().split('-')[0]!] ?? null;
}

/** A form summary answer: the value, or 'N/A' (or the localized no-answer text) when empty. */
export function summaryAnswer(value: unknown, noAnswerText?: string | null): string {
  const fallback = noAnswerText && noAnswerText.trim() !== '' ? noAnswerText : m.NO_ANSWER;
  if (value === undefined || value === null) return fallback;
  if (Array.isArray(value)) {
    const parts = value.map((v) => String(v ?? '').trim()).filter((v) => v !== '');
    return parts.length ? parts.join(', ') : fallback;
  }
  if (typeof value === 'object') {
    const parts = Object.entries(value as Record<string, unknown>).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : String(v)}`);
    return parts.length ? parts.join('; ') : fallback;
  }
  const t = String(value).trim();
  return t === '' ? fallback : t;
}

// ---- Submission -------------------------------------------------------------------------------

/**
 * pagePermissionTypeValue of a submission's page fields: who may see the page
 * the form is on: anyone, visitors with the page's password, or members of a member area.
 */
export const PagePermissionType = Object.freeze({ PUBLIC: 1, PASSWORD: 2, MEMBERS: 3 } as const);

export interface PageFields {
  pageTitle?: string;
  pageId?: string;
  /** 'i' for item, 'c' for collection. */
  contentSource?: 'i' | 'c';
  pagePath?: string;
  pagePermissionTypeValue?: number | string;
  /** The language the visitor saw the form in (multilingual sites): the summaries' no-answer text follows it. */
  language?: string;
}

export interface FormSubmissionPayload extends PageFields {
  key: string;
  /** JSON text mapping each field id to its value. */
  form: string;
  captchaKey?: string;
  visitorCookie?: string;
}

/** Builds the SaveFormSubmission payload; section fields are left out of the form map. */
export function formSubmissionPayload(input: {
  key: string;
  fields: readonly FormField[];
  values: Readonly<Record<string, FieldValue>>;
  captchaKey?: string | null;
  page?: PageFields;
  visitorCookie?: string | null;
}): FormSubmissionPayload {
  const form: Record<string, FieldValue> = {};
  for (const f of input.fields) {
    if (f.type === 'section') continue;
    form[f.id] = input.values[f.id];
  }
  const p: FormSubmissionPayload = { key: input.key, form: JSON.stringify(form), ...(input.page ?? {}) };
  if (input.captchaKey) p.captchaKey = input.captchaKey;
  if (input.visitorCookie) p.visitorCookie = input.visitorCookie;
  return p;
}

/**
 * The message for a failed submission: 401, 404, 429 and 500 have fixed texts; otherwise the
 * server's data.error when it is non-empty text; else 'Unknown error, please try again later.'
 */
export function formStatusMessage(status: number, dataError?: unknown): string {
  switch (status) {
    case 401:
      return m.STATUS_401;
    case 404:
      return m.STATUS_404;
    case 429:
      return m.STATUS_429;
    case 500:
      return m.STATUS_500;
    default:
      return typeof dataError === 'string' && dataError.trim() !== '' ? dataError : m.UNKNOWN_ERROR;
  }
}

/** The problem banners of non-newsletter forms: above and below the form. */
export function formProblemBanners(isNewsletter: boolean): { above: string; below: string } | null {
  return isNewsletter ? null : { above: m.PROBLEM_ABOVE, below: m.PROBLEM_BELOW };
}

// ---- Newsletter forms -------------------------------------------------------------------------

/** The longest mailing-list id a form setting holds. */
export const FORM_LIST_ID_MAX = 64;

/**
 * The mailing list a newsletter form's sign-ups join: the `listId` of its storage settings, or null
 * for the site's default list (also when unset or blank).
 */
export function formListId(storage: unknown): string | null {
  if (!storage || typeof storage !== 'object') return null;
  const v = (storage as Record<string, unknown>).listId;
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
}

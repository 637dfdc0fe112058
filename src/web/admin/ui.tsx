/**
 * Small pieces every /config screen uses: an error's text, a GET that loads a screen's data, a save form,
 * fields with the server's messages beside them, focus returning to a row's button, and a table's add and inline edit forms.
 */
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../client/api.js';
import { toMinorUnits } from '../../core/money.js';
import { ConfirmDialog, useToast } from './design.js';
import { editor as editorMessages } from '../../core/messages.js';

/** The text to show for a failed call. */
export const msg = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * Loads `url` when the screen opens, through TanStack Query (key ['load', url], so screens reading the same call
 * share it): [data, setData, error, reload]. `setData` keeps the screen's own edits on top of the server's copy
 * (never in the shared cache); `reload` drops them and reads the server's copy again.
 */
export function useLoad<T>(url: string): [T | null, (v: T) => void, string, () => void] {
  const qc = useQueryClient();
  const q = useQuery({ queryKey: ['load', url], queryFn: () => api<T>('GET', url), refetchOnWindowFocus: false });
  const [local, setLocal] = useState<{ url: string; data: T } | null>(null);
  const data = local?.url === url ? local.data : (q.data ?? null);
  const reload = () => {
    setLocal(null);
    void qc.invalidateQueries({ queryKey: ['load', url] });
  };
  // A screen whose data never arrived (no answer at all) says 'Unable to load. Try again'; a refusal keeps the server's words.
  const error = q.error ? (q.error instanceof ApiError && q.error.status === 0 ? editorMessages.UNABLE_TO_LOAD_TRY_AGAIN : msg(q.error)) : '';
  return [data, (v: T) => setLocal({ url, data: v }), error, reload];
}

/** A named form whose submit runs `onSubmit` and says 'Saved.' (or what it returns) or the error, in live regions. */
export function SaveForm({ label, onSubmit, children, button = 'Save', status }: { label: string; onSubmit: () => Promise<string | void>; children: ReactNode; button?: string; status?: string }) {
  const [out, setOut] = useState('');
  const [err, setErr] = useState('');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setOut('');
    setErr('');
    try {
      setOut((await onSubmit()) || 'Saved.');
    } catch (x) {
      setErr(msg(x));
    }
  };
  return (
    <form onSubmit={submit} aria-label={label} className="a-card admin-card">
      {children}
      <button type="submit">{button}</button>
      {err ? <p role="alert">{err}</p> : null}
      {out || status ? <p role="status">{out || status}</p> : null}
    </form>
  );
}

/** A failed call's message and the server's per-field messages (a 400 names fields: `code`, `countries.2`, ...). */
export interface FormErrors {
  message: string;
  fields: Record<string, string>;
}
export const NO_ERRORS: FormErrors = { message: '', fields: {} };

export function formErrors(e: unknown): FormErrors {
  const raw = e instanceof ApiError ? e.data.errors : undefined;
  const fields: Record<string, string> = {};
  if (raw && typeof raw === 'object') for (const [k, v] of Object.entries(raw)) if (typeof v === 'string') fields[k] = v;
  return { message: msg(e), fields };
}

/** The message for `name`: its own key or one of its parts (`weightRates.0.upToGrams` belongs to `weightRates`). */
export function errorFor(fields: Record<string, string>, name: string): string | undefined {
  if (fields[name]) return fields[name];
  const k = Object.keys(fields).find((x) => x.startsWith(`${name}.`));
  return k ? fields[k] : undefined;
}

/** The whole-form message to show: the call's message unless every field message has a field on screen to sit next to. */
export function formLevelError(errors: FormErrors, shown: string[]): string {
  const keys = Object.keys(errors.fields);
  const placed = keys.length > 0 && keys.every((k) => shown.some((s) => k === s || k.startsWith(`${s}.`)));
  return placed ? '' : errors.message;
}

/** A labelled control with its error beside it: the control gets aria-invalid and aria-describedby when there is one. */
export function Field({ label, error, children }: { label: ReactNode; error?: string; children: (a11y: { 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode }) {
  const id = useId();
  return (
    <>
      <label>
        {label} {children(error ? { 'aria-invalid': true, 'aria-describedby': id } : {})}
      </label>
      {error ? (
        <p id={id} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </>
  );
}

/**
 * Row buttons by id, and a way to put focus back on one once the next render has happened
 * (an inline edit form closing after Save or Cancel).
 */
export function useRowFocus() {
  const els = useRef(new Map<string, HTMLElement>());
  const [target, setTarget] = useState<string | null>(null);
  useEffect(() => {
    if (target === null) return;
    els.current.get(target)?.focus();
    setTarget(null);
  }, [target]);
  const ref = (id: string) => (el: HTMLElement | null) => {
    if (el) els.current.set(id, el);
    else els.current.delete(id);
  };
  return { ref, focus: setTarget };
}

/** A form ref that moves focus to the first field the server refused, each time new errors arrive. */
export function useFocusInvalid(errors: FormErrors) {
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (Object.keys(errors.fields).length) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);
  return form;
}

/** What an add-or-edit form's fields turn into: the request body, or the messages to show instead of sending it. */
export type Checked = { body: Record<string, unknown> } | { errors: FormErrors };

/**
 * Reads the amounts a form's fields hold (5.99, blank for 0) into minor units, noting `message` under the server's
 * name of each field that cannot be read; `result` is then the body, or those messages.
 */
export function amountReader(message: string, currency: string) {
  const fields: Record<string, string> = {};
  const cents = (s: string, field: string) => {
    try {
      return s.trim() ? toMinorUnits(s.trim(), currency) : 0;
    } catch {
      fields[field] = message;
      return 0;
    }
  };
  const result = (body: Record<string, unknown>): Checked => (Object.keys(fields).length ? { errors: { message, fields } } : { body });
  return { cents, result };
}

/**
 * The store's currency (ISO 4217), for the screens that show and read amounts; USD until it is known. Amounts
 * are stored in the currency's minor units, so '500' is 500 yen but 5.00 dollars.
 */
export function useStoreCurrency(): string {
  const q = useQuery({ queryKey: ['checkout-settings'], queryFn: () => api<{ currency: string }>('GET', '/api/checkout/admin/settings') });
  return q.data?.currency ?? 'USD';
}

/**
 * A table's records from `url` (the list under `key` of its answer), through TanStack Query; `load` reads them
 * again (awaitable), `remove` deletes one (`url`/id), reads again and answers whether it went. `error` is the last
 * failed call's message; `loading` is true until the first answer.
 */
export function useRecordList<T>(url: string, key: string) {
  const qc = useQueryClient();
  const q = useQuery({ queryKey: ['records', url], queryFn: async () => (await api<Record<string, T[]>>('GET', url))[key] as T[] });
  const [error, setError] = useState('');
  const load = () => qc.invalidateQueries({ queryKey: ['records', url] });
  const removal = useMutation({ mutationFn: (id: string) => api('DELETE', `${url}/${id}`), onSettled: load });
  async function remove(id: string): Promise<boolean> {
    setError('');
    try {
      await removal.mutateAsync(id);
      return true;
    } catch (e) {
      setError(msg(e));
      return false;
    }
  }
  return { list: q.data ?? [], loading: q.isPending, error: error || (q.error ? msg(q.error) : ''), load, remove };
}

/** The props of a screen's add-or-edit form for records with amounts in the store's currency. */
export interface AmountFormProps<V> {
  label: string;
  submit: string;
  initial: V;
  currency: string;
  onSave: (body: Record<string, unknown>) => Promise<void>;
  onCancel?: () => void;
}

/**
 * The state of a record's add form or inline edit form: the values, the messages (server's or `check`'s), busy
 * while saving; an add form (no `onCancel`) empties itself after a save, an edit form closes on Escape.
 */
export function useRecordForm<V>({ initial, empty, check, onSave, onCancel }: { initial: V; empty: V; check: (v: V) => Checked; onSave: (body: Record<string, unknown>) => Promise<void>; onCancel?: () => void }) {
  const [v, setV] = useState(initial);
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [busy, setBusy] = useState(false);
  const ref = useFocusInvalid(errors);
  const set =
    <K extends keyof V>(k: K) =>
    (x: V[K]) =>
      setV((f) => ({ ...f, [k]: x }));
  const err = (k: string) => errorFor(errors.fields, k);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setErrors(NO_ERRORS);
    const out = check(v);
    if ('errors' in out) {
      setErrors(out.errors);
      return;
    }
    setBusy(true);
    try {
      await onSave(out.body);
      if (!onCancel) setV(empty);
    } catch (x) {
      setErrors(formErrors(x));
    } finally {
      setBusy(false);
    }
  }
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && onCancel) {
      e.preventDefault();
      onCancel();
    }
  };
  return { v, set, err, errors, busy, onCancel, form: { ref, onSubmit, onKeyDown } };
}

/**
 * The form around a record's fields: its submit button, Cancel when it edits a row, and the call's message when no
 * field on screen (`shown`, the server's names) carries it.
 */
export function RecordForm({ label, submit, state, shown, children }: { label: string; submit: string; state: Pick<ReturnType<typeof useRecordForm>, 'errors' | 'busy' | 'onCancel' | 'form'>; shown: string[]; children: ReactNode }) {
  const whole = formLevelError(state.errors, shown);
  return (
    <form {...state.form} className="admin-form" aria-label={label}>
      {children}
      <button type="submit" disabled={state.busy}>
        {submit}
      </button>
      {state.onCancel && (
        <button type="button" onClick={state.onCancel}>
          Cancel
        </button>
      )}
      {whole && <p role="alert">{whole}</p>}
    </form>
  );
}

/**
 * Which row of a table is open for editing: each row's Edit button (named after the record, expanded while its form
 * is open, closing it when pressed again) beside its Delete button, and the row under it holding the form; closing puts focus back on the button.
 */
export function useRowEditing() {
  const [editing, setEditing] = useState<string | null>(null);
  const toast = useToast();
  const rows = useRowFocus();
  const close = (id: string) => {
    setEditing(null);
    rows.focus(id);
  };
  /** A row's Edit and Delete buttons, named after the record; Delete asks first and says when it is done. */
  const rowButtons = (id: string, name: string, remove: (id: string) => Promise<boolean>) => (
    <>
      <button type="button" ref={rows.ref(id)} aria-label={`Edit ${name}`} aria-expanded={editing === id} onClick={() => (editing === id ? close(id) : setEditing(id))}>
        Edit
      </button>{' '}
      <ConfirmDialog
        trigger={
          <button type="button" aria-label={`Delete ${name}`}>
            Delete
          </button>
        }
        title={`Delete ${name}?`}
        description="It is removed for good. Orders that used it keep what they were charged."
        confirm="Delete"
        onConfirm={async () => {
          if (await remove(id)) toast(`${name} deleted.`);
        }}
      />
    </>
  );
  const editRow = (id: string, columns: number, form: () => ReactNode) =>
    editing === id ? (
      <tr key={`${id}-edit`}>
        <td colSpan={columns}>{form()}</td>
      </tr>
    ) : null;
  return { close, rowButtons, editRow };
}

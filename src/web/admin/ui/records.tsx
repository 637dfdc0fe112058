/**
 * Small pieces every /config screen uses: an error's text, a GET that loads a screen's data, a save form,
 * focus returning to a row's button, and a table's records with their add and inline edit forms.
 */
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { useForm, type DefaultValues, type FieldValues } from 'react-hook-form';
import type { z } from 'zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../../client/api.js';
import { toMinorUnits } from '../../../core/money.js';
import { ConfirmDialog, DataTable, EmptyState, Skeleton, useToast } from './design.js';
import { schemaResolver, serverErrorsOnFields, type Converted } from './fields.js';
import { editor as editorMessages } from '../../../core/messages.js';

/** The text to show for a failed call. */
export const msg = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * Loads `url` (nothing while it is null) when the screen opens, through TanStack Query (key ['load', url], so screens reading the same call
 * share it): [data, setData, error, reload, saved]. `setData` keeps the screen's own edits on top of the server's
 * copy (never in the shared cache); `reload` drops them and reads the server's copy again; `saved` puts a save's
 * answer (the server's new copy) in the cache and drops the edits, so every screen reading it sees the save.
 */
export function useLoad<T>(url: string | null): [T | null, (v: T) => void, string, () => void, (v: T) => void] {
  const qc = useQueryClient();
  // A null url reads nothing yet (a call that needs a choice first).
  const q = useQuery({ queryKey: ['load', url], queryFn: () => api<T>('GET', url!), refetchOnWindowFocus: false, enabled: url !== null });
  const [local, setLocal] = useState<{ url: string | null; data: T } | null>(null);
  const data = local?.url === url ? local.data : (q.data ?? null);
  const reload = () => {
    setLocal(null);
    void qc.invalidateQueries({ queryKey: ['load', url] });
  };
  const saved = (v: T) => {
    qc.setQueryData(['load', url], v);
    setLocal(null);
  };
  // A screen whose data never arrived (no answer at all) says 'Unable to load. Try again'; a refusal keeps the server's words.
  const error = q.error
    ? q.error instanceof ApiError && q.error.status === 0
      ? editorMessages.UNABLE_TO_LOAD_TRY_AGAIN
      : msg(q.error)
    : '';
  return [data, (v: T) => setLocal({ url, data: v }), error, reload, saved];
}

/** A named form whose submit runs `onSubmit` and says 'Saved.' (or what it returns) or the error, in live regions. */
export function SaveForm({
  label,
  onSubmit,
  children,
  button = 'Save',
  status,
}: {
  label: string;
  onSubmit: () => Promise<string | void>;
  children: ReactNode;
  button?: string;
  status?: string;
}) {
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

/**
 * Reads the amounts a form's fields hold (5.99, blank for 0) into the currency's minor units, noting `message` under
 * the server's name of each field that cannot be read; `errors` then holds those messages.
 */
export function amountReader(message: string, currency: string) {
  const errors: Record<string, string> = {};
  const cents = (s: string, field: string) => {
    try {
      return s.trim() ? toMinorUnits(s.trim(), currency) : 0;
    } catch {
      errors[field] = message;
      return 0;
    }
  };
  return { cents, errors };
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
 * again (awaitable) and marks the queries in `affects` stale (the dashboard's set-up checklist counts shipping
 * options), so call it after every save; `remove` deletes one (`url`/id), does the same and answers whether it
 * went. `error` is the last failed call's message; `loading` is true until the first answer.
 */
export function useRecordList<T>(url: string, key: string, affects: ReadonlyArray<readonly unknown[]> = []) {
  const qc = useQueryClient();
  const q = useQuery({ queryKey: ['records', url], queryFn: async () => (await api<Record<string, T[]>>('GET', url))[key] as T[] });
  const [error, setError] = useState('');
  const load = async () => {
    await Promise.all([qc.invalidateQueries({ queryKey: ['records', url] }), ...affects.map((k) => qc.invalidateQueries({ queryKey: k }))]);
  };
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

/** The props of a screen's add-or-edit form: its name, its submit button's words, the values it opens with, and the save. */
export interface RecordFormProps<V, B> {
  label: string;
  submit: string;
  initial: V;
  onSave: (body: B) => Promise<void>;
  /** An edit form's Cancel (and Escape); an add form has none and empties itself after a save. */
  onCancel?: () => void;
}

/**
 * A record's add form or inline edit form (coupons, shipping, tax): React Hook Form whose resolver turns the fields'
 * text into the request body (`convert`) and checks it with the schema the server checks (`schema`, core/store-rules.ts);
 * the server's own refusals (a code taken, ...) land on their fields too. `shown` names the fields on screen for
 * some values (the server's names); a message for none of them is the form's.
 */
export function useRecordForm<V extends FieldValues, B>({
  initial,
  empty,
  schema,
  convert,
  shown,
  onSave,
  onCancel,
}: {
  initial: V;
  empty: V;
  schema: z.ZodType<B>;
  convert: (v: V) => Converted;
  shown: (v: V) => readonly string[];
  onSave: (body: B) => Promise<void>;
  onCancel?: () => void;
}) {
  const latest = useRef({ convert, shown });
  latest.current = { convert, shown };
  const [resolver] = useState(() =>
    schemaResolver<V, B>(
      schema,
      () => latest.current.convert,
      () => latest.current.shown,
    ),
  );
  const form = useForm<V, unknown, B>({ defaultValues: initial as DefaultValues<V>, resolver });
  const save = useMutation({
    mutationFn: onSave,
    onSuccess: () => {
      if (!onCancel) form.reset(empty);
    },
    onError: (e) => serverErrorsOnFields(form, e, shown(form.getValues())),
  });
  return { form, save, onCancel };
}

/** The form around a record's fields: its submit button, Cancel when it edits a row (Escape too), and the form's own message. */
export function RecordForm<V extends FieldValues, B>({
  label,
  submit,
  state,
  children,
}: {
  label: string;
  submit: string;
  state: ReturnType<typeof useRecordForm<V, B>>;
  children: ReactNode;
}) {
  const { form, save, onCancel } = state;
  const whole = form.formState.errors.root?.message;
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && onCancel) {
      e.preventDefault();
      onCancel();
    }
  };
  return (
    <form
      className="admin-form"
      aria-label={label}
      noValidate
      onKeyDown={onKeyDown}
      onSubmit={form.handleSubmit((body) => save.mutate(body))}
    >
      {children}
      <button type="submit" disabled={save.isPending}>
        {submit}
      </button>
      {onCancel && (
        <button type="button" onClick={onCancel}>
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
      <button
        type="button"
        ref={rows.ref(id)}
        aria-label={`Edit ${name}`}
        aria-expanded={editing === id}
        onClick={() => (editing === id ? close(id) : setEditing(id))}
      >
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

/**
 * A store-rules screen's table (coupons, shipping, tax): the skeleton while it loads, the empty state, else a DataTable
 * whose rows end in Edit and Delete (named after the record) and open their edit form in the row under them.
 */
export function RecordTable<T extends { id: string }>({
  caption,
  columns,
  loadingLabel,
  emptyTitle,
  empty,
  records,
  nameOf,
  cells,
  editForm,
}: {
  caption: string;
  columns: string[];
  loadingLabel: string;
  emptyTitle: string;
  empty: ReactNode;
  records: ReturnType<typeof useRecordList<T>>;
  nameOf: (r: T) => string;
  cells: (r: T) => ReactNode;
  /** The row's edit form; `close` shuts it and puts focus back on the row's Edit button. */
  editForm: (r: T, close: () => void) => ReactNode;
}) {
  const { close, rowButtons, editRow } = useRowEditing();
  const { list, loading, remove } = records;
  if (loading) return <Skeleton lines={3} label={loadingLabel} />;
  if (list.length === 0) return <EmptyState title={emptyTitle}>{empty}</EmptyState>;
  return (
    <DataTable caption={caption} columns={columns} actions>
      {list.flatMap((r) => [
        <tr key={r.id}>
          {cells(r)}
          <td>{rowButtons(r.id, nameOf(r), remove)}</td>
        </tr>,
        editRow(r.id, columns.length + 1, () => editForm(r, () => close(r.id))),
      ])}
    </DataTable>
  );
}

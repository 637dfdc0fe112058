/**
 * /config/forms: the form builder (five tabs: build, storage (with a newsletter form's mailing list),
 * advanced, captcha, disclaimer) and the inbox of each form (newest first, spam folder with 'not spam',
 * search, CSV export).
 */
import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../../client/api.js';
import { FORM_FIELD_PROPERTIES, FormFieldType } from '../../../core/enums.js';
import type { FormField } from '../../../core/forms.js';
import { noAnswerText, summaryAnswer } from '../../../core/forms.js';
import { forms as m, cart } from '../../../core/messages.js';
import { EmptyState, PageHeader, Skeleton } from '../ui/design.js';
import { useLoad } from '../ui/records.js';
import type { FormAdminRow } from '../../../core/api/forms.js';
import { formatWhen } from '../ui/dates.js';

type FormRow = FormAdminRow;

interface Submission {
  id: string;
  data: Record<string, unknown>;
  fields: FormField[];
  /** Page fields, with the language the visitor saw the form in (multilingual sites). */
  page?: { language?: string };
  spamReason: string | null;
  createdAt: string;
}

interface ListChoice {
  id: string;
  name: string;
  isDefault: boolean;
}

const TABS = ['Build', 'Storage', 'Advanced', 'Captcha', 'Disclaimer'] as const;
const TYPES = Object.values(FormFieldType);

const blank = (): FormRow => ({
  id: '',
  name: 'New form',
  kind: 'form',
  fields: [],
  submitButtonText: 'Submit',
  submissionMessage: 'Thank you!',
  postSubmissionHtml: '',
  successRedirect: '',
  disclaimer: '',
  storage: {},
  captcha: { enabled: true },
  advanced: {},
});

function FieldEditor({
  field,
  onChange,
  onRemove,
  onMove,
}: {
  field: FormField;
  onChange(f: FormField): void;
  onRemove(): void;
  onMove(d: -1 | 1): void;
}) {
  const props = FORM_FIELD_PROPERTIES[field.type] ?? [];
  const label = field.title || field.id;
  return (
    <fieldset className="admin-field">
      <legend>
        {field.type}: {label}
      </legend>
      <label>
        Title <input value={field.title ?? ''} onChange={(e) => onChange({ ...field, title: e.target.value })} />
      </label>
      {props.includes('description') ? (
        <label>
          Description <input value={field.description ?? ''} onChange={(e) => onChange({ ...field, description: e.target.value })} />
        </label>
      ) : null}
      {props.includes('placeholder') ? (
        <label>
          Placeholder <input value={field.placeholder ?? ''} onChange={(e) => onChange({ ...field, placeholder: e.target.value })} />
        </label>
      ) : null}
      {props.includes('required') ? (
        <label>
          <input type="checkbox" checked={!!field.required} onChange={(e) => onChange({ ...field, required: e.target.checked })} /> Required
        </label>
      ) : null}
      {field.type === 'textarea' ? (
        <label>
          Maximum length{' '}
          <input
            type="number"
            min={1}
            value={field.maxLength ?? ''}
            onChange={(e) => onChange({ ...field, maxLength: e.target.value ? Number(e.target.value) : null })}
          />
        </label>
      ) : null}
      {props.includes('options') ? (
        <label>
          Options (one per line){' '}
          <textarea
            value={(field.options ?? []).join('\n')}
            onChange={(e) => onChange({ ...field, options: e.target.value.split('\n') })}
          />
        </label>
      ) : null}
      {props.includes('currencySymbol') ? (
        <label>
          Currency symbol{' '}
          <input value={field.currencySymbol ?? ''} onChange={(e) => onChange({ ...field, currencySymbol: e.target.value })} />
        </label>
      ) : null}
      {props.includes('showCountryCode') ? (
        <label>
          <input
            type="checkbox"
            checked={!!field.showCountryCode}
            onChange={(e) => onChange({ ...field, showCountryCode: e.target.checked })}
          />{' '}
          Show country code
        </label>
      ) : null}
      {props.includes('underline') ? (
        <label>
          <input type="checkbox" checked={!!field.underline} onChange={(e) => onChange({ ...field, underline: e.target.checked })} />{' '}
          Underline
        </label>
      ) : null}
      {props.includes('key') ? (
        <label>
          Key (URL query parameter) <input value={field.key ?? ''} onChange={(e) => onChange({ ...field, key: e.target.value })} />
        </label>
      ) : null}
      {props.includes('value') ? (
        <label>
          Default value <input value={field.value ?? ''} onChange={(e) => onChange({ ...field, value: e.target.value })} />
        </label>
      ) : null}
      <div className="admin-field__actions">
        <button type="button" aria-label={`Move ${label} up`} onClick={() => onMove(-1)}>
          ↑
        </button>
        <button type="button" aria-label={`Move ${label} down`} onClick={() => onMove(1)}>
          ↓
        </button>
        <button type="button" aria-label={`Remove ${label}`} onClick={onRemove}>
          Remove
        </button>
      </div>
    </fieldset>
  );
}

/**
 * A newsletter form's mailing list (Storage tab): the site's default list, or another of its lists. A list
 * deleted since it was chosen shows as the default list, which is where its sign-ups now go.
 */
function MailingListSetting({
  listId,
  lists,
  onChange,
}: {
  listId: string | null;
  lists: ListChoice[] | null;
  onChange(id: string | null): void;
}) {
  const def = lists?.find((l) => l.isDefault);
  const known = !listId || !lists || lists.some((l) => l.id === listId);
  const value = !listId || !known || listId === def?.id ? '' : listId;
  return (
    <>
      <label>
        Mailing list{' '}
        <select value={value} onChange={(e) => onChange(e.target.value || null)} aria-describedby="form-list-help">
          <option value="">{def ? `${def.name} (default list)` : 'The default list'}</option>
          {(lists ?? [])
            .filter((l) => !l.isDefault)
            .map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
          {lists === null && listId ? <option value={listId}>The chosen list</option> : null}
        </select>
      </label>
      <p id="form-list-help">
        {known ? 'Sign-ups from this form join this list.' : 'The list this form joined was deleted: sign-ups go to the default list.'}
      </p>
    </>
  );
}

type SetForm = (patch: Partial<FormRow>) => void;

/** Where submissions go: the notification email, and a newsletter form's mailing list. */
function StorageTab({ f, set, lists }: { f: FormRow; set: SetForm; lists: ListChoice[] | null }) {
  return (
    <>
      <label>
        <input
          type="checkbox"
          checked={f.storage.notify !== false}
          onChange={(e) => set({ storage: { ...f.storage, notify: e.target.checked } })}
        />{' '}
        Email me each submission
      </label>
      <label>
        Notification email (default: the site owner){' '}
        <input type="email" value={f.storage.email ?? ''} onChange={(e) => set({ storage: { ...f.storage, email: e.target.value } })} />
      </label>
      {f.kind === 'newsletter' ? (
        <MailingListSetting
          listId={f.storage.listId ?? null}
          lists={lists}
          onChange={(listId) => set({ storage: { ...f.storage, listId } })}
        />
      ) : null}
    </>
  );
}

/** The form's kind, what a visitor sees after submitting, and the lightbox. */
function AdvancedTab({ f, set }: { f: FormRow; set: SetForm }) {
  return (
    <>
      <label>
        Kind{' '}
        <select value={f.kind} onChange={(e) => set({ kind: e.target.value as FormRow['kind'] })}>
          <option value="form">Form block</option>
          <option value="newsletter">Newsletter</option>
        </select>
      </label>
      <label>
        Submission message <textarea value={f.submissionMessage} onChange={(e) => set({ submissionMessage: e.target.value })} />
      </label>
      <label>
        Post-submission HTML <textarea value={f.postSubmissionHtml} onChange={(e) => set({ postSubmissionHtml: e.target.value })} />
      </label>
      <label>
        Success redirect <input value={f.successRedirect} onChange={(e) => set({ successRedirect: e.target.value })} />
      </label>
      <label>
        <input
          type="checkbox"
          checked={!!f.advanced.lightbox}
          onChange={(e) => set({ advanced: { ...f.advanced, lightbox: e.target.checked } })}
        />{' '}
        Show in a lightbox
      </label>
      <label>
        Lightbox button text{' '}
        <input
          value={f.advanced.lightboxButtonText ?? ''}
          onChange={(e) => set({ advanced: { ...f.advanced, lightboxButtonText: e.target.value } })}
        />
      </label>
    </>
  );
}

function Builder({ initial, onSaved }: { initial: FormRow; onSaved(f: FormRow): void }) {
  const [f, setF] = useState<FormRow>(initial);
  const [tab, setTab] = useState<(typeof TABS)[number]>('Build');
  const [saving, setSaving] = useState(false);
  const [msg, setMsg] = useState('');
  const [newType, setNewType] = useState<string>('text');
  /** The site's mailing lists; null until loaded (or when this account may not read them). */
  const lists = useLoad<{ lists: ListChoice[] }>('/api/config/engagement/list-names')[0]?.lists ?? null;
  useEffect(() => setF(initial), [initial]);
  const set = (patch: Partial<FormRow>) => setF((x) => ({ ...x, ...patch }));
  const setField = (i: number, field: FormField) => set({ fields: f.fields.map((x, j) => (j === i ? field : x)) });

  const save = async () => {
    setSaving(true);
    setMsg('');
    try {
      // A chosen list that no longer exists is saved as the default list, where its sign-ups go now.
      const listId = f.storage.listId && lists && !lists.some((l) => l.id === f.storage.listId) ? null : (f.storage.listId ?? null);
      const body = {
        ...f,
        id: f.id || undefined,
        storage: { ...f.storage, listId },
        fields: f.fields.map((x) => ({ ...x, options: x.options?.filter((o) => o.trim() !== '') })),
      };
      const r = f.id
        ? await api<{ form: FormRow }>('PUT', `/api/config/forms/${encodeURIComponent(f.id)}`, body)
        : await api<{ form: FormRow }>('POST', '/api/config/forms', body);
      setMsg('Saved.');
      onSaved(r.form);
    } catch (e) {
      setMsg(e instanceof ApiError ? e.message : cart.UNABLE_TO_UPDATE_FORM);
    } finally {
      setSaving(false);
    }
  };

  return (
    <section aria-label="Form builder" className="a-card admin-card">
      <label>
        Form name <input value={f.name} onChange={(e) => set({ name: e.target.value })} />
      </label>
      <div role="tablist" aria-label="Form settings">
        {TABS.map((t) => (
          <button key={t} role="tab" type="button" aria-selected={tab === t} onClick={() => setTab(t)}>
            {t}
          </button>
        ))}
      </div>
      <div role="tabpanel" aria-label={tab}>
        {tab === 'Build' ? (
          <>
            {f.fields.map((field, i) => (
              <FieldEditor
                key={field.id}
                field={field}
                onChange={(x) => setField(i, x)}
                onRemove={() => set({ fields: f.fields.filter((_, j) => j !== i) })}
                onMove={(d) => {
                  const j = i + d;
                  if (j < 0 || j >= f.fields.length) return;
                  const next = [...f.fields];
                  [next[i], next[j]] = [next[j]!, next[i]!];
                  set({ fields: next });
                }}
              />
            ))}
            <label>
              New field type{' '}
              <select value={newType} onChange={(e) => setNewType(e.target.value)}>
                {TYPES.map((t) => (
                  <option key={t}>{t}</option>
                ))}
              </select>
            </label>
            <button
              type="button"
              onClick={() => {
                let n = f.fields.length + 1;
                while (f.fields.some((x) => x.id === `${newType}-${n}`)) n++;
                set({
                  fields: [
                    ...f.fields,
                    { id: `${newType}-${n}`, type: newType as FormField['type'], title: newType[0]!.toUpperCase() + newType.slice(1) },
                  ],
                });
              }}
            >
              Add field
            </button>
            <label>
              Submit button text <input value={f.submitButtonText} onChange={(e) => set({ submitButtonText: e.target.value })} />
            </label>
          </>
        ) : null}
        {tab === 'Storage' ? <StorageTab f={f} set={set} lists={lists} /> : null}
        {tab === 'Advanced' ? <AdvancedTab f={f} set={set} /> : null}
        {tab === 'Captcha' ? (
          <label>
            <input
              type="checkbox"
              checked={f.captcha.enabled !== false}
              onChange={(e) => set({ captcha: { enabled: e.target.checked } })}
            />{' '}
            Use the site's captcha on this form
          </label>
        ) : null}
        {tab === 'Disclaimer' ? (
          <label>
            Disclaimer <textarea value={f.disclaimer} onChange={(e) => set({ disclaimer: e.target.value })} />
          </label>
        ) : null}
      </div>
      <button type="button" onClick={save} disabled={saving}>
        {saving ? m.SAVING : 'Save form'}
      </button>
      {msg ? <p role="status">{msg}</p> : null}
    </section>
  );
}

function Inbox({ form }: { form: FormRow }) {
  const [folder, setFolder] = useState<'inbox' | 'spam'>('inbox');
  const [q, setQ] = useState('');
  const qs = new URLSearchParams({ folder, ...(q ? { q } : {}) });
  const [d, , loadError, reload] = useLoad<{ submissions: Submission[] }>(
    `/api/config/forms/${encodeURIComponent(form.id)}/submissions?${qs}`,
  );
  const subs = d?.submissions ?? [];
  const client = useQueryClient();
  const [failed, setError] = useState('');
  const error = failed || loadError;
  /** After moving a submission: this folder, the other folder and the forms list's counts are read again. */
  const load = () => {
    reload();
    void client.invalidateQueries({
      queryKey: ['load'],
      predicate: (x) => typeof x.queryKey[1] === 'string' && x.queryKey[1].startsWith('/api/config/forms'),
    });
  };
  return (
    <section aria-label="Submissions" className="a-card admin-card">
      <h2>Submissions</h2>
      <div role="tablist" aria-label="Folder">
        <button type="button" role="tab" aria-selected={folder === 'inbox'} onClick={() => setFolder('inbox')}>
          Inbox
        </button>
        <button type="button" role="tab" aria-selected={folder === 'spam'} onClick={() => setFolder('spam')}>
          Spam
        </button>
      </div>
      <label>
        Search <input type="search" value={q} onChange={(e) => setQ(e.target.value)} />
      </label>
      <a href={`/api/config/forms/${encodeURIComponent(form.id)}/export.csv${folder === 'spam' ? '?folder=spam' : ''}`} download>
        Export CSV
      </a>
      {error ? <p role="alert">{error}</p> : null}
      {subs.length === 0 ? <p className="a-muted">No submissions yet. What visitors send through this form shows here.</p> : null}
      <ol className="admin-submissions">
        {subs.map((s) => (
          <li key={s.id}>
            <time dateTime={s.createdAt}>{formatWhen(s.createdAt)}</time>
            {s.spamReason ? <span> — {s.spamReason}</span> : null}
            <dl>
              {s.fields
                .filter((f) => f.type !== 'section')
                .map((f) => (
                  <div key={f.id}>
                    <dt>{f.title || f.id}</dt>
                    <dd>{summaryAnswer(s.data[f.id], noAnswerText(s.page?.language))}</dd>
                  </div>
                ))}
            </dl>
            {folder === 'spam' ? (
              <button
                type="button"
                onClick={() =>
                  api('POST', `/api/config/forms/${encodeURIComponent(form.id)}/submissions/${s.id}/not-spam`).then(load, (e: Error) =>
                    setError(e.message),
                  )
                }
              >
                Not spam
              </button>
            ) : (
              <button
                type="button"
                onClick={() =>
                  api('POST', `/api/config/forms/${encodeURIComponent(form.id)}/submissions/${s.id}/spam`).then(load, (e: Error) =>
                    setError(e.message),
                  )
                }
              >
                Mark as spam
              </button>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}

export function FormsAdmin() {
  // The same read (and key) as the product editor's additional-fields form picker, so a saved form shows in both.
  const [d, , error, load] = useLoad<{ forms: FormRow[] }>('/api/config/forms');
  const forms = d?.forms ?? null;
  const [sel, setSel] = useState<FormRow | null>(null);
  return (
    <>
      <PageHeader
        title="Forms"
        description="The forms on your pages, what visitors sent through them, and what was held back as spam."
        actions={
          <button type="button" className="a-button--primary" onClick={() => setSel(blank())}>
            New form
          </button>
        }
      />
      {error ? <p role="alert">{error}</p> : null}
      {forms === null ? (
        error ? null : (
          <Skeleton lines={3} label="Loading forms" />
        )
      ) : forms.length === 0 ? (
        <EmptyState title="No forms yet">
          Press New form to build one, then add it to a page with a form block in the page editor.
        </EmptyState>
      ) : (
        <div className="a-card">
          <ul aria-label="Forms" className="a-list">
            {forms.map((f) => (
              <li key={f.id}>
                <button type="button" aria-pressed={sel?.id === f.id} onClick={() => setSel(f)}>
                  {f.name}
                </button>{' '}
                <span className="a-muted">
                  {f.inboxCount ?? 0} in inbox, {f.spamCount ?? 0} in spam
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {sel ? (
        <Builder
          initial={sel}
          onSaved={(f) => {
            setSel(f);
            load();
          }}
        />
      ) : null}
      {sel && sel.id ? <Inbox form={sel} /> : null}
    </>
  );
}

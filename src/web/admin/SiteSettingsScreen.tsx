/**
 * Site settings (/config/settings): title, tagline, logo and favicon (uploaded through the editor's image
 * pipeline), time zone, language and region, currency, contact, business address and hours, social accounts.
 * React Hook Form with the zod schema the server checks (core/site-settings.ts); a server's per-field
 * messages land on their fields; saves are version-checked and announced with a toast.
 */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useForm, useFieldArray, type FieldPath, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../client/api.js';
import { uploadFile } from './editor/api.js';
import { siteSettingsSchema, WEEKDAYS, type SiteSettings } from '../../core/site-settings.js';
import { SUPPORTED_CURRENCIES } from '../../core/money.js';
import { ConfirmDialog, PageHeader, Skeleton, useToast } from './design.js';
import { Field } from './fields.js';
import { useTimeZones } from './time-zones.js';

const DAY_NAMES: Record<string, string> = { monday: 'Monday', tuesday: 'Tuesday', wednesday: 'Wednesday', thursday: 'Thursday', friday: 'Friday', saturday: 'Saturday', sunday: 'Sunday' };

/** An uploaded image (logo, favicon): its preview, an Upload button (file picker) and Remove. */
function ImageField({ form, name, label }: { form: UseFormReturn<SiteSettings>; name: 'logoImageUrl' | 'faviconUrl'; label: string }) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const url = form.watch(name);
  const fieldError = form.getFieldState(name, form.formState).error?.message;
  async function pick(file: File | undefined) {
    if (!file) return;
    setBusy(true);
    setError('');
    try {
      const up = await uploadFile(file);
      form.setValue(name, up.url, { shouldDirty: true, shouldValidate: true });
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  }
  return (
    <fieldset>
      <legend>{label}</legend>
      <div className="a-image-field">
        {url ? <img src={url} alt={`Current ${label.toLowerCase()}`} /> : <span className="a-muted">No {label.toLowerCase()} yet.</span>}
        <input ref={input} type="file" accept="image/png,image/jpeg,image/webp,image/gif,image/svg+xml" className="visually-hidden" tabIndex={-1} aria-hidden="true" onChange={(e) => void pick(e.target.files?.[0])} />
        <button type="button" disabled={busy} onClick={() => input.current?.click()}>
          {busy ? 'Uploading…' : `Upload ${label.toLowerCase()}`}
        </button>
        {url ? (
          <button type="button" onClick={() => form.setValue(name, '', { shouldDirty: true })}>
            Remove {label.toLowerCase()}
          </button>
        ) : null}
      </div>
      {error || fieldError ? <p className="a-field__error">{error || fieldError}</p> : null}
    </fieldset>
  );
}

function Section({ title, children, className = '' }: { title: string; children: ReactNode; className?: string }) {
  const id = useId();
  return (
    <section className={`a-card ${className}`.trim()} aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <div className="a-form">{children}</div>
    </section>
  );
}

function SettingsForm({ initial }: { initial: SiteSettings }) {
  const toast = useToast();
  const client = useQueryClient();
  const form = useForm<SiteSettings>({ resolver: zodResolver(siteSettingsSchema), defaultValues: initial, mode: 'onTouched' });
  const social = useFieldArray({ control: form.control, name: 'socialAccounts' });
  const [formError, setFormError] = useState('');
  const tzId = useId();
  const curId = useId();
  useEffect(() => form.reset(initial), [initial]);

  const save = useMutation({
    mutationFn: (v: SiteSettings) => api<{ settings: SiteSettings }>('PUT', '/api/admin/site-settings', v),
    onSuccess: (r) => {
      client.setQueryData(['site-settings'], r);
      void client.invalidateQueries({ queryKey: ['shell'] });
      void client.invalidateQueries({ queryKey: ['dashboard'] });
      form.reset(r.settings);
      toast('Site settings saved.');
    },
    onError: (e) => {
      const fields = e instanceof ApiError && e.data.errors && typeof e.data.errors === 'object' ? (e.data.errors as Record<string, string>) : {};
      let placed = false;
      for (const [k, m] of Object.entries(fields)) {
        form.setError(k as FieldPath<SiteSettings>, { message: m }, { shouldFocus: !placed });
        placed = true;
      }
      setFormError(placed ? '' : e.message);
      toast(placed ? 'Some settings need a fix before they can be saved.' : e.message, { tone: 'error' });
    },
  });

  const tzErr = form.formState.errors.timeZone?.message;
  const timeZones = useTimeZones(initial.timeZone);
  const curErr = form.formState.errors.currency?.message;
  return (
    <form
      aria-label="Site settings"
      noValidate
      onSubmit={form.handleSubmit((v) => {
        setFormError('');
        save.mutate(v);
      })}
    >
      <Section title="Identity">
        <div className="a-fields">
          <Field form={form} name="title" label="Site title" />
          <Field form={form} name="tagline" label="Tagline" hint="A short line under the title, shown in the footer." />
        </div>
        <div className="a-fields">
          <ImageField form={form} name="logoImageUrl" label="Logo" />
          <ImageField form={form} name="faviconUrl" label="Favicon" />
        </div>
      </Section>

      <Section title="Region">
        <div className="a-fields">
          <div>
            <label htmlFor={tzId}>Time zone</label>
            <select id={tzId} aria-invalid={tzErr ? true : undefined} {...form.register('timeZone')}>
              {timeZones.zones.map((z) => (
                <option key={z} value={z}>
                  {z.replace(/_/g, ' ')}
                </option>
              ))}
            </select>
            <p className="a-muted">Event times, order dates and scheduled posts use it.</p>
            {tzErr ? <p className="a-field__error">{tzErr}</p> : null}
            {timeZones.failure}
          </div>
          <Field form={form} name="locale" label="Language and region" hint="A language tag such as en-US, en-GB or fr-CA." />
          <div>
            <label htmlFor={curId}>Store currency</label>
            <select id={curId} aria-invalid={curErr ? true : undefined} {...form.register('currency')}>
              {SUPPORTED_CURRENCIES.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
            <p className="a-muted">Prices keep their numbers in the currency&apos;s smallest unit: choose it before adding products.</p>
            {curErr ? <p className="a-field__error">{curErr}</p> : null}
          </div>
        </div>
      </Section>

      <Section title="Contact">
        <div className="a-fields">
          <Field form={form} name="contactEmail" label="Contact email" type="email" autoComplete="email" />
          <Field form={form} name="contactPhoneNumber" label="Phone number" type="tel" autoComplete="tel" />
        </div>
      </Section>

      <Section title="Business address">
        <div className="a-fields">
          <Field form={form} name="location.addressTitle" label="Business name" />
          <Field form={form} name="location.addressLine1" label="Street address" />
          <Field form={form} name="location.addressLine2" label="City and postcode" />
          <Field form={form} name="location.addressCountry" label="Country" />
        </div>
      </Section>

      <Section title="Business hours">
        <p className="a-muted">For example 9am–5pm, or Closed. Leave a day blank to say nothing about it.</p>
        <div className="a-fields a-fields--hours">
          {WEEKDAYS.map((d) => (
            <Field key={d} form={form} name={`businessHours.${d}`} label={DAY_NAMES[d]!} />
          ))}
        </div>
      </Section>

      <Section title="Comments">
        <div>
          <label>
            <input type="checkbox" {...form.register('commentsEnabled')} /> Allow comments on the site
          </label>
          <p className="a-muted">Off hides every comment area. New journal posts start with comments open when this is on, and closed when it is off.</p>
        </div>
      </Section>

      <Section title="Social accounts">
        {social.fields.length === 0 ? <p className="a-muted">No social accounts yet. Add one so visitors can follow the shop.</p> : null}
        {social.fields.map((f, i) => (
          <fieldset key={f.id}>
            <legend>Account {i + 1}</legend>
            <div className="a-fields">
              <Field form={form} name={`socialAccounts.${i}.serviceName`} label="Service" />
              <Field form={form} name={`socialAccounts.${i}.profileUrl`} label="Profile address" type="url" />
            </div>
            <ConfirmDialog
              trigger={<button type="button">Remove account {i + 1}</button>}
              title="Remove this social account?"
              description="It disappears from the site's footer when you save."
              confirm="Remove"
              onConfirm={() => social.remove(i)}
            />
          </fieldset>
        ))}
        <button type="button" onClick={() => social.append({ serviceName: '', profileUrl: '' })}>
          Add a social account
        </button>
      </Section>

      <div className="a-form-actions">
        <button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save settings'}
        </button>
        {form.formState.isDirty ? <span className="a-muted">Unsaved changes</span> : null}
        {formError ? <p role="alert">{formError}</p> : null}
      </div>
    </form>
  );
}

/** The backup download (server/backup/routes.ts): administrators only; the server refuses other roles. */
function BackupCard() {
  return (
    <Section title="Backup" className="a-card--after-form">
      <p className="a-muted">
        Download the whole site as one archive: every page, product, order, customer and account, and every uploaded file. Keep it somewhere safe: it holds your customers&apos; details. Restore it on a new
        server with <code>npm run restore</code> (see docs/DEPLOY.md). Only administrators can download a backup.
      </p>
      <div className="a-form-actions">
        <a className="a-button" href="/api/admin/backup" download>
          Download a backup
        </a>
      </div>
    </Section>
  );
}

export function SiteSettingsScreen() {
  const q = useQuery({ queryKey: ['site-settings'], queryFn: () => api<{ settings: SiteSettings }>('GET', '/api/admin/site-settings') });
  return (
    <>
      <PageHeader title="Site settings" description="How the site introduces itself, where it is, and when it is open." />
      {q.isPending ? <Skeleton lines={8} label="Loading the settings" /> : q.isError ? <p role="alert">{q.error.message}</p> : <SettingsForm initial={q.data.settings} />}
      <BackupCard />
    </>
  );
}

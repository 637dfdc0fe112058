/**
 * Site settings (/config/settings): title, tagline, logo and favicon (uploaded through the editor's image
 * pipeline), time zone, language and region, currency, contact, business address and hours, social accounts.
 * React Hook Form with the zod schema the server checks (core/site-settings.ts); a server's per-field
 * messages land on their fields; saves are version-checked and announced with a toast.
 */
import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { useForm, useFieldArray, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../client/api.js';
import { uploadFile } from '../content/editor/api.js';
import { siteSettingsSchema, WEEKDAYS, type SiteSettings } from '../../../core/site-settings.js';
import { SUPPORTED_CURRENCIES } from '../../../core/money.js';
import { ConfirmDialog, PageHeader, Skeleton, useToast } from '../ui/design.js';
import { CheckboxField, Field, FieldMessages, SelectField, describedBy, serverErrorsOnFields } from '../ui/fields.js';
import { useTimeZones } from './time-zones.js';
import { AddressFields, useAddressFormat, type AddressValues } from '../../shared/AddressFields.js';
import type { AddressFormat, AddressPart } from '../../../core/address-format.js';
import type { CountryOption } from '../../../core/api/common.js';
import type { SiteSettingsAnswer } from '../../../core/api/platform.js';

const CURRENCY_OPTIONS = SUPPORTED_CURRENCIES.map((c) => ({ value: c, label: c }));

const DAY_NAMES: Record<string, string> = {
  monday: 'Monday',
  tuesday: 'Tuesday',
  wednesday: 'Wednesday',
  thursday: 'Thursday',
  friday: 'Friday',
  saturday: 'Saturday',
  sunday: 'Sunday',
};

/** An uploaded image (logo, favicon): its preview, an Upload button (file picker) and Remove. */
function ImageField({ form, name, label }: { form: UseFormReturn<SiteSettings>; name: 'logoImageUrl' | 'faviconUrl'; label: string }) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const url = form.watch(name);
  const fieldError = form.getFieldState(name, form.formState).error?.message;
  const message = error || fieldError;
  const id = useId();
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
        <input
          ref={input}
          type="file"
          accept="image/png,image/jpeg,image/webp,image/gif,image/svg+xml"
          className="visually-hidden"
          tabIndex={-1}
          aria-hidden="true"
          onChange={(e) => void pick(e.target.files?.[0])}
        />
        <button type="button" disabled={busy} aria-describedby={describedBy(id, undefined, message)} onClick={() => input.current?.click()}>
          {busy ? 'Uploading…' : `Upload ${label.toLowerCase()}`}
        </button>
        {url ? (
          <button type="button" onClick={() => form.setValue(name, '', { shouldDirty: true })}>
            Remove {label.toLowerCase()}
          </button>
        ) : null}
      </div>
      <FieldMessages id={id} error={message} />
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

const ADDRESS_KEYS = {
  name: 'addressTitle',
  line1: 'line1',
  line2: 'line2',
  city: 'city',
  region: 'region',
  postalCode: 'postalCode',
  country: 'country',
} as const;

/**
 * The business address in the country's format (web/shared/AddressFields.tsx): the country and its
 * subdivisions from lists, the country's parts, order and labels; the server checks the postcode's pattern.
 */
function BusinessAddress({
  form,
  countries,
  first,
}: {
  form: UseFormReturn<SiteSettings>;
  countries: CountryOption[];
  first: AddressFormat;
}) {
  const loc = form.watch('location');
  const format = useAddressFormat(first, loc.country || first.country);
  const values: AddressValues = Object.fromEntries(Object.entries(ADDRESS_KEYS).map(([part, key]) => [part, loc[key]]));
  const errors = Object.fromEntries(
    Object.entries(ADDRESS_KEYS).flatMap(([part, key]) => {
      const m = form.getFieldState(`location.${key}`, form.formState).error?.message;
      return m ? [[part, m]] : [];
    }),
  );
  const set = (part: AddressPart | 'country', v: string) => {
    form.setValue(`location.${ADDRESS_KEYS[part]}`, v, { shouldDirty: true });
    form.clearErrors(`location.${ADDRESS_KEYS[part]}`);
    if (part === 'country' && v !== (loc.country || format.country)) form.setValue('location.region', '', { shouldDirty: true });
  };
  return (
    <div className="a-fields a-fields--address">
      <AddressFields
        format={format}
        countries={countries}
        values={values}
        onChange={set}
        errors={errors}
        idPrefix="business-address"
        cls="a"
        nameLabel="Business name"
      />
    </div>
  );
}

function SettingsForm({
  initial,
  countries,
  addressFormat,
}: {
  initial: SiteSettings;
  countries: CountryOption[];
  addressFormat: AddressFormat;
}) {
  const toast = useToast();
  const client = useQueryClient();
  const form = useForm<SiteSettings>({ resolver: zodResolver(siteSettingsSchema), defaultValues: initial, mode: 'onTouched' });
  const social = useFieldArray({ control: form.control, name: 'socialAccounts' });
  const [formError, setFormError] = useState('');
  const timeZones = useTimeZones(initial.timeZone);
  const timeZoneOptions = useMemo(() => timeZones.zones.map((z) => ({ value: z, label: z.replace(/_/g, ' ') })), [timeZones.zones]);
  useEffect(() => form.reset(initial), [initial]);

  const save = useMutation({
    mutationFn: (v: SiteSettings) => api<SiteSettingsAnswer>('PUT', '/api/admin/site-settings', v),
    onSuccess: (r) => {
      client.setQueryData(['site-settings'], r);
      void client.invalidateQueries({ queryKey: ['shell'] });
      void client.invalidateQueries({ queryKey: ['dashboard'] });
      // The currency and time zone are read by the catalogue, coupons, shipping and orders screens too.
      void client.invalidateQueries({ queryKey: ['catalog-settings'] });
      void client.invalidateQueries({ queryKey: ['checkout-settings'] });
      form.reset(r.settings);
      toast('Site settings saved.');
    },
    onError: (e) => {
      const placed = serverErrorsOnFields(form, e);
      setFormError(placed ? '' : e.message);
      toast(placed ? 'Some settings need a fix before they can be saved.' : e.message, { tone: 'error' });
    },
  });

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
          <SelectField
            form={form}
            name="timeZone"
            label="Time zone"
            options={timeZoneOptions}
            hint="Event times, order dates and scheduled posts use it."
          />
          {timeZones.failure}
          <Field form={form} name="locale" label="Language and region" hint="A language tag such as en-US, en-GB or fr-CA." />
          <SelectField
            form={form}
            name="currency"
            label="Store currency"
            options={CURRENCY_OPTIONS}
            hint={<>Prices keep their numbers in the currency&apos;s smallest unit: choose it before adding products.</>}
          />
        </div>
      </Section>

      <Section title="Contact">
        <div className="a-fields">
          <Field form={form} name="contactEmail" label="Contact email" type="email" autoComplete="email" />
          <Field form={form} name="contactPhoneNumber" label="Phone number" type="tel" autoComplete="tel" />
        </div>
      </Section>

      <Section title="Business address">
        <BusinessAddress form={form} countries={countries} first={addressFormat} />
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
        <CheckboxField
          form={form}
          name="commentsEnabled"
          label="Allow comments on the site"
          hint="Off hides every comment area. New journal posts start with comments open when this is on, and closed when it is off."
        />
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
        Download the whole site as one archive: every page, product, order, customer and account, and every uploaded file. Keep it somewhere
        safe: it holds your customers&apos; details. Restore it on a new server with <code>npm run restore</code> (see docs/DEPLOY.md). Only
        administrators can download a backup.
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
  const q = useQuery({ queryKey: ['site-settings'], queryFn: () => api<SiteSettingsAnswer>('GET', '/api/admin/site-settings') });
  return (
    <>
      <PageHeader title="Site settings" description="How the site introduces itself, where it is, and when it is open." />
      {q.isPending ? (
        <Skeleton lines={8} label="Loading the settings" />
      ) : q.isError ? (
        <p role="alert">{q.error.message}</p>
      ) : (
        <SettingsForm initial={q.data.settings} countries={q.data.countries} addressFormat={q.data.addressFormat} />
      )}
      <BackupCard />
    </>
  );
}

/**
 * Email settings (/config/email-settings): the SMTP relay (unless SMTP_URL sets it), a Send test email button
 * that shows the relay's answer, and the owner's notifications (new order, form submission, low stock). The
 * relay's password is write-only: the server says whether one is saved, never what it is.
 */
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../client/api.js';
import { smtpInputSchema, type SmtpInput } from '../../../core/smtp.js';
import { ConfirmDialog, PageHeader, Skeleton, useToast } from '../ui/design.js';
import { Field, SelectField, serverErrorsOnFields } from '../ui/fields.js';
import type { EmailSettings, OwnerNotifications, SmtpPublic, TestMailAnswer } from '../../../core/api/email.js';

type Notifications = OwnerNotifications;

const KEY = ['email-settings'];
const SECURITY_OPTIONS = [
  { value: 'starttls', label: 'STARTTLS (usually port 587)' },
  { value: 'tls', label: 'TLS (usually port 465)' },
  { value: 'none', label: 'None (only for a relay on this machine)' },
];

function RelayForm({ smtp }: { smtp: SmtpPublic | null }) {
  const toast = useToast();
  const client = useQueryClient();
  const initial = {
    host: smtp?.host ?? '',
    port: smtp?.port ?? 587,
    security: smtp?.security ?? 'starttls',
    username: smtp?.username ?? '',
    password: '',
    fromAddress: smtp?.fromAddress ?? '',
  };
  const form = useForm<z.input<typeof smtpInputSchema>, unknown, SmtpInput>({
    resolver: zodResolver(smtpInputSchema),
    defaultValues: initial,
    mode: 'onTouched',
  });
  const [formError, setFormError] = useState('');
  useEffect(() => form.reset(initial), [smtp]);
  const save = useMutation({
    mutationFn: (v: SmtpInput) => api<{ smtp: SmtpPublic }>('PUT', '/api/admin/email-settings/smtp', v),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: KEY });
      void client.invalidateQueries({ queryKey: ['dashboard'] });
      void client.invalidateQueries({ queryKey: ['emails'] });
      toast('SMTP settings saved.');
    },
    onError: (e) => {
      const placed = serverErrorsOnFields(form, e);
      setFormError(placed ? '' : e.message);
      toast(placed ? 'Some settings need a fix before they can be saved.' : e.message, { tone: 'error' });
    },
  });
  const remove = useMutation({
    mutationFn: () => api('DELETE', '/api/admin/email-settings/smtp'),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: KEY });
      void client.invalidateQueries({ queryKey: ['dashboard'] });
      toast('SMTP settings removed. New email is kept in the outbox.');
    },
    onError: (e) => toast(e.message, { tone: 'error' }),
  });
  return (
    <form
      aria-label="SMTP relay"
      noValidate
      className="a-form"
      onSubmit={form.handleSubmit((v) => {
        setFormError('');
        save.mutate(v);
      })}
    >
      <div className="a-fields">
        <Field form={form} name="host" label="SMTP host" placeholder="smtp.example.com" autoComplete="off" />
        <Field form={form} name="port" label="Port" inputMode="numeric" />
        <SelectField form={form} name="security" label="Security" options={SECURITY_OPTIONS} />
      </div>
      <div className="a-fields">
        <Field form={form} name="username" label="User name" autoComplete="off" hint="Leave empty if the relay needs no login." />
        <Field
          form={form}
          name="password"
          label="Password"
          type="password"
          autoComplete="new-password"
          hint={
            smtp?.passwordSet ? 'A password is saved. Leave this empty to keep it.' : 'Stored for the relay only; it is never shown again.'
          }
        />
        <Field
          form={form}
          name="fromAddress"
          label="Send as"
          placeholder="Fernhill <shop@example.com>"
          hint="The sender customers see. Empty: MAIL_FROM."
        />
      </div>
      <div className="a-form-actions">
        <button type="submit" className="a-button--primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save SMTP settings'}
        </button>
        {smtp ? (
          <ConfirmDialog
            trigger={<button type="button">Remove SMTP settings</button>}
            title="Remove the SMTP settings?"
            description="Email stops leaving the server: new email is kept in the outbox, readable in Emails, until a relay is set again."
            confirm="Remove"
            onConfirm={() => remove.mutate()}
          />
        ) : null}
        {formError ? <p role="alert">{formError}</p> : null}
      </div>
    </form>
  );
}

function TestEmail({ defaultTo, canSend }: { defaultTo: string; canSend: boolean }) {
  const id = useId();
  const [to, setTo] = useState(defaultTo);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const send = useMutation({
    mutationFn: () => api<TestMailAnswer>('POST', '/api/admin/email-settings/test', { to }),
    onSuccess: (r) =>
      setResult(
        r.ok
          ? { ok: true, text: `Test email sent to ${r.to}. Check that inbox (and its spam folder).` }
          : { ok: false, text: `The relay refused the test email: ${r.error ?? 'no reason given'}` },
      ),
    onError: (e) => setResult({ ok: false, text: e.message }),
  });
  return (
    <section className="a-card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Send a test email</h2>
      <form
        className="a-form"
        aria-label="Send a test email"
        onSubmit={(e) => {
          e.preventDefault();
          setResult(null);
          send.mutate();
        }}
      >
        <div className="a-fields">
          <div>
            <label htmlFor={`${id}-to`}>Send to</label>
            <input id={`${id}-to`} type="email" autoComplete="email" value={to} onChange={(e) => setTo(e.target.value)} />
          </div>
        </div>
        <div className="a-form-actions">
          <button type="submit" disabled={send.isPending || !canSend}>
            {send.isPending ? 'Sending…' : 'Send test email'}
          </button>
          {!canSend ? <span className="a-muted">Save a relay first.</span> : null}
        </div>
      </form>
      <div role="status">{result?.ok ? <p>{result.text}</p> : null}</div>
      <div role="alert">{result && !result.ok ? <p className="a-field__error">{result.text}</p> : null}</div>
    </section>
  );
}

const NOTIFICATION_TEXT: Array<{ key: keyof Notifications; label: string; hint: string }> = [
  { key: 'newOrder', label: 'New order', hint: 'An email for every order, with its items, total and a link to it.' },
  {
    key: 'formSubmission',
    label: 'New form submission',
    hint: 'The answers of each form sent from the site (forms that have their own address keep it).',
  },
  { key: 'lowStock', label: 'Low stock', hint: 'When an order leaves a variant with 3 or fewer.' },
];

function NotificationsForm({ initial, notifyTo }: { initial: Notifications; notifyTo: string | null }) {
  const id = useId();
  const toast = useToast();
  const client = useQueryClient();
  const [v, setV] = useState(initial);
  useEffect(() => setV(initial), [initial]);
  const save = useMutation({
    mutationFn: () => api<{ notifications: Notifications }>('PUT', '/api/admin/email-settings/notifications', v),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: KEY });
      toast('Notifications saved.');
    },
    onError: (e) => toast(e.message, { tone: 'error' }),
  });
  return (
    <section className="a-card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Notifications to you</h2>
      <p className="a-muted">
        Sent to {notifyTo ?? 'no address yet'}. <a href="/config/settings">Change the contact email</a> to send them elsewhere.
      </p>
      <form
        className="a-form"
        aria-label="Notifications to you"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        {NOTIFICATION_TEXT.map((n) => (
          <div key={n.key}>
            <label className="a-check">
              <input
                type="checkbox"
                checked={v[n.key]}
                aria-describedby={`${id}-${n.key}`}
                onChange={(e) => setV({ ...v, [n.key]: e.target.checked })}
              />
              {n.label}
            </label>
            <p id={`${id}-${n.key}`} className="a-muted">
              {n.hint}
            </p>
          </div>
        ))}
        <div className="a-form-actions">
          <button type="submit" disabled={save.isPending}>
            Save notifications
          </button>
        </div>
      </form>
    </section>
  );
}

export function EmailSettingsScreen() {
  const q = useQuery({ queryKey: KEY, queryFn: () => api<EmailSettings>('GET', '/api/admin/email-settings') });
  const headingId = useId();
  return (
    <>
      <PageHeader
        title="Email settings"
        description="How the site's email leaves the server, and what it tells you."
        actions={
          <>
            <a className="a-button" href="/config/outbox">
              Outbox
            </a>
            <a className="a-button" href="/config/emails">
              Email templates
            </a>
          </>
        }
      />
      {q.isPending ? (
        <Skeleton lines={8} label="Loading the email settings" />
      ) : q.isError ? (
        <p role="alert">{q.error.message}</p>
      ) : (
        <>
          <section className="a-card" aria-labelledby={headingId}>
            <h2 id={headingId}>SMTP relay</h2>
            {q.data.source === 'environment' ? (
              <p>
                Email delivery is set by SMTP_URL in the server&apos;s environment; change it there. You can still send a test email below.
              </p>
            ) : (
              <>
                <p className="a-muted">
                  {q.data.source === 'settings'
                    ? 'Email leaves through this relay.'
                    : 'No relay yet: email is kept in the outbox, readable in Emails, until you enter your provider’s SMTP details.'}
                </p>
                <RelayForm smtp={q.data.smtp} />
              </>
            )}
          </section>
          <TestEmail defaultTo={q.data.signedIn} canSend={q.data.source !== 'none'} />
          <NotificationsForm initial={q.data.notifications} notifyTo={q.data.notifyTo} />
        </>
      )}
    </>
  );
}

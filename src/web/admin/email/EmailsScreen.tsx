/**
 * Emails (/config/outbox): everything the site sent or means to send, from the outbox: queued, sent, failed with
 * the relay's error, or kept here when no SMTP relay is set. An email opens at /config/outbox/:id (its text and
 * its HTML in a sandboxed frame) and can be sent again.
 */
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../client/api.js';
import { DataTable, EmptyState, PageHeader, Skeleton, useToast } from '../ui/design.js';
import { formatWhenMedium } from '../ui/dates.js';

interface EmailSummary {
  id: number;
  kind: string;
  to: string;
  subject: string;
  status: string;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
}
interface EmailDetail extends EmailSummary {
  text: string;
  html: string | null;
}

const STATUS_NAMES: Record<string, string> = {
  pending: 'Queued',
  sending: 'Sending',
  sent: 'Sent',
  failed: 'Failed',
  local: 'Kept here (no SMTP)',
};
const FILTERS = [
  { value: '', label: 'All' },
  { value: 'pending', label: 'Queued' },
  { value: 'sent', label: 'Sent' },
  { value: 'failed', label: 'Failed' },
  { value: 'local', label: 'Kept here' },
];

const when = (iso: string | null) => (iso ? formatWhenMedium(iso) : '');

function useResend(id: number) {
  const client = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: () => api<{ email: EmailSummary }>('POST', `/api/admin/emails/${id}/resend`),
    onSuccess: () => {
      toast('Email queued to send again.');
      void client.invalidateQueries({ queryKey: ['emails'] });
    },
    onError: (e) => toast(e.message, { tone: 'error' }),
  });
}

function ResendButton({ email, relay }: { email: EmailSummary; relay: boolean }) {
  const resend = useResend(email.id);
  if (!relay || email.status === 'pending' || email.status === 'sending') return null;
  return (
    <button type="button" disabled={resend.isPending} onClick={() => resend.mutate()} aria-label={`Resend ${email.subject} to ${email.to}`}>
      Resend
    </button>
  );
}

function EmailList() {
  const [status, setStatus] = useState('');
  const q = useQuery({
    queryKey: ['emails', status],
    queryFn: () => api<{ relay: boolean; emails: EmailSummary[] }>('GET', `/api/admin/emails${status ? `?status=${status}` : ''}`),
  });
  return (
    <>
      <PageHeader title="Emails" description="Every email the site sends: order confirmations, form notifications, sign-up links." />
      {q.data && !q.data.relay ? (
        <div className="a-card">
          <h2>Email is not being delivered</h2>
          <p>No SMTP relay is set (SMTP_URL), so emails are kept here instead of being sent. Open one to read it.</p>
        </div>
      ) : null}
      <div className="a-tabs" role="group" aria-label="Show">
        {FILTERS.map((f) => (
          <button key={f.value} type="button" aria-pressed={status === f.value} onClick={() => setStatus(f.value)}>
            {f.label}
          </button>
        ))}
      </div>
      {q.isPending ? (
        <Skeleton lines={5} label="Loading emails" />
      ) : q.isError ? (
        <p role="alert">{q.error.message}</p>
      ) : q.data.emails.length === 0 ? (
        <EmptyState title="No emails here">Emails appear when someone orders, submits a form or signs up.</EmptyState>
      ) : (
        <DataTable caption="Emails" columns={['Subject', 'To', 'Status', 'Queued']} actions>
          {q.data.emails.map((e) => (
            <tr key={e.id}>
              <td>
                <a href={`/config/outbox/${e.id}`}>{e.subject}</a>
              </td>
              <td>{e.to}</td>
              <td>
                {STATUS_NAMES[e.status] ?? e.status}
                {e.status === 'failed' && e.lastError ? <div className="a-muted">Relay said: {e.lastError}</div> : null}
              </td>
              <td>{when(e.createdAt)}</td>
              <td>
                <ResendButton email={e} relay={q.data.relay} />
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </>
  );
}

function EmailView({ id }: { id: number }) {
  const q = useQuery({
    queryKey: ['emails', 'one', id],
    queryFn: () => api<{ relay: boolean; email: EmailDetail }>('GET', `/api/admin/emails/${id}`),
  });
  const title = q.data?.email.subject ?? 'Email';
  return (
    <>
      <PageHeader
        title={title}
        breadcrumbs={[{ label: 'Emails', href: '/config/outbox' }, { label: title }]}
        actions={q.data ? <ResendButton email={q.data.email} relay={q.data.relay} /> : null}
      />
      {q.isPending ? (
        <Skeleton lines={6} label="Loading the email" />
      ) : q.isError ? (
        <p role="alert">{q.error.message}</p>
      ) : (
        <>
          <dl className="a-card">
            <dt>To</dt>
            <dd>{q.data.email.to}</dd>
            <dt>Status</dt>
            <dd>{STATUS_NAMES[q.data.email.status] ?? q.data.email.status}</dd>
            {q.data.email.lastError ? (
              <>
                <dt>Relay&apos;s error</dt>
                <dd>{q.data.email.lastError}</dd>
              </>
            ) : null}
            <dt>Queued</dt>
            <dd>{when(q.data.email.createdAt)}</dd>
            {q.data.email.sentAt ? (
              <>
                <dt>Sent</dt>
                <dd>{when(q.data.email.sentAt)}</dd>
              </>
            ) : null}
          </dl>
          {q.data.email.html ? (
            <section className="a-card" aria-labelledby="email-html-h">
              <h2 id="email-html-h">As the recipient sees it</h2>
              {/* sandbox with no permissions: no scripts, no forms, no navigation of this page. */}
              <iframe title={`Email: ${title}`} sandbox="" srcDoc={q.data.email.html} className="a-email-frame" />
            </section>
          ) : null}
          <section className="a-card" aria-labelledby="email-text-h">
            <h2 id="email-text-h">Plain text</h2>
            <pre>{q.data.email.text}</pre>
          </section>
        </>
      )}
    </>
  );
}

export function EmailsScreen({ path }: { path: string }) {
  const m = /^\/config\/outbox\/(\d+)\/?$/.exec(path);
  return m ? <EmailView id={Number(m[1])} /> : <EmailList />;
}

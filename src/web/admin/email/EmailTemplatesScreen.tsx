/**
 * Email templates (/config/emails, the commerce email preview, page type 301): every email the site sends, the
 * customers' (order confirmation and the order life cycle, restock, newsletter, reviews) and the owner's own
 * notifications, each rendered with sample data by the function that renders it for real
 * (GET /api/config/engagement/emails[/:name]). The HTML shows in a sandboxed frame.
 */
import { useEffect, useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../client/api.js';
import { PageHeader, Skeleton } from '../ui/design.js';

const API = '/api/config/engagement';

interface Rendered {
  name: string;
  label: string;
  email: { subject: string; text: string; html: string | null };
}

function Preview({ name }: { name: string }) {
  const q = useQuery({
    queryKey: ['email-template', name],
    queryFn: () => api<Rendered>('GET', `${API}/emails/${encodeURIComponent(name)}`),
  });
  const textId = useId();
  if (q.isPending) return <Skeleton lines={6} label="Loading the preview" />;
  if (q.isError) return <p role="alert">{q.error.message}</p>;
  const shown = q.data;
  return (
    <section aria-label={`Preview: ${shown.label}`} className="a-card">
      <h2>{shown.label}</h2>
      <p>
        <strong>Subject:</strong> {shown.email.subject}
      </p>
      {shown.email.html ? <iframe title={`${shown.label} (HTML)`} sandbox="" srcDoc={shown.email.html} className="a-email-frame" /> : null}
      <h3 id={textId}>Plain text</h3>
      <pre aria-labelledby={textId} className="a-pre">
        {shown.email.text}
      </pre>
    </section>
  );
}

export function EmailTemplatesScreen() {
  const list = useQuery({
    queryKey: ['email-templates'],
    queryFn: () => api<{ emails: Array<{ name: string; label: string }> }>('GET', `${API}/emails`),
  });
  const [name, setName] = useState('');
  const selectId = useId();
  useEffect(() => {
    const first = list.data?.emails[0]?.name;
    if (!name && first) setName(first);
  }, [list.data, name]);
  return (
    <>
      <PageHeader
        title="Email preview"
        description="Every email this site sends, to customers and to you, shown with sample data."
        breadcrumbs={[{ label: 'Emails', href: '/config/outbox' }, { label: 'Email preview' }]}
        actions={
          <a className="a-button" href="/config/email-settings">
            Email settings
          </a>
        }
      />
      {list.isPending ? (
        <Skeleton lines={3} label="Loading the emails" />
      ) : list.isError ? (
        <p role="alert">{list.error.message}</p>
      ) : (
        <>
          <div className="a-card a-form">
            <label htmlFor={selectId}>Email</label>
            <select id={selectId} value={name} onChange={(e) => setName(e.target.value)}>
              {list.data.emails.map((x) => (
                <option key={x.name} value={x.name}>
                  {x.label}
                </option>
              ))}
            </select>
          </div>
          {name ? <Preview name={name} /> : null}
        </>
      )}
    </>
  );
}

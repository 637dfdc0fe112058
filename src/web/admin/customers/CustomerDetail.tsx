/**
 * One customer (/config/customers/detail?email=…): the owner's details (name, phone, tags, note), their addresses,
 * spend, orders, site account, marketing consent, mailing lists and restock sign-ups.
 */
import { useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../client/api.js';
import { EmptyState, PageHeader, Skeleton, useMoney } from '../ui/design.js';
import type { CustomerDetailAnswer } from '../../../core/api/customers.js';
import { formatDayMedium } from '../ui/dates.js';
import { ProfileCard } from './ProfileCard.js';

const STATUS: Record<string, string> = {
  paid: 'Paid',
  fulfilled: 'Fulfilled',
  refunded: 'Refunded',
  partially_refunded: 'Partially refunded',
  canceled: 'Canceled',
  cancelled: 'Cancelled',
  subscribed: 'Subscribed',
  pending: 'Waiting to confirm',
  unsubscribed: 'Unsubscribed',
  sent: 'Told it is back',
};
const day = (iso: string | null) => formatDayMedium(iso ?? 0);
const status = (s: string) => STATUS[s] ?? s;

function Card({ title, children }: { title: string; children: React.ReactNode }) {
  const id = useId();
  return (
    <section className="a-card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

export function CustomerDetail({ email }: { email: string }) {
  const q = useQuery({
    queryKey: ['customer', email],
    queryFn: () => api<CustomerDetailAnswer>('GET', `/api/admin/customers/detail?email=${encodeURIComponent(email)}`),
  });
  const money = useMoney(q.data?.currency ?? 'USD');
  const c = q.data?.customer;
  const title = c?.name || c?.email || email;
  return (
    <>
      <PageHeader
        title={title}
        description={c?.name ? c.email : undefined}
        breadcrumbs={[{ label: 'Customers', href: '/config/customers' }, { label: title }]}
        actions={
          c ? (
            <a className="a-button" href={`mailto:${c.email}`}>
              Email customer
            </a>
          ) : undefined
        }
      />
      {q.isPending ? (
        <Skeleton lines={6} label="Loading the customer" />
      ) : q.isError ? (
        <p role="alert">{q.error.message}</p>
      ) : (
        <>
          <div className="a-grid">
            <div className="a-card a-stat">
              <h2>Spend</h2>
              <p className="a-stat__value">{money(q.data.customer.spendCents)}</p>
            </div>
            <div className="a-card a-stat">
              <h2>Orders</h2>
              <p className="a-stat__value">{q.data.customer.orders.length}</p>
            </div>
            <div className="a-card a-stat">
              <h2>Site account</h2>
              <p className="a-stat__value">
                {q.data.customer.account ? (q.data.customer.account.state === 'active' ? 'Active' : 'Disabled') : 'None'}
              </p>
              {q.data.customer.account ? <p className="a-muted">Since {day(q.data.customer.account.created)}</p> : null}
            </div>
          </div>
          <div className="a-grid">
            <ProfileCard key={JSON.stringify(q.data.customer.profile)} email={q.data.customer.email} customer={q.data.customer} />
            <Card title="Addresses">
              {q.data.customer.addresses.length === 0 ? (
                <p className="a-muted">No address yet.</p>
              ) : (
                <ul className="a-list" aria-label="Addresses">
                  {q.data.customer.addresses.map((a) => (
                    <li key={a.lines.join('|')}>
                      <address>
                        {a.lines.map((l, i) => (
                          <span key={i}>
                            {l}
                            <br />
                          </span>
                        ))}
                      </address>
                      <span className="a-muted">{a.from === 'order' ? 'From an order' : 'Saved in their account'}</span>
                    </li>
                  ))}
                </ul>
              )}
              <p>
                Marketing: <strong>{q.data.customer.acceptsMarketing ? 'Subscribed' : 'Not subscribed'}</strong>
              </p>
            </Card>
          </div>
          <Card title="Orders">
            {q.data.customer.orders.length === 0 ? (
              <EmptyState level={3} title="No orders yet" />
            ) : (
              <ul className="a-list" aria-label="Orders">
                {q.data.customer.orders.map((o) => (
                  <li key={o.id}>
                    <a href={`/config/orders/${o.id}`}>Order #{o.orderNumber}</a>
                    <span className="a-muted">
                      {day(o.created)} · {status(o.status)} · {money(o.grandTotalCents)}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </Card>
          <Card title="Mailing lists">
            {q.data.customer.mailingLists.length === 0 ? (
              <p className="a-muted">Not on any mailing list.</p>
            ) : (
              <ul className="a-list" aria-label="Mailing lists">
                {q.data.customer.mailingLists.map((l) => (
                  <li key={l.name}>
                    <span>{l.name}</span>
                    <span className="a-muted">
                      {status(l.status)} · since {day(l.since)}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </Card>
          <Card title="Restock sign-ups">
            {q.data.customer.restockSignUps.length === 0 ? (
              <p className="a-muted">No restock sign-ups.</p>
            ) : (
              <ul className="a-list" aria-label="Restock sign-ups">
                {q.data.customer.restockSignUps.map((r) => (
                  <li key={r.id}>
                    <span>
                      {r.product}
                      {r.variant ? ` (${r.variant})` : ''}
                    </span>
                    <span className="a-muted">
                      {status(r.status)} · {day(r.created)}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </Card>
        </>
      )}
    </>
  );
}

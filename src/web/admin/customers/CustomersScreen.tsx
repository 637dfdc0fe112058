/**
 * Customers (/config/customers): everyone who ordered, has a site-user account, subscribed to a mailing list or
 * signed up for a restock, searchable by name or address, with their orders and spend (GET /api/admin/customers), and
 * the list as CSV. One customer opens at /config/customers/detail?email=… with their orders, account, mailing
 * lists and restock sign-ups (GET /api/admin/customers/detail).
 */
import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../client/api.js';
import { ColumnHeads, EmptyState, PageHeader, Skeleton, useMoney } from '../ui/design.js';
import { CustomerDetail } from './CustomerDetail.js';
import type { CustomerList } from '../../../core/api/customers.js';

function CustomerList() {
  const [q, setQ] = useState('');
  const list = useQuery({
    queryKey: ['customers', q],
    queryFn: () => api<CustomerList>('GET', `/api/admin/customers?q=${encodeURIComponent(q)}`),
    placeholderData: keepPreviousData,
  });
  const money = useMoney(list.data?.currency ?? 'USD');
  return (
    <>
      <PageHeader
        title="Customers"
        description="Everyone who ordered, made an account, subscribed or asked to hear about a restock."
        actions={
          <a className="a-button" href={`/api/admin/customers.csv?q=${encodeURIComponent(q)}`} download="customers.csv">
            Export CSV
          </a>
        }
      />
      <form role="search" aria-label="Customers" className="a-card" onSubmit={(e) => e.preventDefault()}>
        <label>
          Search by name or email
          <input type="search" value={q} onChange={(e) => setQ(e.target.value)} />
        </label>
      </form>
      {list.isPending ? (
        <Skeleton lines={5} label="Loading customers" />
      ) : list.isError ? (
        <p role="alert">{list.error.message}</p>
      ) : list.data.customers.length === 0 ? (
        <EmptyState title={q ? 'No customer matches' : 'No customers yet'}>
          {q ? 'Try part of the name or the address.' : 'Customers appear here after their first order, account or sign-up.'}
        </EmptyState>
      ) : (
        <table className="admin-table">
          <caption className="visually-hidden">Customers</caption>
          <ColumnHeads columns={['Email', 'Name', 'Orders', 'Spend', 'Account', 'Mailing lists', 'Restock sign-ups', 'Tags']} />
          <tbody>
            {list.data.customers.map((c) => (
              <tr key={c.email}>
                <td>
                  <a href={`/config/customers/detail?email=${encodeURIComponent(c.email)}`}>{c.email}</a>
                </td>
                <td>{c.name}</td>
                <td>{c.orders}</td>
                <td>{money(c.spendCents)}</td>
                <td>{c.account ? 'Site user' : 'No account'}</td>
                <td>{c.mailingLists}</td>
                <td>{c.restockSignUps}</td>
                <td>{c.tags.join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

export function CustomersScreen({ path }: { path: string }) {
  if (/^\/config\/customers\/detail\/?$/.test(path))
    return <CustomerDetail email={new URLSearchParams(window.location.search).get('email') ?? ''} />;
  return <CustomerList />;
}

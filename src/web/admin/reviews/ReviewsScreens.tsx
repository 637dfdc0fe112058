/**
 * /config/reviews: moderate product reviews (approve or reject) and the review request settings.
 * /config/related-products: choose a product's related products (none: the page shows same-category products).
 * /config/donations: donors and the donation settings.
 */
import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { api } from '../../client/api.js';
import { useLoad } from '../ui/records.js';
import { formatMoney, toMinorUnits, moneyDecimalString } from '../../../core/money.js';
import { ColumnHeads, DataTable, EmptyState, PageHeader, Skeleton } from '../ui/design.js';
import type { DonationList, DonationSettings, ReviewList, ReviewRow, ReviewSettings, ReviewStatus } from '../../../core/api/reviews.js';
import { formatDay } from '../ui/dates.js';

type Status = ReviewStatus;

type Review = ReviewRow;

const STATUS_LABELS: Record<Status, string> = { pending: 'Waiting for approval', approved: 'Approved', rejected: 'Rejected' };
const reviewsUrl = (status: Status) => `/api/reviews/admin/reviews?status=${status}`;

export function ReviewsScreen() {
  const [status, setStatus] = useState<Status>('pending');
  const client = useQueryClient();
  const [data, , loadError] = useLoad<ReviewList>(reviewsUrl(status));
  const list = data?.reviews ?? null;
  const counts = data?.counts ?? {};
  const [failed, setError] = useState('');
  const error = failed || loadError;
  const [notice, setNotice] = useState('');
  const [settingsData, setSettingsData, , , savedSettings] = useLoad<{ settings: ReviewSettings }>('/api/reviews/admin/settings');
  const settings = settingsData?.settings ?? null;
  const setSettings = (s: ReviewSettings) => setSettingsData({ settings: s });
  const [settingsError, setSettingsError] = useState('');
  /** A decision moves a review between the tabs: every tab's list and counts are read again. */
  const load = () =>
    Promise.all((Object.keys(STATUS_LABELS) as Status[]).map((s) => client.invalidateQueries({ queryKey: ['load', reviewsUrl(s)] })));

  async function decide(r: Review, action: 'approve' | 'reject') {
    setError('');
    setNotice('');
    try {
      await api('POST', `/api/reviews/admin/reviews/${r.id}/${action}`);
      setNotice(`${action === 'approve' ? 'Approved' : 'Rejected'} the review by ${r.authorName}.`);
      await load();
    } catch (e) {
      setError((e as Error).message);
    }
  }

  async function save(e: FormEvent) {
    e.preventDefault();
    if (!settings) return;
    setSettingsError('');
    try {
      savedSettings(await api<{ settings: ReviewSettings }>('PUT', '/api/reviews/admin/settings', { settings }));
      setNotice('Review settings saved.');
    } catch (err) {
      setSettingsError((err as Error).message);
    }
  }

  return (
    <>
      <PageHeader title="Reviews" description="Buyers' reviews wait here for your approval before they show on product pages." />
      <div role="tablist" aria-label="Review status" className="admin-tabs">
        {(Object.keys(STATUS_LABELS) as Status[]).map((s) => (
          <button key={s} role="tab" type="button" aria-selected={status === s} onClick={() => setStatus(s)}>
            {STATUS_LABELS[s]} ({counts[s] ?? 0})
          </button>
        ))}
      </div>
      {error && <p role="alert">{error}</p>}
      {notice && <p role="status">{notice}</p>}
      {list === null ? (
        error ? null : (
          <Skeleton lines={3} label="Loading reviews" />
        )
      ) : list.length === 0 ? (
        <EmptyState title={status === 'pending' ? 'Nothing waiting for approval' : `No ${STATUS_LABELS[status].toLowerCase()} reviews`}>
          {status === 'pending'
            ? 'When a buyer reviews a product it waits here. Turn on review requests below to ask buyers after delivery.'
            : 'Reviews move here when you approve or reject them in Waiting for approval.'}
        </EmptyState>
      ) : (
        <DataTable caption={`${STATUS_LABELS[status]} reviews`} columns={['Product', 'Rating', 'Review', 'By', 'Date']} actions>
          {list.map((r) => (
            <tr key={r.id}>
              <td>{r.productTitle}</td>
              <td>
                <span aria-hidden="true">{'★'.repeat(r.rating) + '☆'.repeat(5 - r.rating)}</span>
                <span className="visually-hidden">{r.rating} out of 5 stars</span>
              </td>
              <td>
                {r.title && <strong>{r.title}. </strong>}
                {r.body}
              </td>
              <td>
                {r.authorName}
                {r.orderNumber !== null && <> (order #{r.orderNumber})</>}
              </td>
              <td>{formatDay(r.created)}</td>
              <td>
                {r.status !== 'approved' && (
                  <button type="button" onClick={() => void decide(r, 'approve')} aria-label={`Approve the review by ${r.authorName}`}>
                    Approve
                  </button>
                )}
                {r.status !== 'rejected' && (
                  <button type="button" onClick={() => void decide(r, 'reject')} aria-label={`Reject the review by ${r.authorName}`}>
                    Reject
                  </button>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {settings && (
        <form onSubmit={save} aria-label="Review settings" className="a-card a-form">
          <h2>Review requests</h2>
          <label className="a-check">
            <input
              type="checkbox"
              checked={settings.requestsEnabled}
              onChange={(e) => setSettings({ ...settings, requestsEnabled: e.target.checked })}
            />{' '}
            Email buyers a review request after delivery
          </label>
          <label>
            Hours after delivery{' '}
            <input
              type="number"
              min={0}
              max={2160}
              value={settings.requestDelayHours}
              onChange={(e) => setSettings({ ...settings, requestDelayHours: Number(e.target.value) })}
            />
          </label>
          <label>
            Related products shown on a product page{' '}
            <input
              type="number"
              min={0}
              max={12}
              value={settings.relatedCount}
              onChange={(e) => setSettings({ ...settings, relatedCount: Number(e.target.value) })}
            />
          </label>
          {settingsError && <p role="alert">{settingsError}</p>}
          <button type="submit" className="a-button--primary">
            Save review settings
          </button>
        </form>
      )}
    </>
  );
}

interface Product {
  id: string;
  title: string;
}

export function RelatedProductsScreen() {
  const [all, , productsError] = useLoad<{ products: Product[] }>('/api/reviews/admin/products');
  const products = all?.products ?? [];
  const [picked, setPicked] = useState('');
  const productId = picked || products[0]?.id || '';
  // The chosen products of the product in the select; ticking boxes edits them on top of the server's copy.
  const [related, setRelated, relatedError, , savedRelated] = useLoad<{ related: Product[] }>(
    productId ? `/api/reviews/admin/related/${productId}` : null,
  );
  const chosen = related?.related.map((p) => p.id) ?? [];
  const [failed, setError] = useState('');
  const error = failed || productsError || relatedError;
  const [notice, setNotice] = useState('');
  const setProductId = (id: string) => {
    setNotice('');
    setPicked(id);
  };
  const toggle = (id: string, on: boolean) => {
    const ids = on ? [...chosen.filter((x) => x !== id), id] : chosen.filter((x) => x !== id);
    setRelated({ related: ids.map((x) => ({ id: x, title: title(x) })) });
  };
  async function save(e: FormEvent) {
    e.preventDefault();
    setError('');
    try {
      const r = await api<{ related: Product[] }>('PUT', `/api/reviews/admin/related/${productId}`, { relatedItemIds: chosen });
      savedRelated(r);
      setNotice(r.related.length ? 'Related products saved.' : 'Saved: the page shows products of the same category.');
    } catch (err) {
      setError((err as Error).message);
    }
  }
  const title = (id: string) => products.find((p) => p.id === id)?.title ?? id;
  return (
    <>
      <h1>Related products</h1>
      <p>Choose what a product page suggests. With none chosen, it shows products of the same category.</p>
      <label>
        Product{' '}
        <select value={productId} onChange={(e) => setProductId(e.target.value)}>
          {products.map((p) => (
            <option key={p.id} value={p.id}>
              {p.title}
            </option>
          ))}
        </select>
      </label>
      <form onSubmit={save} aria-label="Related products" className="admin-form">
        <fieldset>
          <legend>Related to {title(productId)}</legend>
          {products
            .filter((p) => p.id !== productId)
            .map((p) => (
              <label key={p.id}>
                <input type="checkbox" checked={chosen.includes(p.id)} onChange={(e) => toggle(p.id, e.target.checked)} /> {p.title}
              </label>
            ))}
        </fieldset>
        {chosen.length > 0 && <p>Order on the page: {chosen.map(title).join(', ')}</p>}
        {error && <p role="alert">{error}</p>}
        {notice && <p role="status">{notice}</p>}
        <button type="submit">Save related products</button>
      </form>
    </>
  );
}

export function DonationsScreen() {
  const [data, , dataError] = useLoad<DonationList>('/api/donations/admin/donations?limit=200');
  const [stored, setStored, , , saved] = useLoad<{ settings: DonationSettings; currency: string }>('/api/donations/admin/settings');
  const settings = stored?.settings ?? null;
  const currency = stored?.currency ?? 'USD';
  const setSettings = (s: DonationSettings) => setStored({ settings: s, currency });
  const decimal = (c: number) => moneyDecimalString(c, currency);
  // The amounts as the owner types them; null shows the stored ones.
  const [typedAmounts, setAmounts] = useState<string | null>(null);
  const amounts = typedAmounts ?? (settings ? settings.suggestedAmounts.map(decimal).join(', ') : '');
  const [typedLimits, setLimits] = useState<{ min: string; max: string } | null>(null);
  const limits =
    typedLimits ?? (settings ? { min: decimal(settings.minimumCents), max: decimal(settings.maximumCents) } : { min: '', max: '' });
  const [failed, setError] = useState('');
  const error = failed || dataError;
  const [notice, setNotice] = useState('');
  async function save(e: FormEvent) {
    e.preventDefault();
    if (!settings) return;
    setError('');
    setNotice('');
    try {
      const suggestedAmounts = amounts
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .map((s) => toMinorUnits(s, currency));
      const r = await api<{ settings: DonationSettings }>('PUT', '/api/donations/admin/settings', {
        settings: {
          ...settings,
          suggestedAmounts,
          minimumCents: toMinorUnits(limits.min, currency),
          maximumCents: toMinorUnits(limits.max, currency),
        },
      });
      saved({ settings: r.settings, currency });
      setNotice('Donation settings saved.');
    } catch (err) {
      setError(err instanceof RangeError ? 'Enter amounts such as 25 or 25.00, separated by commas.' : (err as Error).message);
    }
  }
  return (
    <>
      <PageHeader
        title="Donations"
        description={
          data ? (
            <>
              {data.count} {data.count === 1 ? 'contribution' : 'contributions'}
              {data.totals.length > 0 && <>, {data.totals.map((t) => formatMoney(t.amountCents, t.currency)).join(' + ')} in all</>}.
            </>
          ) : (
            'Contributions given on the donate page.'
          )
        }
        actions={
          <a className="a-button" href="/donate" target="_blank" rel="noreferrer">
            View donate page
          </a>
        }
      />
      {!data && !error && <Skeleton lines={3} label="Loading donations" />}
      {data && data.donations.length === 0 && (
        <EmptyState title="No contributions yet">
          Turn on Accept donations below and link to /donate from your navigation or a page, so visitors can give.
        </EmptyState>
      )}
      {data && data.donations.length > 0 && (
        <table className="admin-table" aria-label="Donors">
          <ColumnHeads columns={['Donor', 'Email', 'Amount', 'Message', 'Date']} />
          <tbody>
            {data.donations.map((d) => (
              <tr key={d.id}>
                <td>{d.donorName}</td>
                <td>{d.email}</td>
                <td>
                  {formatMoney(d.amountCents, d.currency)}
                  {d.testMode && ' (test)'}
                </td>
                <td>{d.message}</td>
                <td>{formatDay(d.created)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {settings && (
        <form onSubmit={save} aria-label="Donation settings" className="a-card a-form">
          <h2>Donate page</h2>
          <p>
            Visitors give at <a href="/donate">/donate</a>.
          </p>
          <label className="a-check">
            <input type="checkbox" checked={settings.enabled} onChange={(e) => setSettings({ ...settings, enabled: e.target.checked })} />{' '}
            Accept donations
          </label>
          <label>
            Title <input value={settings.title} maxLength={120} onChange={(e) => setSettings({ ...settings, title: e.target.value })} />
          </label>
          <label>
            Description{' '}
            <textarea
              value={settings.description}
              maxLength={2000}
              onChange={(e) => setSettings({ ...settings, description: e.target.value })}
            />
          </label>
          <label>
            Button text{' '}
            <input value={settings.buttonText} maxLength={60} onChange={(e) => setSettings({ ...settings, buttonText: e.target.value })} />
          </label>
          <label>
            Suggested amounts ({currency}, separated by commas) <input value={amounts} onChange={(e) => setAmounts(e.target.value)} />
          </label>
          <label>
            Smallest amount ({currency}){' '}
            <input value={limits.min} inputMode="decimal" onChange={(e) => setLimits({ ...limits, min: e.target.value })} />
          </label>
          <label>
            Largest amount ({currency}){' '}
            <input value={limits.max} inputMode="decimal" onChange={(e) => setLimits({ ...limits, max: e.target.value })} />
          </label>
          <button type="submit" className="a-button--primary">
            Save donation settings
          </button>
        </form>
      )}
      {error && <p role="alert">{error}</p>}
      {notice && <p role="status">{notice}</p>}
    </>
  );
}

/**
 * /config/products: the product list (issue 24). Search, filters (store, type, status with archived, stock), sort, pages;
 * bulk publish, unpublish, archive, unarchive, delete, move to another store page and edit in the bulk editor;
 * thumbnails; stock edited in place. A table on wide screens, cards on phones.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../client/api.js';
import { ColumnHeads, ConfirmDialog, EmptyState, PageHeader, Skeleton, useToast } from '../ui/design.js';
import { formatMoney } from '../../../core/money.js';
import { createStore } from './store-creation.js';
import { stockWords } from './model.js';
import type {
  CatalogSettings,
  InventoryInput,
  ProductBulkInput,
  ProductList as ProductListAnswer,
  ProductListRow,
  StoreSummary as Store,
} from '../../../core/api/catalog.js';

type Row = ProductListRow;

const TYPES: Record<number, string> = { 1: 'Physical', 2: 'Digital', 3: 'Service', 4: 'Gift card' };
const STATUS_LABEL: Record<string, string> = {
  published: 'Active',
  draft: 'Draft',
  scheduled: 'Scheduled',
  private: 'Private',
  'needs-review': 'Needs review',
  archived: 'Archived',
};

function StatusBadge({ status }: { status: string }) {
  return <span className={`cat-status cat-status--${status}`}>{STATUS_LABEL[status] ?? status}</span>;
}

/** The stock of a one-variant product, edited in place (Enter or leaving the field saves). */
function StockCell({ row, onSaved }: { row: Row; onSaved: () => void }) {
  const toast = useToast();
  const v = row.variants[0];
  const [value, setValue] = useState(v ? String(v.qtyInStock) : '');
  useEffect(() => setValue(v ? String(v.qtyInStock) : ''), [v?.qtyInStock]);
  if (!v) return <span className="a-muted">—</span>;
  if (row.variants.length > 1 || v.unlimited)
    return (
      <span className={row.out ? 'cat-stock cat-stock--out' : row.low ? 'cat-stock cat-stock--low' : 'cat-stock'}>{stockWords(row)}</span>
    );
  const save = async () => {
    const n = Number(value);
    if (String(v.qtyInStock) === value) return;
    if (!Number.isInteger(n) || n < 0) {
      toast('Stock must be a whole number, 0 or more.', { tone: 'error' });
      setValue(String(v.qtyInStock));
      return;
    }
    try {
      await api('PUT', '/api/config/catalog/inventory', { changes: [{ variantId: v.id, qtyInStock: n }] } satisfies InventoryInput);
      toast(`Stock of ${row.title} set to ${n}.`);
      onSaved();
    } catch (e) {
      toast(e instanceof Error ? e.message : String(e), { tone: 'error' });
    }
  };
  return (
    <label className="cat-stock-edit">
      <span className="visually-hidden">Stock of {row.title}</span>
      <input
        type="number"
        min={0}
        inputMode="numeric"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        onBlur={() => void save()}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            void save();
          }
        }}
        aria-invalid={row.out ? undefined : undefined}
      />
    </label>
  );
}

function StoreCreator({ onCreated }: { onCreated: () => void }) {
  const toast = useToast();
  const [title, setTitle] = useState('');
  const [nav, setNav] = useState(true);
  const [status, setStatus] = useState('');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setStatus('');
    try {
      const me = await api<{ websiteId: string }>('GET', '/api/auth/me');
      const s = await createStore(api, { websiteId: me.websiteId, title, addToNavigation: nav });
      setStatus(`Store created at /${s.urlId}.`);
      toast(`Store created at /${s.urlId}.`);
      setTitle('');
      onCreated();
    } catch (err) {
      setStatus(err instanceof Error ? err.message : String(err));
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} aria-label="Create a store" className="a-card a-form">
      <h2>Create a store</h2>
      <label>
        Store title
        <input value={title} onChange={(e) => setTitle(e.target.value)} required />
      </label>
      <label className="a-check">
        <input type="checkbox" checked={nav} onChange={(e) => setNav(e.target.checked)} /> Add to the main navigation
      </label>
      <button type="submit">Create store</button>
      {status ? <p role="status">{status}</p> : null}
    </form>
  );
}

export function ProductList({ settings }: { settings: CatalogSettings }) {
  const toast = useToast();
  const qc = useQueryClient();
  const [q, setQ] = useState('');
  const [search, setSearch] = useState('');
  const [filters, setFilters] = useState(NO_FILTERS);
  const { collectionId, status, type, stock, sort } = filters;
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Set<string>>(new Set());

  const params = new URLSearchParams({ q: search, sort, page: String(page) });
  if (collectionId) params.set('collectionId', collectionId);
  if (status) params.set('status', status);
  if (type) params.set('type', type);
  if (stock) params.set('stock', stock);
  const list = useQuery({
    queryKey: ['catalog-products', params.toString()],
    queryFn: () => api<ProductListAnswer>('GET', `/api/config/catalog/products?${params}`),
    placeholderData: keepPreviousData,
  });
  const stores = useQuery({ queryKey: ['stores'], queryFn: () => api<{ stores: Store[] }>('GET', '/api/config/stores') });
  const reload = () => {
    void qc.invalidateQueries({ queryKey: ['catalog-products'] });
    void qc.invalidateQueries({ queryKey: ['stores'] });
  };
  // Filters start again from the first page.
  useEffect(() => setPage(1), [search, filters]);
  useEffect(() => {
    const t = setTimeout(() => setSearch(q.trim()), 250);
    return () => clearTimeout(t);
  }, [q]);

  const rows = list.data?.products ?? [];
  const money = (n: number) => formatMoney(n, settings.currency);
  const price = (r: Row) =>
    r.minPriceCents === r.maxPriceCents ? money(r.minPriceCents) : `${money(r.minPriceCents)} – ${money(r.maxPriceCents)}`;

  const bulk = async (action: ProductBulkInput['action'], moveTo: string) => {
    const ids = [...selected];
    const target = (stores.data?.stores ?? []).find((s) => s.id === moveTo);
    try {
      await api('POST', '/api/config/catalog/products/bulk', {
        action,
        ids,
        ...(action === 'move' ? { collectionId: moveTo } : {}),
      } satisfies ProductBulkInput);
      const n = ids.length;
      const done = {
        publish: 'published',
        unpublish: 'set to draft',
        archive: 'archived',
        unarchive: 'unarchived as drafts',
        move: `moved to ${target?.title ?? 'the store page'}`,
        delete: 'deleted',
      }[action];
      toast(`${n} product${n === 1 ? '' : 's'} ${done}.`);
      setSelected(new Set());
      reload();
    } catch (e) {
      toast(e instanceof Error ? e.message : String(e), { tone: 'error' });
    }
  };

  return (
    <>
      <PageHeader
        title="Products"
        description="Everything you sell, across your stores."
        actions={
          <>
            <a className="a-button" href="/config/products/import">
              Import / export
            </a>
            <a className="a-button" href="/config/inventory">
              Inventory
            </a>
            <a className="a-button a-button--primary" href="/config/products/new">
              Add product
            </a>
          </>
        }
      />
      <section className="a-card cat-list" aria-label="Product list">
        <div className="cat-toolbar" role="search">
          <label className="cat-search">
            <span className="visually-hidden">Search products</span>
            <input type="search" placeholder="Search by title, SKU or tag" value={q} onChange={(e) => setQ(e.target.value)} />
          </label>
          <ProductFilters filters={filters} onChange={setFilters} stores={stores.data?.stores ?? []} />
        </div>

        {selected.size > 0 ? <BulkBar selected={selected} rows={rows} stores={stores.data?.stores ?? []} onAction={bulk} /> : null}

        {list.isPending ? (
          <Skeleton lines={6} label="Loading products" />
        ) : list.isError ? (
          <p role="alert">{list.error.message}</p>
        ) : rows.length === 0 ? (
          <EmptyState
            title={search || status || type || stock || collectionId ? 'No products match' : 'Add your first product'}
            action={<a href="/config/products/new">Add product</a>}
          >
            {search || status || type || stock || collectionId
              ? 'Try another search or clear the filters.'
              : 'Products you add appear here.'}
          </EmptyState>
        ) : (
          <>
            <ProductTable answer={list.data} rows={rows} selected={selected} onSelect={setSelected} price={price} onSaved={reload} />
            <nav className="cat-pages" aria-label="Pages">
              <span className="a-muted">
                {list.data.total} product{list.data.total === 1 ? '' : 's'} · page {list.data.page} of {list.data.pages}
              </span>
              <button type="button" disabled={list.data.page <= 1} onClick={() => setPage(list.data.page - 1)}>
                Previous page
              </button>
              <button type="button" disabled={list.data.page >= list.data.pages} onClick={() => setPage(list.data.page + 1)}>
                Next page
              </button>
            </nav>
          </>
        )}
      </section>
      <StoreCreator onCreated={reload} />
    </>
  );
}

const NO_FILTERS = { collectionId: '', status: '', type: '', stock: '', sort: '-updated' };
type Filters = typeof NO_FILTERS;

/** The store, status, type, stock and sort choices of the list. */
function ProductFilters({ filters, onChange, stores }: { filters: Filters; onChange: (f: Filters) => void; stores: Store[] }) {
  const set = (change: Partial<Filters>) => onChange({ ...filters, ...change });
  return (
    <>
      <label>
        <span className="visually-hidden">Store</span>
        <select value={filters.collectionId} onChange={(e) => set({ collectionId: e.target.value })} aria-label="Store">
          <option value="">All stores</option>
          {stores.map((s) => (
            <option key={s.id} value={s.id}>
              {s.title}
            </option>
          ))}
        </select>
      </label>
      <select value={filters.status} onChange={(e) => set({ status: e.target.value })} aria-label="Status">
        <option value="">Any status</option>
        <option value="published">Active</option>
        <option value="draft">Draft</option>
        <option value="scheduled">Scheduled</option>
        <option value="archived">Archived</option>
      </select>
      <select value={filters.type} onChange={(e) => set({ type: e.target.value })} aria-label="Product type">
        <option value="">Any type</option>
        {Object.entries(TYPES).map(([n, l]) => (
          <option key={n} value={n}>
            {l}
          </option>
        ))}
      </select>
      <select value={filters.stock} onChange={(e) => set({ stock: e.target.value })} aria-label="Stock">
        <option value="">Any stock</option>
        <option value="in">In stock</option>
        <option value="low">Low stock</option>
        <option value="out">Out of stock</option>
      </select>
      <select value={filters.sort} onChange={(e) => set({ sort: e.target.value })} aria-label="Sort by">
        <option value="-updated">Recently updated</option>
        <option value="title">Title A–Z</option>
        <option value="-title">Title Z–A</option>
        <option value="price">Price, low to high</option>
        <option value="-price">Price, high to low</option>
        <option value="stock">Stock, low to high</option>
        <option value="-stock">Stock, high to low</option>
      </select>
    </>
  );
}

/** What can be done to the selected products at once. */
function BulkBar({
  selected,
  rows,
  stores,
  onAction,
}: {
  selected: Set<string>;
  rows: Row[];
  stores: Store[];
  onAction: (action: ProductBulkInput['action'], moveTo: string) => Promise<void>;
}) {
  const [moveTo, setMoveTo] = useState('');
  return (
    <div className="cat-bulkbar" role="region" aria-label="Bulk actions">
      <span>{selected.size} selected</span>
      <button type="button" onClick={() => void onAction('publish', moveTo)}>
        Publish
      </button>
      <button type="button" onClick={() => void onAction('unpublish', moveTo)}>
        Unpublish
      </button>
      <a className="a-button" href={`/config/products/bulk-edit?ids=${[...selected].map(encodeURIComponent).join(',')}`}>
        Edit in bulk
      </a>
      {rows.some((r) => selected.has(r.id) && r.status !== 'archived') ? (
        <button type="button" onClick={() => void onAction('archive', moveTo)}>
          Archive
        </button>
      ) : null}
      {rows.some((r) => selected.has(r.id) && r.status === 'archived') ? (
        <button type="button" onClick={() => void onAction('unarchive', moveTo)}>
          Unarchive
        </button>
      ) : null}
      <span className="cat-bulkbar__move">
        <select value={moveTo} onChange={(e) => setMoveTo(e.target.value)} aria-label="Move to store page">
          <option value="">Move to…</option>
          {stores.map((s) => (
            <option key={s.id} value={s.id}>
              {s.title}
            </option>
          ))}
        </select>
        <button type="button" disabled={!moveTo} onClick={() => void onAction('move', moveTo)}>
          Move
        </button>
      </span>
      <ConfirmDialog
        trigger={
          <button type="button" className="a-button--danger">
            Delete
          </button>
        }
        title={`Delete ${selected.size} product${selected.size === 1 ? '' : 's'}?`}
        description="They are removed from your stores with their variants. This cannot be undone."
        confirm="Delete"
        onConfirm={() => onAction('delete', moveTo)}
      />
    </div>
  );
}

/** One page of products, each with its checkbox, stock and price. */
function ProductTable({
  answer,
  rows,
  selected,
  onSelect,
  price,
  onSaved,
}: {
  answer: ProductListAnswer;
  rows: Row[];
  selected: Set<string>;
  onSelect: (s: Set<string>) => void;
  price: (r: Row) => string;
  onSaved: () => void;
}) {
  const allOnPage = rows.length > 0 && rows.every((r) => selected.has(r.id));
  const toggle = (id: string) => onSelect(selected.has(id) ? new Set([...selected].filter((x) => x !== id)) : new Set([...selected, id]));
  return (
    <table className="cat-table">
      <caption className="visually-hidden">
        Products, page {answer.page} of {answer.pages}
      </caption>
      <ColumnHeads
        columns={['Product', 'Status', 'Inventory', 'Price', 'Type', 'Store']}
        first={
          <th scope="col" className="cat-table__check">
            <input
              type="checkbox"
              aria-label="Select all products on this page"
              checked={allOnPage}
              onChange={() => onSelect(allOnPage ? new Set() : new Set(rows.map((r) => r.id)))}
            />
          </th>
        }
      />
      <tbody>
        {rows.map((r) => (
          <tr key={r.id} className={selected.has(r.id) ? 'is-selected' : ''}>
            <td className="cat-table__check">
              <input type="checkbox" aria-label={`Select ${r.title}`} checked={selected.has(r.id)} onChange={() => toggle(r.id)} />
            </td>
            <td className="cat-table__product">
              <div className="cat-table__product-inner">
                {r.thumbnail ? (
                  <img
                    src={`${r.thumbnail.url}${r.thumbnail.url.startsWith('/uploads/') ? '?format=100w' : ''}`}
                    alt=""
                    width={40}
                    height={40}
                    loading="lazy"
                  />
                ) : (
                  <span className="cat-thumb-empty" aria-hidden="true" />
                )}
                <a href={`/config/products/${r.id}`}>{r.title}</a>
              </div>
            </td>
            <td data-label="Status">
              <StatusBadge status={r.status} />
            </td>
            <td data-label="Inventory">
              <StockCell row={r} onSaved={onSaved} />
            </td>
            <td data-label="Price">{price(r)}</td>
            <td data-label="Type">{TYPES[r.productType] ?? 'Physical'}</td>
            <td data-label="Store">{r.storeTitle}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

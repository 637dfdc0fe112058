/** /config/products: the stores and their products; create a store; create and edit a product with its variants. */
import { useEffect, useState, type FormEvent } from 'react';
import { api, ApiError } from '../client/api.js';
import { createStore } from './store-creation.js';

interface Store {
  id: string;
  title: string;
  urlId: string;
}
interface ProductRow {
  id: string;
  collectionId: string;
  title: string;
  urlId: string;
  status: string;
  variantCount: number;
  stock: number | null;
  minPriceCents: number;
}
interface Variant {
  id?: string;
  sku: string;
  attributes: Record<string, string>;
  priceCents: number;
  salePriceCents: number;
  onSale: boolean;
  qtyInStock: number;
  unlimited: boolean;
}
interface Product {
  id?: string;
  version?: number;
  collectionId: string;
  title: string;
  urlId?: string;
  body: string;
  status: string;
  productType: number;
  images: Array<{ assetUrl: string; altText: string }>;
  isSubscribable: boolean;
  subscriptionPlan: { billingPeriod: { value: number; unit: string }; numBillingCycles: number } | null;
  additionalFieldsFormId: string | null;
  variantOptionOrdering: string[];
  variants: Variant[];
}

const PRODUCT_TYPES: Array<[number, string]> = [
  [1, 'Physical'],
  [2, 'Digital'],
  [3, 'Service'],
  [4, 'Gift card'],
];

const toCents = (s: string) => Math.round(Number(s.replace(',', '.')) * 100);
const fromCents = (n: number) => (n / 100).toFixed(2);

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function StoreCreator({ websiteId, onCreated }: { websiteId: string; onCreated: () => void }) {
  const [title, setTitle] = useState('');
  const [nav, setNav] = useState(true);
  const [status, setStatus] = useState('');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setStatus('');
    try {
      const s = await createStore(api, { websiteId, title, addToNavigation: nav });
      setStatus(`Store created at /${s.urlId}.`);
      setTitle('');
      onCreated();
    } catch (err) {
      setStatus(message(err));
    }
  };
  return (
    <form onSubmit={submit} aria-label="Create a store" className="admin-card">
      <h2>Create a store</h2>
      <label>
        Store title
        <input value={title} onChange={(e) => setTitle(e.target.value)} required />
      </label>
      <label className="admin-check">
        <input type="checkbox" checked={nav} onChange={(e) => setNav(e.target.checked)} /> Add to the main navigation
      </label>
      <button type="submit">Create store</button>
      {status ? <p role="status">{status}</p> : null}
    </form>
  );
}

function ProductList() {
  const [stores, setStores] = useState<Store[]>([]);
  const [products, setProducts] = useState<ProductRow[]>([]);
  const [websiteId, setWebsiteId] = useState('');
  const [error, setError] = useState('');
  const load = () => {
    api<{ stores: Store[] }>('GET', '/api/config/stores').then((r) => setStores(r.stores), (e) => setError(message(e)));
    api<{ products: ProductRow[] }>('GET', '/api/config/products').then((r) => setProducts(r.products), (e) => setError(message(e)));
  };
  useEffect(() => {
    load();
    api<{ websiteId: string }>('GET', '/api/auth/me').then((m) => setWebsiteId(m.websiteId), () => undefined);
  }, []);
  return (
    <>
      <h1>Products</h1>
      {error ? <p role="alert">{error}</p> : null}
      <p>
        <a href="/config/products/new">Add a product</a>
      </p>
      {stores.map((s) => (
        <section key={s.id} aria-label={`Store ${s.title}`}>
          <h2>
            {s.title} <small>/{s.urlId}</small>
          </h2>
          <table>
            <thead>
              <tr>
                <th scope="col">Product</th>
                <th scope="col">Status</th>
                <th scope="col">Variants</th>
                <th scope="col">Stock</th>
                <th scope="col">From</th>
              </tr>
            </thead>
            <tbody>
              {products
                .filter((p) => p.collectionId === s.id)
                .map((p) => (
                  <tr key={p.id}>
                    <td>
                      <a href={`/config/products/${p.id}`}>{p.title}</a>
                    </td>
                    <td>{p.status}</td>
                    <td>{p.variantCount}</td>
                    <td>{p.stock === null ? 'Unlimited' : p.stock}</td>
                    <td>{fromCents(p.minPriceCents)}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </section>
      ))}
      {websiteId ? <StoreCreator websiteId={websiteId} onCreated={load} /> : null}
    </>
  );
}

function blankVariant(options: string[]): Variant {
  return { sku: '', attributes: Object.fromEntries(options.map((o) => [o, ''])), priceCents: 0, salePriceCents: 0, onSale: false, qtyInStock: 0, unlimited: false };
}

function ProductEditor({ id }: { id: string | null }) {
  const [p, setP] = useState<Product | null>(null);
  const [stores, setStores] = useState<Store[]>([]);
  const [error, setError] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState('');
  const [optionsText, setOptionsText] = useState('');
  useEffect(() => {
    api<{ stores: Store[] }>('GET', '/api/config/stores').then((r) => {
      setStores(r.stores);
      if (!id)
        setP({
          collectionId: r.stores[0]?.id ?? '',
          title: '',
          body: '',
          status: 'published',
          productType: 1,
          images: [],
          isSubscribable: false,
          subscriptionPlan: null,
          additionalFieldsFormId: null,
          variantOptionOrdering: [],
          variants: [blankVariant([])],
        });
    }, (e) => setError(message(e)));
    if (id)
      api<Product>('GET', `/api/config/products/${id}`).then((x) => {
        setP(x);
        setOptionsText(x.variantOptionOrdering.join(', '));
      }, (e) => setError(message(e)));
  }, [id]);
  if (!p) return <p>{error || 'Loading…'}</p>;
  const set = (patch: Partial<Product>) => setP({ ...p, ...patch });
  const setVariant = (i: number, patch: Partial<Variant>) => set({ variants: p.variants.map((v, j) => (j === i ? { ...v, ...patch } : v)) });
  const options = p.variantOptionOrdering;
  const save = async (e: FormEvent) => {
    e.preventDefault();
    setError('');
    setErrors({});
    setStatus('');
    try {
      const saved = id ? await api<Product>('PUT', `/api/config/products/${id}`, p) : await api<Product>('POST', '/api/config/products', p);
      setStatus('Saved.');
      if (!id) window.location.assign(`/config/products/${saved.id}`);
      else setP(saved);
    } catch (err) {
      setError(message(err));
      if (err instanceof ApiError && err.data.errors) setErrors(err.data.errors as Record<string, string>);
    }
  };
  return (
    <form onSubmit={save} aria-label={id ? 'Edit product' : 'New product'} noValidate>
      <h1>{id ? `Edit ${p.title}` : 'New product'}</h1>
      <p>
        <a href="/config/products">All products</a>
      </p>
      {error ? <p role="alert">{error}</p> : null}
      <label>
        Title
        <input value={p.title} onChange={(e) => set({ title: e.target.value })} aria-invalid={!!errors.title} />
      </label>
      <label>
        Store
        <select value={p.collectionId} onChange={(e) => set({ collectionId: e.target.value })}>
          {stores.map((s) => (
            <option key={s.id} value={s.id}>
              {s.title}
            </option>
          ))}
        </select>
      </label>
      <label>
        Product type
        <select value={p.productType} onChange={(e) => set({ productType: Number(e.target.value) })}>
          {PRODUCT_TYPES.map(([n, l]) => (
            <option key={n} value={n}>
              {l}
            </option>
          ))}
        </select>
      </label>
      <label>
        Status
        <select value={p.status} onChange={(e) => set({ status: e.target.value })}>
          <option value="published">Published</option>
          <option value="draft">Draft</option>
          <option value="private">Private</option>
        </select>
      </label>
      <label>
        Description
        <textarea value={p.body} onChange={(e) => set({ body: e.target.value })} rows={4} />
      </label>
      <label>
        Image URL
        <input
          value={p.images[0]?.assetUrl ?? ''}
          onChange={(e) => set({ images: e.target.value ? [{ assetUrl: e.target.value, altText: p.images[0]?.altText ?? p.title }] : [] })}
        />
      </label>
      <label>
        Additional-fields form id
        <input value={p.additionalFieldsFormId ?? ''} onChange={(e) => set({ additionalFieldsFormId: e.target.value || null })} />
      </label>
      <fieldset>
        <legend>Subscription</legend>
        <label className="admin-check">
          <input
            type="checkbox"
            checked={p.isSubscribable}
            onChange={(e) => set({ isSubscribable: e.target.checked, subscriptionPlan: e.target.checked ? (p.subscriptionPlan ?? { billingPeriod: { value: 1, unit: 'MONTH' }, numBillingCycles: 0 }) : null })}
          />{' '}
          Sold as a subscription
        </label>
        {p.isSubscribable && p.subscriptionPlan ? (
          <>
            <label>
              Every
              <input
                type="number"
                min={1}
                value={p.subscriptionPlan.billingPeriod.value}
                onChange={(e) => set({ subscriptionPlan: { ...p.subscriptionPlan!, billingPeriod: { ...p.subscriptionPlan!.billingPeriod, value: Number(e.target.value) } } })}
              />
            </label>
            <label>
              Period
              <select
                value={p.subscriptionPlan.billingPeriod.unit}
                onChange={(e) => set({ subscriptionPlan: { ...p.subscriptionPlan!, billingPeriod: { ...p.subscriptionPlan!.billingPeriod, unit: e.target.value } } })}
              >
                <option value="WEEK">Weeks</option>
                <option value="MONTH">Months</option>
                <option value="YEAR">Years</option>
              </select>
            </label>
            <label>
              Number of payments (0 = until cancelled)
              <input
                type="number"
                min={0}
                value={p.subscriptionPlan.numBillingCycles}
                onChange={(e) => set({ subscriptionPlan: { ...p.subscriptionPlan!, numBillingCycles: Number(e.target.value) } })}
              />
            </label>
          </>
        ) : null}
      </fieldset>
      <fieldset>
        <legend>Variants</legend>
        <label>
          Options (comma separated, such as Size, Color)
          <input
            value={optionsText}
            onChange={(e) => {
              setOptionsText(e.target.value);
              const names = e.target.value
                .split(',')
                .map((s) => s.trim())
                .filter(Boolean);
              set({
                variantOptionOrdering: names,
                variants: p.variants.map((v) => ({ ...v, attributes: Object.fromEntries(names.map((n) => [n, v.attributes[n] ?? ''])) })),
              });
            }}
          />
        </label>
        {errors.variantOptionOrdering ? <p role="alert">{errors.variantOptionOrdering}</p> : null}
        {p.variants.map((v, i) => (
          <fieldset key={v.id ?? `new-${i}`} className="admin-variant">
            <legend>Variant {i + 1}</legend>
            <label>
              SKU
              <input value={v.sku} onChange={(e) => setVariant(i, { sku: e.target.value })} />
            </label>
            {options.map((o) => (
              <label key={o}>
                {o}
                <input value={v.attributes[o] ?? ''} onChange={(e) => setVariant(i, { attributes: { ...v.attributes, [o]: e.target.value } })} />
              </label>
            ))}
            <label>
              Price
              <input inputMode="decimal" defaultValue={fromCents(v.priceCents)} onChange={(e) => setVariant(i, { priceCents: toCents(e.target.value) })} />
            </label>
            <label className="admin-check">
              <input type="checkbox" checked={v.onSale} onChange={(e) => setVariant(i, { onSale: e.target.checked })} /> On sale
            </label>
            <label>
              Sale price
              <input inputMode="decimal" defaultValue={fromCents(v.salePriceCents)} onChange={(e) => setVariant(i, { salePriceCents: toCents(e.target.value) })} />
            </label>
            <label>
              Stock
              <input type="number" min={0} value={v.qtyInStock} disabled={v.unlimited} onChange={(e) => setVariant(i, { qtyInStock: Number(e.target.value) })} />
            </label>
            <label className="admin-check">
              <input type="checkbox" checked={v.unlimited} onChange={(e) => setVariant(i, { unlimited: e.target.checked })} /> Unlimited stock
            </label>
            {p.variants.length > 1 ? (
              <button type="button" onClick={() => set({ variants: p.variants.filter((_, j) => j !== i) })}>
                Remove variant {i + 1}
              </button>
            ) : null}
          </fieldset>
        ))}
        <button type="button" onClick={() => set({ variants: [...p.variants, blankVariant(options)] })}>
          Add variant
        </button>
      </fieldset>
      <p>
        <button type="submit">Save product</button>
      </p>
      {status ? <p role="status">{status}</p> : null}
    </form>
  );
}

export function ProductsScreen({ path }: { path: string }) {
  const m = path.match(/^\/config\/products\/([^/]+)$/);
  if (!m) return <ProductList />;
  return <ProductEditor id={m[1] === 'new' ? null : m[1]!} />;
}

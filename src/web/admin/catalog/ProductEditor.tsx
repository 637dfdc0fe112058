/**
 * /config/products/new and /config/products/:id: the product editor (issue 24). Title and description (the page
 * editor's rich-text field; the server cleans it with the site's allow-list), media, options generating the variant
 * matrix with per-variant price, sale price, SKU, stock, weight and image; URL slug; search-result title and
 * description with a preview; tags and categories; status draft, scheduled (site time zone) or published. A bar
 * shows unsaved changes; leaving with unsaved changes asks first.
 */
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { api, ApiError } from '../../client/api.js';
import { PageHeader, Skeleton, useToast, ConfirmDialog } from '../ui/design.js';
import { ArchiveCard, DuplicateDialog } from './ProductActions.js';
import { RichText } from '../content/editor/RichText.js';
import { slugify } from '../../../core/slug.js';
import { MediaGallery, type ProductImage } from './MediaGallery.js';
import { TypeDetails, planOf, type SubscriptionPlan } from './TypeDetails.js';
import { CatField as Field } from './CatField.js';
import {
  SEO_DESCRIPTION_MAX,
  SEO_TITLE_MAX,
  shipsAsParcel,
  type CatalogSettings,
  type StoreSummary as Store,
} from '../../../core/api/catalog.js';
import {
  DIMENSION_UNITS,
  draftOf,
  isoToZoned,
  optionsOf,
  regenerate,
  serverVariant,
  suggestSku,
  zonedToIso,
  type DimensionUnit,
  type DraftVariant,
  type ProductOption,
  type ServerVariant,
} from './model.js';

const TAG_MAX = 50;
/** How long after the last edit a draft is saved by itself. */
export const AUTOSAVE_MS = 1500;
const CATEGORY_MAX = 25;

interface ServerProduct {
  id?: string;
  version?: number;
  collectionId: string;
  title: string;
  urlId?: string;
  body: string;
  status: string;
  publishOn?: string;
  productType: number;
  images: ProductImage[];
  tags: string[];
  categories: string[];
  seoTitle: string;
  seoDescription: string;
  isSubscribable: boolean;
  subscriptionPlan: unknown;
  additionalFieldsFormId: string | null;
  variantOptionOrdering: string[];
  useCustomAddButtonText?: boolean;
  customAddButtonText?: string;
  variants: ServerVariant[];
}

interface Draft {
  collectionId: string;
  title: string;
  urlId: string;
  urlAuto: boolean;
  body: string;
  status: string;
  scheduleAt: string;
  productType: number;
  images: ProductImage[];
  tags: string[];
  categories: string[];
  seoTitle: string;
  seoDescription: string;
  options: ProductOption[];
  variants: DraftVariant[];
  isSubscribable: boolean;
  plan: SubscriptionPlan;
  formId: string | null;
}

const PRODUCT_TYPES: Array<[number, string]> = [
  [1, 'Physical'],
  [2, 'Digital'],
  [3, 'Service'],
  [4, 'Gift card'],
];

/** A list of short words (tags, categories) typed with Enter or a comma; each removable. */
function WordList({
  label,
  words,
  max,
  onChange,
  error,
}: {
  label: string;
  words: string[];
  max: number;
  onChange: (w: string[]) => void;
  error?: string;
}) {
  const [text, setText] = useState('');
  const [local, setLocal] = useState('');
  const id = `cat-${slugify(label)}`;
  const add = () => {
    const w = text.trim().replace(/,$/, '').trim();
    if (!w) return;
    if ([...w].length > max) {
      setLocal(`${label.replace(/s$/, '')} must be ${max} characters or fewer.`);
      return;
    }
    setLocal('');
    if (!words.some((x) => x.toLowerCase() === w.toLowerCase())) onChange([...words, w]);
    setText('');
  };
  return (
    <Field label={label} id={id} error={local || error} hint={`Press Enter to add. Up to ${max} characters each.`}>
      <input
        id={id}
        value={text}
        aria-describedby={`${id}-hint`}
        onChange={(e) => (e.target.value.endsWith(',') ? (setText(e.target.value.slice(0, -1)), setTimeout(add)) : setText(e.target.value))}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            add();
          }
        }}
        onBlur={add}
      />
      {words.length ? (
        <ul className="cat-chips" aria-label={label}>
          {words.map((w) => (
            <li key={w}>
              {w}
              <button type="button" aria-label={`Remove ${w}`} onClick={() => onChange(words.filter((x) => x !== w))}>
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </Field>
  );
}

function draftFrom(p: ServerProduct, s: CatalogSettings): Draft {
  return {
    collectionId: p.collectionId,
    title: p.title,
    urlId: p.urlId ?? '',
    urlAuto: !p.id,
    body: p.body,
    status: p.status,
    scheduleAt: p.publishOn && p.status === 'scheduled' ? isoToZoned(p.publishOn, s.timeZone) : '',
    productType: p.productType,
    images: p.images,
    tags: p.tags ?? [],
    categories: p.categories ?? [],
    seoTitle: p.seoTitle ?? '',
    seoDescription: p.seoDescription ?? '',
    options: optionsOf(p.variantOptionOrdering, p.variants),
    variants: p.variants.map((v) => draftOf(v, s.currency)),
    isSubscribable: p.isSubscribable,
    plan: planOf(p.subscriptionPlan),
    formId: p.additionalFieldsFormId,
  };
}

const variantLabel = (v: DraftVariant) => Object.values(v.attributes).join(' / ') || 'Default';

export function ProductEditor({ id, settings }: { id: string | null; settings: CatalogSettings }) {
  const toast = useToast();
  const [server, setServer] = useState<ServerProduct | null>(null);
  const [stores, setStores] = useState<Store[]>([]);
  const [d, setD] = useState<Draft | null>(null);
  const [saved, setSaved] = useState<string>('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);
  const [newValue, setNewValue] = useState<Record<number, string>>({});
  const initial = useRef<string>('');
  /** Set just before the editor itself navigates away (after a save or a delete): no unsaved-changes question. */
  const leaving = useRef(false);

  useEffect(() => {
    api<{ stores: Store[] }>('GET', '/api/config/stores').then(
      (r) => {
        setStores(r.stores);
        if (!id) {
          const blank: ServerProduct = {
            collectionId: r.stores[0]?.id ?? '',
            title: '',
            body: '',
            status: 'draft',
            productType: 1,
            images: [],
            tags: [],
            categories: [],
            seoTitle: '',
            seoDescription: '',
            isSubscribable: false,
            subscriptionPlan: null,
            additionalFieldsFormId: null,
            variantOptionOrdering: [],
            variants: [
              {
                sku: '',
                attributes: {},
                priceCents: 0,
                salePriceCents: 0,
                onSale: false,
                qtyInStock: 0,
                unlimited: false,
                weightGrams: 0,
                dimensions: null,
                imageUrl: '',
                lowStockThreshold: 0,
              },
            ],
          };
          const draft = draftFrom(blank, settings);
          draft.variants = draft.variants.map((v) => ({ ...v, skuAuto: true, price: '' }));
          setServer(blank);
          setD(draft);
          initial.current = JSON.stringify(draft);
        }
      },
      (e: Error) => setError(e.message),
    );
    if (id)
      api<ServerProduct>('GET', `/api/config/products/${encodeURIComponent(id)}`).then(
        (p) => {
          const draft = draftFrom(p, settings);
          setServer(p);
          setD(draft);
          initial.current = JSON.stringify(draft);
        },
        (e: Error) => setError(e.message),
      );
  }, [id, settings]);

  const dirty = !!d && JSON.stringify(d) !== initial.current;
  useEffect(() => {
    if (!dirty) return;
    const onLeave = (e: BeforeUnloadEvent) => {
      if (leaving.current) return;
      e.preventDefault();
      e.returnValue = '';
    };
    // Links inside the admin are page loads: ask before following one with unsaved changes.
    const onClick = (e: MouseEvent) => {
      const a = (e.target as Element | null)?.closest?.('a[href]');
      if (leaving.current || !a || e.defaultPrevented || a.getAttribute('target') === '_blank') return;
      if (!window.confirm('You have unsaved changes. Leave this page and lose them?')) e.preventDefault();
    };
    window.addEventListener('beforeunload', onLeave);
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', onLeave);
      document.removeEventListener('click', onClick, true);
    };
  }, [dirty]);

  // Autosave: a saved draft that stays a draft is saved AUTOSAVE_MS after the last edit. A published, scheduled
  // or new product is never written without Save (or Publish).
  const autosave = useRef<() => void>(() => undefined);
  const draftJson = d ? JSON.stringify(d) : '';
  const canAutosave = !!id && !!d && !!server && server.status === 'draft' && d.status === 'draft' && dirty && !saving;
  useEffect(() => {
    if (!canAutosave) return;
    const timer = setTimeout(() => autosave.current(), AUTOSAVE_MS);
    return () => clearTimeout(timer);
  }, [canAutosave, draftJson]);

  const storeUrl = useMemo(() => stores.find((s) => s.id === d?.collectionId)?.urlId ?? 'shop', [stores, d?.collectionId]);

  if (!d || !server) return error ? <p role="alert">{error}</p> : <Skeleton lines={6} label="Loading the product" />;

  const set = (patch: Partial<Draft>) => setD((x) => (x ? { ...x, ...patch } : x));
  const setTitle = (title: string) =>
    setD((x) =>
      x
        ? {
            ...x,
            title,
            urlId: x.urlAuto ? slugify(title) : x.urlId,
            variants: x.variants.map((v) => (v.skuAuto ? { ...v, sku: suggestSku(title, v.attributes) } : v)),
          }
        : x,
    );
  const setOptions = (options: ProductOption[]) =>
    setD((x) => (x ? { ...x, options, variants: regenerate(x.title, options, x.variants) } : x));
  const setVariant = (i: number, patch: Partial<DraftVariant>) =>
    setD((x) => (x ? { ...x, variants: x.variants.map((v, j) => (j === i ? { ...v, ...patch } : v)) } : x));
  const err = (k: string) => errors[k];

  const submit = async (e?: FormEvent, statusOverride?: string, auto = false) => {
    e?.preventDefault();
    setError('');
    setErrors({});
    const status = statusOverride ?? d.status;
    const local: Record<string, string> = {};
    const variants = d.variants.map((v, i) => {
      const r = serverVariant(v, settings.currency, i);
      Object.assign(local, r.errors);
      return r.variant;
    });
    let publishOn: string | undefined;
    if (status === 'scheduled') {
      publishOn = zonedToIso(d.scheduleAt, settings.timeZone) ?? undefined;
      if (!publishOn) local.publishOn = 'Choose the date and time to publish.';
    }
    if (Object.keys(local).length) {
      setErrors(local);
      setError('Some fields need attention.');
      return;
    }
    const options = d.options.filter((o) => o.name.trim() && o.values.length);
    const body = {
      ...server,
      version: server.version,
      collectionId: d.collectionId,
      title: d.title,
      urlId: d.urlAuto && !id ? '' : d.urlId,
      body: d.body,
      status,
      ...(publishOn ? { publishOn } : {}),
      productType: d.productType,
      images: d.images,
      tags: d.tags,
      categories: d.categories,
      seoTitle: d.seoTitle,
      seoDescription: d.seoDescription,
      variantOptionOrdering: options.map((o) => o.name.trim()),
      variants,
      isSubscribable: d.isSubscribable && (d.productType === 1 || d.productType === 3),
      subscriptionPlan: d.isSubscribable ? d.plan : server.subscriptionPlan,
      additionalFieldsFormId: d.formId,
    };
    delete (body as Partial<ServerProduct> & { excerpt?: string }).excerpt;
    setSaving(true);
    try {
      const out = id
        ? await api<ServerProduct>('PUT', `/api/config/products/${encodeURIComponent(id)}`, body)
        : await api<ServerProduct>('POST', '/api/config/products', body);
      const draft = draftFrom(out, settings);
      initial.current = JSON.stringify(draft);
      setServer(out);
      setD(draft);
      setSaved(auto ? 'autosaved' : status);
      if (!auto) toast(status === 'published' ? 'Product published.' : status === 'scheduled' ? 'Product scheduled.' : 'Product saved.');
      if (!id) {
        leaving.current = true;
        window.location.assign(`/config/products/${out.id}`);
      }
    } catch (x) {
      const msg = x instanceof Error ? x.message : String(x);
      setError(msg);
      if (x instanceof ApiError && x.data.errors) setErrors(x.data.errors as Record<string, string>);
      if (!auto) toast(msg, { tone: 'error' });
    } finally {
      setSaving(false);
    }
  };

  autosave.current = () => void submit(undefined, undefined, true);

  const optionNames = d.options.map((o) => o.name.trim()).filter(Boolean);
  const seoTitle = d.seoTitle || d.title || 'Product title';
  const seoDesc =
    d.seoDescription ||
    d.body
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 160) ||
    'Add a description to show in search results.';
  const live = server.status === 'published' && server.urlId;
  // Digital products and gift cards are not sent as parcels: no weight or dimensions to ask for.
  const parcel = shipsAsParcel(d.productType);

  return (
    <form className="cat-editor" aria-label={id ? 'Edit product' : 'New product'} onSubmit={(e) => void submit(e)} noValidate>
      <PageHeader
        title={id ? server.title : 'Add product'}
        breadcrumbs={[{ label: 'Products', href: '/config/products' }, { label: id ? server.title : 'Add product' }]}
        actions={
          <>
            {id ? <DuplicateDialog id={id} title={server.title} dirty={dirty} onLeave={() => (leaving.current = true)} /> : null}
            {live ? (
              <a className="a-button" href={`/${storeUrl}/p/${server.urlId}`} target="_blank" rel="noreferrer">
                View on site
              </a>
            ) : null}
          </>
        }
      />
      <div className={`cat-savebar${dirty ? ' is-dirty' : ''}`} role="region" aria-label="Save">
        <span role="status">
          {dirty
            ? canAutosave
              ? 'Unsaved changes (draft saves automatically)'
              : 'Unsaved changes'
            : saved === 'autosaved'
              ? 'Draft saved automatically'
              : saved
                ? 'All changes saved'
                : ''}
        </span>
        <span className="cat-savebar__actions">
          {dirty ? (
            <button type="button" onClick={() => setD(JSON.parse(initial.current) as Draft)}>
              Discard
            </button>
          ) : null}
          <button type="submit" disabled={saving}>
            {saving ? 'Saving…' : 'Save'}
          </button>
        </span>
      </div>
      {error ? <p role="alert">{error}</p> : null}

      <div className="cat-editor__cols">
        <div className="cat-editor__main">
          <section className="a-card" aria-labelledby="cat-basics">
            <h2 id="cat-basics" className="visually-hidden">
              Title and description
            </h2>
            <Field label="Title" id="cat-title" error={err('title')}>
              <input
                id="cat-title"
                value={d.title}
                onChange={(e) => setTitle(e.target.value)}
                aria-invalid={!!err('title')}
                maxLength={200}
                placeholder="Short sleeve t-shirt"
              />
            </Field>
            <RichText label="Description" value={d.body} onChange={(html) => set({ body: html })} error={err('body')} />
          </section>

          <section className="a-card" aria-labelledby="cat-media-h">
            <h2 id="cat-media-h">Media</h2>
            <MediaGallery
              images={d.images}
              onChange={(images) =>
                set({
                  images,
                  variants: d.variants.map((v) =>
                    v.imageUrl && !images.some((i) => i.assetUrl === v.imageUrl) ? { ...v, imageUrl: '' } : v,
                  ),
                })
              }
            />
          </section>

          <section className="a-card" aria-labelledby="cat-options-h">
            <h2 id="cat-options-h">Options</h2>
            {err('variantOptionOrdering') ? <p className="field-error">{err('variantOptionOrdering')}</p> : null}
            {d.options.map((o, i) => (
              <fieldset key={i} className="cat-option">
                <legend>Option {i + 1}</legend>
                <div className="cat-option__row">
                  <Field label="Option name" id={`cat-opt-${i}`}>
                    <input
                      id={`cat-opt-${i}`}
                      value={o.name}
                      maxLength={100}
                      placeholder="Size"
                      onChange={(e) => setOptions(d.options.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)))}
                    />
                  </Field>
                  <button type="button" onClick={() => setOptions(d.options.filter((_, j) => j !== i))}>
                    Remove option {o.name || i + 1}
                  </button>
                </div>
                <ul className="cat-chips" aria-label={`${o.name || `Option ${i + 1}`} values`}>
                  {o.values.map((v) => (
                    <li key={v}>
                      {v}
                      <button
                        type="button"
                        aria-label={`Remove ${v}`}
                        onClick={() =>
                          setOptions(d.options.map((x, j) => (j === i ? { ...x, values: x.values.filter((y) => y !== v) } : x)))
                        }
                      >
                        <span aria-hidden="true">×</span>
                      </button>
                    </li>
                  ))}
                </ul>
                <div className="cat-option__add">
                  <Field label={`Add a value to ${o.name || `option ${i + 1}`}`} id={`cat-optval-${i}`}>
                    <input
                      id={`cat-optval-${i}`}
                      value={newValue[i] ?? ''}
                      maxLength={200}
                      placeholder="Medium"
                      onChange={(e) => setNewValue({ ...newValue, [i]: e.target.value })}
                      onKeyDown={(e) => {
                        if (e.key !== 'Enter') return;
                        e.preventDefault();
                        const value = (newValue[i] ?? '').trim();
                        if (!value || o.values.some((x) => x.toLowerCase() === value.toLowerCase())) return;
                        setOptions(d.options.map((x, j) => (j === i ? { ...x, values: [...x.values, value] } : x)));
                        setNewValue({ ...newValue, [i]: '' });
                      }}
                    />
                  </Field>
                  <button
                    type="button"
                    onClick={() => {
                      const value = (newValue[i] ?? '').trim();
                      if (!value || o.values.some((x) => x.toLowerCase() === value.toLowerCase())) return;
                      setOptions(d.options.map((x, j) => (j === i ? { ...x, values: [...x.values, value] } : x)));
                      setNewValue({ ...newValue, [i]: '' });
                    }}
                  >
                    Add value
                  </button>
                </div>
              </fieldset>
            ))}
            {d.options.length < 3 ? (
              <button type="button" onClick={() => setOptions([...d.options, { name: '', values: [] }])}>
                {d.options.length ? 'Add another option' : 'Add options like size or colour'}
              </button>
            ) : null}
          </section>

          <section className="a-card" aria-labelledby="cat-variants-h">
            <h2 id="cat-variants-h">{optionNames.length ? `Variants (${d.variants.length})` : 'Pricing and inventory'}</h2>
            <div className="cat-variants">
              {d.variants.map((v, i) => {
                const label = variantLabel(v);
                const k = (f: string) => `cat-v${i}-${f}`;
                return (
                  <fieldset
                    key={v.id ?? `${label}-${i}`}
                    className="cat-variant"
                    aria-label={optionNames.length ? `Variant ${label}` : 'Pricing and inventory'}
                  >
                    <legend className={optionNames.length ? '' : 'visually-hidden'}>
                      {optionNames.length ? label : 'Pricing and inventory'}
                    </legend>
                    {err(`variants.${i}.attributes`) ? <p className="field-error">{err(`variants.${i}.attributes`)}</p> : null}
                    <div className="cat-variant__image">
                      {v.imageUrl || d.images[0] ? (
                        <img src={v.imageUrl || d.images[0]!.assetUrl} alt="" width={56} height={56} />
                      ) : (
                        <span className="cat-thumb-empty" aria-hidden="true" />
                      )}
                      <Field label="Image" id={k('image')} error={err(`variants.${i}.imageUrl`)}>
                        <select id={k('image')} value={v.imageUrl} onChange={(e) => setVariant(i, { imageUrl: e.target.value })}>
                          <option value="">Main product image</option>
                          {d.images.map((img, n) => (
                            <option key={img.assetUrl} value={img.assetUrl}>
                              Image {n + 1}
                              {img.altText ? `: ${img.altText}` : ''}
                            </option>
                          ))}
                        </select>
                      </Field>
                    </div>
                    <div className="cat-variant__fields">
                      <Field label="Price" id={k('price')} error={err(`variants.${i}.priceCents`)}>
                        <input
                          id={k('price')}
                          inputMode="decimal"
                          value={v.price}
                          placeholder="0.00"
                          onChange={(e) => setVariant(i, { price: e.target.value })}
                          aria-invalid={!!err(`variants.${i}.priceCents`)}
                        />
                      </Field>
                      <Field label="Sale price" id={k('sale')} error={err(`variants.${i}.salePriceCents`)}>
                        <input
                          id={k('sale')}
                          inputMode="decimal"
                          value={v.salePrice}
                          placeholder="—"
                          onChange={(e) => setVariant(i, { salePrice: e.target.value, onSale: e.target.value.trim() !== '' })}
                          aria-invalid={!!err(`variants.${i}.salePriceCents`)}
                        />
                      </Field>
                      <Field label="SKU" id={k('sku')} error={err(`variants.${i}.sku`)}>
                        <input
                          id={k('sku')}
                          value={v.sku}
                          maxLength={128}
                          onChange={(e) => setVariant(i, { sku: e.target.value, skuAuto: false })}
                          aria-invalid={!!err(`variants.${i}.sku`)}
                        />
                      </Field>
                      <Field label="Stock" id={k('stock')} error={err(`variants.${i}.qtyInStock`)}>
                        <input
                          id={k('stock')}
                          type="number"
                          min={0}
                          inputMode="numeric"
                          value={v.unlimited ? '' : v.qtyInStock}
                          disabled={v.unlimited}
                          placeholder={v.unlimited ? '∞' : '0'}
                          onChange={(e) => setVariant(i, { qtyInStock: e.target.value })}
                        />
                      </Field>
                      {parcel ? (
                        <>
                          <Field label="Weight (kg)" id={k('weight')} error={err(`variants.${i}.weightGrams`)}>
                            <input
                              id={k('weight')}
                              inputMode="decimal"
                              value={v.weight}
                              placeholder="0.0"
                              onChange={(e) => setVariant(i, { weight: e.target.value })}
                            />
                          </Field>
                          <fieldset
                            className="cat-variant__dims"
                            aria-describedby={err(`variants.${i}.dimensions`) ? k('dims-error') : undefined}
                          >
                            <legend>Dimensions</legend>
                            <div className="cat-variant__dims-row">
                              {(['length', 'width', 'height'] as const).map((side) => (
                                <Field key={side} label={side[0]!.toUpperCase() + side.slice(1)} id={k(side)}>
                                  <input
                                    id={k(side)}
                                    inputMode="decimal"
                                    value={v[side]}
                                    placeholder="0"
                                    onChange={(e) => setVariant(i, { [side]: e.target.value })}
                                    aria-invalid={!!err(`variants.${i}.dimensions`)}
                                  />
                                </Field>
                              ))}
                              <Field label="Unit" id={k('dim-unit')}>
                                <select
                                  id={k('dim-unit')}
                                  value={v.dimUnit}
                                  onChange={(e) => setVariant(i, { dimUnit: e.target.value as DimensionUnit })}
                                >
                                  {DIMENSION_UNITS.map((u) => (
                                    <option key={u} value={u}>
                                      {u}
                                    </option>
                                  ))}
                                </select>
                              </Field>
                            </div>
                            {err(`variants.${i}.dimensions`) ? (
                              <p className="field-error" id={k('dims-error')}>
                                {err(`variants.${i}.dimensions`)}
                              </p>
                            ) : null}
                          </fieldset>
                        </>
                      ) : null}
                      <label className="a-check cat-variant__unlimited">
                        <input type="checkbox" checked={v.unlimited} onChange={(e) => setVariant(i, { unlimited: e.target.checked })} />{' '}
                        Unlimited stock
                      </label>
                    </div>
                  </fieldset>
                );
              })}
            </div>
            <p className="a-muted cat-hint">Prices are in {settings.currency}.</p>
          </section>

          <TypeDetails
            productId={id}
            productType={d.productType}
            title={d.title}
            currency={settings.currency}
            variants={d.variants}
            onVariants={(variants) =>
              set({ variants, options: [{ name: 'Amount', values: variants.map((v) => v.attributes.Amount ?? '').filter(Boolean) }] })
            }
            isSubscribable={d.isSubscribable}
            plan={d.plan}
            onPlan={(isSubscribable, plan) => set({ isSubscribable, plan })}
            formId={d.formId}
            onForm={(formId) => set({ formId })}
            errors={errors}
          />

          <section className="a-card" aria-labelledby="cat-seo-h">
            <h2 id="cat-seo-h">Search engine listing</h2>
            <div className="cat-serp" aria-label="Search result preview" role="group">
              <span className="cat-serp__url">
                {typeof location !== 'undefined' ? location.host : ''} › {storeUrl} › p › {d.urlId || slugify(d.title) || 'product'}
              </span>
              <span className="cat-serp__title">{seoTitle.length > 60 ? `${seoTitle.slice(0, 60)}…` : seoTitle}</span>
              <span className="cat-serp__desc">{seoDesc.length > 160 ? `${seoDesc.slice(0, 160)}…` : seoDesc}</span>
            </div>
            <Field
              label="Page title"
              id="cat-seo-title"
              error={err('seoTitle')}
              hint={`${[...d.seoTitle].length} of ${SEO_TITLE_MAX} characters used`}
            >
              <input
                id="cat-seo-title"
                value={d.seoTitle}
                maxLength={SEO_TITLE_MAX}
                placeholder={d.title}
                aria-describedby="cat-seo-title-hint"
                onChange={(e) => set({ seoTitle: e.target.value })}
              />
            </Field>
            <Field
              label="Meta description"
              id="cat-seo-desc"
              error={err('seoDescription')}
              hint={`${[...d.seoDescription].length} of ${SEO_DESCRIPTION_MAX} characters used`}
            >
              <textarea
                id="cat-seo-desc"
                value={d.seoDescription}
                maxLength={SEO_DESCRIPTION_MAX}
                rows={3}
                aria-describedby="cat-seo-desc-hint"
                onChange={(e) => set({ seoDescription: e.target.value })}
              />
            </Field>
            <Field
              label="URL handle"
              id="cat-url"
              error={err('urlId')}
              hint={`/${storeUrl}/p/${d.urlId || slugify(d.title) || '…'}${d.urlAuto ? ' (made from the title; a number is added if it is taken)' : ''}`}
            >
              <input
                id="cat-url"
                value={d.urlId}
                maxLength={200}
                aria-describedby="cat-url-hint"
                onChange={(e) =>
                  set({ urlId: slugify(e.target.value.replace(/\s/g, '-')) || e.target.value.toLowerCase(), urlAuto: false })
                }
                onBlur={() => set({ urlId: slugify(d.urlId) })}
              />
            </Field>
          </section>
        </div>

        <aside className="cat-editor__side" aria-label="Product settings">
          <section className="a-card" aria-labelledby="cat-status-h">
            <h2 id="cat-status-h">Status</h2>
            <Field label="Status" id="cat-status" error={err('status')}>
              <select id="cat-status" value={d.status} onChange={(e) => set({ status: e.target.value })}>
                <option value="draft">Draft</option>
                <option value="scheduled">Scheduled</option>
                <option value="published">Published</option>
                {['private', 'needs-review', 'archived'].includes(d.status) ? (
                  <option value={d.status}>{{ private: 'Private', 'needs-review': 'Needs review', archived: 'Archived' }[d.status]}</option>
                ) : null}
              </select>
            </Field>
            {d.status === 'scheduled' ? (
              <Field label="Publish on" id="cat-schedule" error={err('publishOn')} hint={`Time zone: ${settings.timeZone}`}>
                <input
                  id="cat-schedule"
                  type="datetime-local"
                  value={d.scheduleAt}
                  aria-describedby="cat-schedule-hint"
                  onChange={(e) => set({ scheduleAt: e.target.value })}
                />
              </Field>
            ) : null}
            {d.status !== 'published' ? (
              <button type="button" className="a-button--primary" onClick={() => void submit(undefined, 'published')}>
                Publish
              </button>
            ) : null}
          </section>
          <section className="a-card" aria-labelledby="cat-org-h">
            <h2 id="cat-org-h">Product organisation</h2>
            <Field label="Store" id="cat-store" error={err('collectionId')}>
              <select id="cat-store" value={d.collectionId} onChange={(e) => set({ collectionId: e.target.value })}>
                {stores.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.title}
                  </option>
                ))}
              </select>
            </Field>
            <Field label="Product type" id="cat-type">
              <select id="cat-type" value={d.productType} onChange={(e) => set({ productType: Number(e.target.value) })}>
                {PRODUCT_TYPES.map(([n, l]) => (
                  <option key={n} value={n}>
                    {l}
                  </option>
                ))}
              </select>
            </Field>
            <WordList
              label="Tags"
              words={d.tags}
              max={TAG_MAX}
              onChange={(tags) => set({ tags })}
              error={Object.entries(errors).find(([k]) => k.startsWith('tags'))?.[1]}
            />
            <WordList
              label="Categories"
              words={d.categories}
              max={CATEGORY_MAX}
              onChange={(categories) => set({ categories })}
              error={Object.entries(errors).find(([k]) => k.startsWith('categories'))?.[1]}
            />
          </section>
          {id ? (
            <ArchiveCard id={id} title={server.title} status={server.status} dirty={dirty} onLeave={() => (leaving.current = true)} />
          ) : null}
          {id ? (
            <section className="a-card" aria-labelledby="cat-danger-h">
              <h2 id="cat-danger-h">Delete</h2>
              <ConfirmDialog
                trigger={<button type="button">Delete product</button>}
                title={`Delete ${server.title}?`}
                description="The product, its variants and their stock history are removed. Orders keep their lines."
                confirm="Delete product"
                onConfirm={async () => {
                  try {
                    await api('DELETE', `/api/config/products/${encodeURIComponent(id)}?version=${server.version}`);
                    leaving.current = true;
                    window.location.assign('/config/products');
                  } catch (x) {
                    toast(x instanceof Error ? x.message : String(x), { tone: 'error' });
                  }
                }}
              />
            </section>
          ) : null}
        </aside>
      </div>
    </form>
  );
}

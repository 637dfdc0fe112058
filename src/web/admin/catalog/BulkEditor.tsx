/**
 * /config/products/bulk-edit?ids=…: the bulk editor (issue 41). The products chosen in the product list, one row per
 * variant, with price, sale price, stock, SKU and weight as cells; "Apply to all" fills a column; Enter moves down a
 * column as in a spreadsheet. Save sends every changed cell in one call: the server takes all of them or none, and a
 * refused cell shows its message under it. On phones each variant is a card of labelled cells.
 */
import { useMemo, useState, type KeyboardEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../../client/api.js';
import { EmptyState, PageHeader, Skeleton, useToast } from '../ui/design.js';
import { CATALOG_TEXT } from '../../../core/api/catalog.js';
import type { BulkEditInput, BulkEditOut, BulkEditSheet, BulkEditVariant, CatalogSettings } from '../../../core/api/catalog.js';
import { BULK_FIELDS, BULK_LABELS, cellKey, cellsOf, changesOf, editable, type BulkField } from './bulk-model.js';

type Row = BulkEditVariant & { productType: number; productTitle: string; productId: string };

const idsOfAddress = () => (typeof location === 'undefined' ? '' : (new URLSearchParams(location.search).get('ids') ?? ''));

/** Moves focus to the same column of the next (Enter) or previous (Shift+Enter) row. */
function moveDown(e: KeyboardEvent<HTMLInputElement>) {
  if (e.key !== 'Enter') return;
  e.preventDefault();
  const { row, col } = e.currentTarget.dataset;
  const next = Number(row) + (e.shiftKey ? -1 : 1);
  document.querySelector<HTMLInputElement>(`[data-col="${col}"][data-row="${next}"]`)?.focus();
}

function Cell({
  row,
  index,
  field,
  text,
  error,
  onText,
}: {
  row: Row;
  index: number;
  field: BulkField;
  text: string;
  error?: string;
  onText: (t: string) => void;
}) {
  const key = cellKey(row.id, field);
  const label = BULK_LABELS[field];
  const name = `${label} of ${row.productTitle}${row.name ? `, ${row.name}` : ''}`;
  if (!editable(row, field, row.productType))
    return (
      <td className="bulk-cell bulk-cell--none">
        <span className="bulk-cell__label">{label}</span>
        <span className="a-muted">{field === 'qtyInStock' ? 'Unlimited' : 'Not shipped'}</span>
      </td>
    );
  return (
    <td className={`bulk-cell${error ? ' is-invalid' : ''}`}>
      <label>
        <span className="bulk-cell__label">{label}</span>
        <input
          aria-label={name}
          value={text}
          data-row={index}
          data-col={field}
          inputMode={field === 'sku' ? undefined : field === 'qtyInStock' ? 'numeric' : 'decimal'}
          placeholder={field === 'salePriceCents' ? '—' : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `bulk-err-${key}` : undefined}
          onChange={(e) => onText(e.target.value)}
          onKeyDown={moveDown}
        />
      </label>
      {error ? (
        <p className="field-error" id={`bulk-err-${key}`}>
          {error}
        </p>
      ) : null}
    </td>
  );
}

const APPLY_FIELDS: BulkField[] = ['priceCents', 'salePriceCents', 'qtyInStock', 'weightGrams'];

/** Fills one column of every variant (that can take it) with one value. */
function ApplyToAll({ onApply }: { onApply: (field: BulkField, text: string) => void }) {
  const [field, setField] = useState<BulkField>('priceCents');
  const [text, setText] = useState('');
  return (
    <div className="bulk-apply" role="group" aria-label="Apply to all">
      <span className="bulk-apply__title">Apply to all</span>
      <label>
        Column
        <select value={field} onChange={(e) => setField(e.target.value as BulkField)}>
          {APPLY_FIELDS.map((f) => (
            <option key={f} value={f}>
              {BULK_LABELS[f]}
            </option>
          ))}
        </select>
      </label>
      <label>
        Value
        <input value={text} onChange={(e) => setText(e.target.value)} inputMode="decimal" />
      </label>
      <button type="button" onClick={() => onApply(field, text)}>
        Apply to every variant
      </button>
    </div>
  );
}

function SheetTable({
  sheet,
  text,
  errors,
  onText,
}: {
  sheet: BulkEditSheet;
  text: (r: Row, f: BulkField) => string;
  errors: Record<string, string>;
  onText: (key: string, t: string) => void;
}) {
  let index = 0;
  return (
    <div className="bulk-sheet" role="region" aria-label="Variants" tabIndex={0}>
      <table className="bulk-table">
        <caption className="visually-hidden">Variants of the chosen products</caption>
        <thead>
          <tr>
            <th scope="col">Variant</th>
            {BULK_FIELDS.map((f) => (
              <th key={f} scope="col">
                {BULK_LABELS[f]}
              </th>
            ))}
          </tr>
        </thead>
        {sheet.products.map((p) => (
          <tbody key={p.id}>
            <tr className="bulk-product">
              <th scope="colgroup" colSpan={BULK_FIELDS.length + 1}>
                <a href={`/config/products/${p.id}`}>{p.title}</a>
              </th>
            </tr>
            {p.variants.map((v) => {
              const row: Row = { ...v, productType: p.productType, productTitle: p.title, productId: p.id };
              const i = index++;
              return (
                <tr key={v.id}>
                  <th scope="row" className="bulk-variant">
                    {v.name || 'Default'}
                  </th>
                  {BULK_FIELDS.map((f) => (
                    <Cell
                      key={f}
                      row={row}
                      index={i}
                      field={f}
                      text={text(row, f)}
                      error={errors[cellKey(v.id, f)]}
                      onText={(t) => onText(cellKey(v.id, f), t)}
                    />
                  ))}
                </tr>
              );
            })}
          </tbody>
        ))}
      </table>
    </div>
  );
}

export function BulkEditor({ settings }: { settings: CatalogSettings }) {
  const toast = useToast();
  const qc = useQueryClient();
  const ids = idsOfAddress();
  const sheet = useQuery({
    queryKey: ['bulk-edit', ids],
    queryFn: () => api<BulkEditSheet>('GET', `/api/config/catalog/bulk-edit?ids=${encodeURIComponent(ids)}`),
    enabled: ids !== '',
  });
  const [typed, setTyped] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState('');
  const [saving, setSaving] = useState(false);
  const rows: Row[] = useMemo(
    () =>
      (sheet.data?.products ?? []).flatMap((p) =>
        p.variants.map((v) => ({ ...v, productType: p.productType, productTitle: p.title, productId: p.id })),
      ),
    [sheet.data],
  );
  const stored = useMemo(() => new Map(rows.map((r) => [r.id, cellsOf(r, settings.currency)])), [rows, settings.currency]);
  const text = (r: Row, f: BulkField) => typed[cellKey(r.id, f)] ?? stored.get(r.id)![f];
  const pending = changesOf(rows, typed, settings.currency);
  const changed = pending.changes.length;

  const onText = (key: string, t: string) => {
    setTyped((s) => ({ ...s, [key]: t }));
    setErrors(({ [key]: _gone, ...rest }) => rest);
  };
  const applyAll = (field: BulkField, t: string) => {
    const next = { ...typed };
    for (const r of rows) if (editable(r, field, r.productType)) next[cellKey(r.id, field)] = t;
    setTyped(next);
  };
  const save = async () => {
    setMessage('');
    if (Object.keys(pending.errors).length) {
      setErrors(pending.errors);
      setMessage(CATALOG_TEXT.NOT_SAVED);
      return;
    }
    setSaving(true);
    try {
      const out = await api<BulkEditOut>('PUT', '/api/config/catalog/bulk-edit', {
        changes: pending.changes,
        versions: Object.fromEntries(sheet.data!.products.map((p) => [p.id, p.version])),
      } satisfies BulkEditInput);
      await qc.invalidateQueries({ queryKey: ['bulk-edit'] });
      await qc.invalidateQueries({ queryKey: ['catalog-products'] });
      setTyped({});
      setErrors({});
      toast(`Saved ${out.count} variant${out.count === 1 ? '' : 's'}.`);
    } catch (e) {
      const cells = e instanceof ApiError ? ((e.data.errors as Record<string, string> | undefined) ?? {}) : {};
      setErrors(cells);
      setMessage(e instanceof Error ? e.message : String(e));
    } finally {
      setSaving(false);
    }
  };

  const header = (
    <PageHeader
      title="Bulk editor"
      description="Prices, sale prices, stock, SKUs and weights of the products you chose. Save keeps every change or none."
      breadcrumbs={[{ label: 'Products', href: '/config/products' }, { label: 'Bulk editor' }]}
    />
  );
  if (!ids)
    return (
      <>
        {header}
        <EmptyState title="No products chosen" action={<a href="/config/products">Choose products</a>}>
          Select products in the product list, then choose Edit in bulk.
        </EmptyState>
      </>
    );
  if (sheet.isPending) return <Skeleton lines={8} label="Loading the bulk editor" />;
  if (sheet.isError)
    return (
      <>
        {header}
        <p role="alert">{sheet.error.message}</p>
      </>
    );
  return (
    <>
      {header}
      <section className="a-card bulk-editor" aria-label="Bulk editor">
        <div className={`cat-savebar bulk-savebar${Object.keys(typed).length ? ' is-dirty' : ''}`} role="region" aria-label="Save">
          <span role="status">{changed ? `${changed} variant${changed === 1 ? '' : 's'} changed` : 'No changes'}</span>
          <span className="cat-savebar__actions">
            {Object.keys(typed).length ? (
              <button
                type="button"
                onClick={() => {
                  setTyped({});
                  setErrors({});
                  setMessage('');
                }}
              >
                Discard
              </button>
            ) : null}
            <button
              type="button"
              className="a-button--primary"
              disabled={saving || (!changed && !Object.keys(pending.errors).length)}
              onClick={() => void save()}
            >
              {saving ? 'Saving…' : 'Save'}
            </button>
          </span>
        </div>
        <ApplyToAll onApply={applyAll} />
        <p className="a-muted">
          {rows.length} variants of {sheet.data.products.length} products. Amounts are in {settings.currency}. Leave a sale price empty for
          no sale.
        </p>
        {message ? <p role="alert">{message}</p> : null}
        <SheetTable sheet={sheet.data} text={text} errors={errors} onText={onText} />
      </section>
    </>
  );
}

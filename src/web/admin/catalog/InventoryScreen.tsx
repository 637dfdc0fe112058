/**
 * /config/inventory: every variant's stock with its low-stock threshold; change several rows and save them at once
 * (bulk edit), or set the same stock on the selected rows; a variant's stock history (sale, refund, manual edit,
 * import) opens in a dialog.
 */
import { useState } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../client/api.js';
import { ColumnHeads, EmptyState, PageHeader, Skeleton, useToast } from '../ui/design.js';
import type { InventoryInput, InventoryList, InventoryRow, VariantMovements } from '../../../core/api/catalog.js';
import { formatWhen } from '../ui/dates.js';

const REASONS: Record<string, string> = { sale: 'Sale', refund: 'Refund', manual: 'Manual edit', import: 'Import' };

function History({ row }: { row: InventoryRow }) {
  const [open, setOpen] = useState(false);
  const q = useQuery({
    queryKey: ['movements', row.variantId],
    queryFn: () => api<VariantMovements>('GET', `/api/config/catalog/variants/${row.variantId}/movements`),
    enabled: open,
  });
  const name = `${row.title}${row.variant ? ` (${row.variant})` : ''}`;
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <button type="button" aria-label={`Stock history of ${name}`}>
          History
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="a-overlay" />
        <Dialog.Content className="a-dialog">
          <Dialog.Title>Stock history</Dialog.Title>
          <Dialog.Description>{name}</Dialog.Description>
          {q.isPending ? (
            <Skeleton lines={3} label="Loading the history" />
          ) : q.isError ? (
            <p role="alert">{q.error.message}</p>
          ) : q.data.movements.length === 0 ? (
            <p>No stock changes yet.</p>
          ) : (
            <table>
              <ColumnHeads columns={['When', 'What', 'Change', 'Stock after']} />
              <tbody>
                {q.data.movements.map((m) => (
                  <tr key={m.id}>
                    <td>{formatWhen(m.at)}</td>
                    <td>{REASONS[m.reason] ?? m.reason}</td>
                    <td>{m.delta > 0 ? `+${m.delta}` : m.delta}</td>
                    <td>{m.unlimited ? 'Unlimited' : m.qtyAfter}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <div className="a-dialog__actions">
            <Dialog.Close asChild>
              <button type="button">Close</button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

type RowEdits = { qtyInStock?: string; lowStockThreshold?: string };

/** One variant's row: its selection box, stock and threshold inputs (the unsaved edits shown over the saved values) and history. */
function InventoryRowView({
  row: r,
  selected,
  onToggle,
  edits,
  onEdit,
}: {
  row: InventoryRow;
  selected: boolean;
  onToggle: () => void;
  edits: RowEdits | undefined;
  onEdit: (field: keyof RowEdits, value: string) => void;
}) {
  const name = `${r.title}${r.variant ? ` (${r.variant})` : ''}`;
  return (
    <tr>
      <td className="cat-table__check">
        <input type="checkbox" aria-label={`Select ${name}`} disabled={r.unlimited} checked={selected} onChange={onToggle} />
      </td>
      <td className="cat-table__product">
        <div className="cat-table__product-inner">
          {r.imageUrl ? (
            <img src={r.imageUrl} alt="" width={40} height={40} loading="lazy" />
          ) : (
            <span className="cat-thumb-empty" aria-hidden="true" />
          )}
          <span>
            <a href={`/config/products/${r.productId}`}>{r.title}</a>
            {r.variant ? <span className="a-muted"> · {r.variant}</span> : null}
            {r.low ? <span className="cat-status cat-status--low"> Low</span> : null}
          </span>
        </div>
      </td>
      <td data-label="SKU">{r.sku}</td>
      <td data-label="Inventory">
        {r.unlimited ? (
          'Unlimited'
        ) : (
          <label>
            <span className="visually-hidden">Stock of {name}</span>
            <input
              type="number"
              min={0}
              value={edits?.qtyInStock ?? String(r.qtyInStock)}
              onChange={(e) => onEdit('qtyInStock', e.target.value)}
            />
          </label>
        )}
      </td>
      <td data-label="Threshold">
        <label>
          <span className="visually-hidden">Low-stock threshold of {name}</span>
          <input
            type="number"
            min={0}
            value={edits?.lowStockThreshold ?? String(r.lowStockThreshold)}
            onChange={(e) => onEdit('lowStockThreshold', e.target.value)}
          />
        </label>
      </td>
      <td>
        <History row={r} />
      </td>
    </tr>
  );
}

export function InventoryScreen() {
  const toast = useToast();
  const qc = useQueryClient();
  const [q, setQ] = useState('');
  const [lowOnly, setLowOnly] = useState(false);
  const [edits, setEdits] = useState<Record<string, RowEdits>>({});
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [setAll, setSetAll] = useState('');
  const list = useQuery({
    queryKey: ['inventory', q, lowOnly],
    queryFn: () =>
      api<InventoryList>('GET', `/api/config/catalog/inventory?${new URLSearchParams({ q, ...(lowOnly ? { low: '1' } : {}) })}`),
  });
  const rows = list.data?.variants ?? [];
  const changed = Object.keys(edits).length;

  const save = async (changes: InventoryInput['changes']) => {
    const bad = changes.some(
      (c) =>
        (c.qtyInStock !== undefined && (!Number.isInteger(c.qtyInStock) || c.qtyInStock < 0)) ||
        (c.lowStockThreshold !== undefined && (!Number.isInteger(c.lowStockThreshold) || c.lowStockThreshold < 0)),
    );
    if (bad) {
      toast('Stock and thresholds must be whole numbers, 0 or more.', { tone: 'error' });
      return;
    }
    try {
      await api('PUT', '/api/config/catalog/inventory', { changes } satisfies InventoryInput);
      toast(`${changes.length} variant${changes.length === 1 ? '' : 's'} updated.`);
      setEdits({});
      setSelected(new Set());
      setSetAll('');
      await qc.invalidateQueries({ queryKey: ['inventory'] });
    } catch (e) {
      toast(e instanceof Error ? e.message : String(e), { tone: 'error' });
    }
  };

  const edit = (id: string, field: 'qtyInStock' | 'lowStockThreshold', value: string) =>
    setEdits((e) => ({ ...e, [id]: { ...e[id], [field]: value } }));

  return (
    <>
      <PageHeader
        title="Inventory"
        description="Stock of every variant. Change the numbers, then save them together."
        breadcrumbs={[{ label: 'Products', href: '/config/products' }, { label: 'Inventory' }]}
      />
      <section className="a-card cat-list cat-inventory" aria-label="Inventory">
        <div className="cat-toolbar" role="search">
          <label className="cat-search">
            <span className="visually-hidden">Search variants</span>
            <input type="search" placeholder="Search by product, variant or SKU" value={q} onChange={(e) => setQ(e.target.value)} />
          </label>
          <label className="a-check">
            <input type="checkbox" checked={lowOnly} onChange={(e) => setLowOnly(e.target.checked)} /> Low stock only
          </label>
        </div>
        {selected.size > 0 || changed > 0 ? (
          <div className="cat-bulkbar" role="region" aria-label="Bulk edit">
            {selected.size > 0 ? (
              <>
                <label>
                  Set stock of {selected.size} selected to{' '}
                  <input type="number" min={0} value={setAll} onChange={(e) => setSetAll(e.target.value)} style={{ width: '6em' }} />
                </label>
                <button
                  type="button"
                  onClick={() => void save([...selected].map((variantId) => ({ variantId, qtyInStock: Number(setAll) })))}
                  disabled={setAll === ''}
                >
                  Apply
                </button>
              </>
            ) : null}
            {changed > 0 ? (
              <>
                <button
                  type="submit"
                  onClick={() =>
                    void save(
                      Object.entries(edits).map(([variantId, e]) => ({
                        variantId,
                        ...(e.qtyInStock !== undefined ? { qtyInStock: Number(e.qtyInStock) } : {}),
                        ...(e.lowStockThreshold !== undefined ? { lowStockThreshold: Number(e.lowStockThreshold) } : {}),
                      })),
                    )
                  }
                >
                  Save {changed} change{changed === 1 ? '' : 's'}
                </button>
                <button type="button" onClick={() => setEdits({})}>
                  Discard
                </button>
              </>
            ) : null}
          </div>
        ) : null}
        {list.isPending ? (
          <Skeleton lines={6} label="Loading inventory" />
        ) : list.isError ? (
          <p role="alert">{list.error.message}</p>
        ) : rows.length === 0 ? (
          <EmptyState title={lowOnly ? 'Nothing is low on stock' : 'No variants match'} />
        ) : (
          <table className="cat-table">
            <ColumnHeads
              columns={['Product', 'SKU', 'Stock', 'Low-stock threshold']}
              first={
                <th scope="col" className="cat-table__check">
                  <span className="visually-hidden">Select</span>
                </th>
              }
            >
              <th scope="col">
                <span className="visually-hidden">History</span>
              </th>
            </ColumnHeads>
            <tbody>
              {rows.map((r) => (
                <InventoryRowView
                  key={r.variantId}
                  row={r}
                  selected={selected.has(r.variantId)}
                  onToggle={() =>
                    setSelected((s) =>
                      s.has(r.variantId) ? new Set([...s].filter((x) => x !== r.variantId)) : new Set([...s, r.variantId]),
                    )
                  }
                  edits={edits[r.variantId]}
                  onEdit={(field, value) => edit(r.variantId, field, value)}
                />
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}

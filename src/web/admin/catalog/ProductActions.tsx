/**
 * The product editor's actions on the saved product (issue 41): Duplicate (a dialog asking the copy's title) and
 * Archive or Unarchive. Both act on what is saved, so they wait while the editor has unsaved changes.
 */
import { useState, type FormEvent } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { api } from '../../client/api.js';
import { ConfirmDialog, useToast } from '../ui/design.js';
import type { ProductBulkInput, ProductDuplicateInput, ProductDuplicateOut } from '../../../core/api/catalog.js';

export const SAVE_FIRST = 'Save or discard your changes first.';

/** Duplicate: the copy's title, then the copy's editor. */
export function DuplicateDialog({ id, title, dirty, onLeave }: { id: string; title: string; dirty: boolean; onLeave: () => void }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    // The dialog sits inside the editor's form in React's tree: its submit must not save the product.
    e.preventDefault();
    e.stopPropagation();
    setBusy(true);
    setError('');
    try {
      const out = await api<ProductDuplicateOut>('POST', `/api/config/products/${encodeURIComponent(id)}/duplicate`, {
        title: name,
      } satisfies ProductDuplicateInput);
      onLeave();
      window.location.assign(`/config/products/${out.id}`);
    } catch (x) {
      setError(x instanceof Error ? x.message : String(x));
      setBusy(false);
    }
  };
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (o) {
          setName(`Copy of ${title}`.slice(0, 200));
          setError('');
        }
      }}
    >
      <Dialog.Trigger asChild>
        <button type="button" disabled={dirty} title={dirty ? SAVE_FIRST : undefined}>
          Duplicate
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="a-overlay" />
        <Dialog.Content className="a-dialog">
          <Dialog.Title>Duplicate {title}</Dialog.Title>
          <Dialog.Description>
            The copy starts as a draft with the same description, images, options and prices. Its URL and SKUs get “-copy”, and its stock
            starts at 0.
          </Dialog.Description>
          <form className="a-form" onSubmit={(e) => void submit(e)} aria-label="Duplicate product">
            <label>
              Title of the copy
              <input
                value={name}
                onChange={(e) => setName(e.target.value)}
                maxLength={200}
                required
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? 'dup-error' : undefined}
              />
            </label>
            {error ? (
              <p className="field-error" id="dup-error" role="alert">
                {error}
              </p>
            ) : null}
            <div className="a-dialog__actions">
              <Dialog.Close asChild>
                <button type="button">Cancel</button>
              </Dialog.Close>
              <button type="submit" className="a-button--primary" disabled={busy}>
                {busy ? 'Duplicating…' : 'Duplicate product'}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** Archive (with a question) or Unarchive (back to draft); the editor then shows the product again. */
export function ArchiveCard({
  id,
  title,
  status,
  dirty,
  onLeave,
}: {
  id: string;
  title: string;
  status: string;
  dirty: boolean;
  onLeave: () => void;
}) {
  const toast = useToast();
  const act = async (action: 'archive' | 'unarchive') => {
    try {
      await api('POST', '/api/config/catalog/products/bulk', { action, ids: [id] } satisfies ProductBulkInput);
      onLeave();
      window.location.reload();
    } catch (x) {
      toast(x instanceof Error ? x.message : String(x), { tone: 'error' });
    }
  };
  const archived = status === 'archived';
  return (
    <section className="a-card" aria-labelledby="cat-archive-h">
      <h2 id="cat-archive-h">{archived ? 'Archived' : 'Archive'}</h2>
      <p className="a-muted">
        {archived
          ? 'This product is off your store, search and feeds. Its orders are kept. Unarchived, it comes back as a draft.'
          : 'No longer selling it? Archiving takes it off your store, search and feeds, and keeps its orders.'}
      </p>
      {dirty ? <p className="a-muted">{SAVE_FIRST}</p> : null}
      {archived ? (
        <button type="button" disabled={dirty} onClick={() => void act('unarchive')}>
          Unarchive product
        </button>
      ) : (
        <ConfirmDialog
          trigger={
            <button type="button" disabled={dirty}>
              Archive product
            </button>
          }
          title={`Archive ${title}?`}
          description="It leaves your store, search and feeds; its past orders stay as they are. You can unarchive it at any time."
          confirm="Archive product"
          onConfirm={() => act('archive')}
        />
      )}
    </section>
  );
}

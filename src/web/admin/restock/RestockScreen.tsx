/**
 * /config/restock: the back-in-stock waiting lists. Sign-up groups by product and variant with totals
 * (the sum of the variants' list lengths), each variant's list, its stock (restock it here), send and
 * send-all with progress, the history of sends, and the owner's settings.
 */
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { api } from '../../client/api.js';
import { totalSignUps } from '../../../core/restock.js';
import { ColumnHeads, EmptyState, PageHeader, Skeleton } from '../ui/design.js';
import { useLoad } from '../ui/records.js';
import type {
  RestockSendInput,
  RestockSettings,
  RestockSettingsAnswer,
  SendJson,
  SignUpGroupJson,
  SignUpJson,
  VariantGroupJson,
} from '../../../core/api/restock.js';
import { formatWhen } from '../ui/dates.js';

const API = '/api/site-users/account/notifications/restock';

type Send = SendJson;
type VariantGroup = VariantGroupJson;
type Group = SignUpGroupJson;
type SignUp = SignUpJson;
type Settings = RestockSettings;

/** Every page of a cursor-paged list. */
async function allPages<T>(url: string, key: string): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 1000; i++) {
    const sep = url.includes('?') ? '&' : '?';
    const page: Record<string, unknown> = await api<Record<string, unknown>>(
      'GET',
      cursor ? `${url}${sep}cursor=${encodeURIComponent(cursor)}` : url,
    );
    out.push(...((page[key] as T[]) ?? []));
    if (!page.hasNextPage || !page.nextPageCursor) break;
    cursor = String(page.nextPageCursor);
  }
  return out;
}

const label = (g: Group, v: VariantGroup) => (v.variantText ? `${g.productTitle}, ${v.variantText}` : g.productTitle);
const when = (iso: string | null) => (iso ? formatWhen(iso) : '');

function statusText(s: Send): string {
  if (s.status === 'queued') return 'Queued';
  if (s.status === 'running') return `Sending: ${s.sentCount} of ${s.maxEmails ?? s.pendingAtStart}`;
  if (s.status === 'stopped')
    return `Stopped (${s.reason === 'out-of-stock' ? 'sold out again' : (s.reason ?? 'stopped')}) after ${s.sentCount}`;
  if (s.status === 'failed') return `Failed after ${s.sentCount}`;
  return s.reason === 'limit' ? `Sent ${s.sentCount} (limited to stock)` : `Sent ${s.sentCount}`;
}

function VariantRow({
  group,
  v,
  lists,
  onChanged,
  setMessage,
}: {
  group: Group;
  v: VariantGroup;
  lists: Record<string, SignUp[]>;
  onChanged: () => void;
  setMessage: (m: string) => void;
}) {
  const [stock, setStock] = useState(String(v.unlimited ? '' : v.qtyInStock));
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const list = lists[v.variantId] ?? [];
  const name = label(group, v);

  async function saveStock(e: FormEvent) {
    e.preventDefault();
    const qty = Number(stock);
    if (!Number.isInteger(qty) || qty < 0) return setMessage('Units in stock must be a whole number, 0 or more.');
    setBusy(true);
    try {
      const r = await api<{ restockSend: Send | null }>('PUT', `/api/commerce/inventory/variants/${encodeURIComponent(v.variantId)}`, {
        qtyInStock: qty,
      });
      setMessage(
        r.restockSend ? `Stock updated. Emailing ${r.restockSend.pendingAtStart} waiting for ${name}.` : `Stock updated for ${name}.`,
      );
      onChanged();
    } catch (err) {
      setMessage((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  async function send() {
    setBusy(true);
    try {
      const r = await api<{ send: Send; joined: boolean }>('POST', `${API}/send`, {
        productId: group.productId,
        variantId: v.variantId,
      } satisfies RestockSendInput);
      setMessage(r.joined ? `Already sending for ${name}.` : `Sending ${r.send.pendingAtStart} emails for ${name}.`);
      onChanged();
    } catch (err) {
      setMessage((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  const active = v.activeSend;
  return (
    <li className="restock-variant" style={{ display: 'grid', gap: 8, justifyItems: 'start', marginBottom: 16 }}>
      <div className="restock-variant__head">
        <strong>{v.variantText || 'Default'}</strong> <span>({v.sku})</span>{' '}
        <span>{v.unlimited ? 'Unlimited stock' : `${v.qtyInStock} in stock`}</span> <span>{list.length} waiting</span>
        {v.sentCount ? <span>, {v.sentCount} emailed</span> : null}
      </div>
      <form onSubmit={saveStock} className="restock-variant__stock">
        <label>
          Units in stock for {name}{' '}
          <input type="number" min={0} step={1} value={stock} onChange={(e) => setStock(e.target.value)} disabled={busy || v.unlimited} />
        </label>
        <button type="submit" disabled={busy || v.unlimited} aria-label={`Update stock for ${name}`}>
          Update stock
        </button>
      </form>
      <button
        type="button"
        onClick={send}
        disabled={busy || !v.inStock || list.length === 0 || !!active}
        aria-label={`Send emails for ${name}`}
      >
        Send emails
      </button>{' '}
      <button type="button" onClick={() => setOpen(!open)} aria-expanded={open} aria-label={`Show sign-ups for ${name}`}>
        {open ? 'Hide sign-ups' : 'Show sign-ups'}
      </button>
      {active ? (
        <div role="status" className="restock-progress">
          <progress
            max={Math.max(1, active.maxEmails ?? active.pendingAtStart)}
            value={active.sentCount}
            aria-label={`Sending for ${name}`}
          />{' '}
          {statusText(active)}
        </div>
      ) : null}
      {open ? (
        list.length ? (
          <table>
            <caption>Waiting for {name}</caption>
            <ColumnHeads columns={['Email', 'Mailing list', 'Language', 'Signed up']} />
            <tbody>
              {list.map((s) => (
                <tr key={s.id}>
                  <td>{s.email}</td>
                  <td>{s.isJoinMailingList ? 'Yes' : 'No'}</td>
                  <td>{s.language ?? ''}</td>
                  <td>{when(s.created)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p>No one is waiting.</p>
        )
      ) : null}
    </li>
  );
}

function SettingsForm({ setMessage }: { setMessage: (m: string) => void }) {
  const [d, setD, loadError, , saved] = useLoad<{ settings: Settings; successText: string }>(`${API}/settings`);
  if (!d) return loadError ? <p role="alert">{loadError}</p> : null;
  const s = d.settings;
  const success = d.successText;
  const setS = (settings: Settings) => setD({ ...d, settings });
  const setSuccess = (successText: string) => setD({ ...d, successText });
  const check = (key: keyof Settings, text: string) => (
    <label className="a-check">
      <input type="checkbox" checked={s[key] as boolean} onChange={(e) => setS({ ...s, [key]: e.target.checked })} /> {text}
    </label>
  );
  const text = (key: keyof Settings, name: string) => (
    <label>
      {name} <input type="text" value={s[key] as string} onChange={(e) => setS({ ...s, [key]: e.target.value })} />
    </label>
  );
  async function save(e: FormEvent) {
    e.preventDefault();
    try {
      saved(await api<RestockSettingsAnswer>('PUT', `${API}/settings`, { settings: s, successText: success }));
      setMessage('Settings saved.');
    } catch (err) {
      setMessage((err as Error).message);
    }
  }
  return (
    <form onSubmit={save} className="a-card a-form restock-settings" aria-labelledby="restock-settings-title">
      <h2 id="restock-settings-title">Settings</h2>
      {check('autoSend', 'Email the waiting list automatically when a variant is back in stock')}
      {check('limitToStock', 'Send at most as many emails as units in stock')}
      <div className="a-fields">
        <label>
          Emails per batch{' '}
          <input type="number" min={1} max={1000} value={s.batchSize} onChange={(e) => setS({ ...s, batchSize: Number(e.target.value) })} />
        </label>
        <label>
          Seconds between batches{' '}
          <input
            type="number"
            min={0}
            max={3600}
            value={s.batchDelaySeconds}
            onChange={(e) => setS({ ...s, batchDelaySeconds: Number(e.target.value) })}
          />
        </label>
      </div>
      {check('hiddenByDefault', 'Hide the form until a sold-out variant is chosen')}
      {check('mailingListSignUpEnabled', 'Offer to join the mailing list')}
      {check('mailingListOptInByDefault', 'Mailing list box ticked by default')}
      {check('multilingualEmails', "Email in the visitor's language")}
      {text('ctaText', 'Form text')}
      {text('placeholderText', 'Email field label')}
      {text('buttonText', 'Button text')}
      {text('mailingListDescription', 'Mailing list text')}
      <label>
        Success text <input type="text" value={success} onChange={(e) => setSuccess(e.target.value)} />
      </label>
      <button type="submit" className="a-button--primary">
        Save settings
      </button>
    </form>
  );
}

export function RestockScreen() {
  const [groups, setGroups] = useState<Group[] | null>(null);
  const [lists, setLists] = useState<Record<string, SignUp[]>>({});
  const [sends, setSends] = useState<Send[]>([]);
  const [sendsCursor, setSendsCursor] = useState<string | null>(null);
  const [message, setMessage] = useState('');
  const [error, setError] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const load = useCallback(async () => {
    try {
      const gs = await allPages<Group>(`${API}/groups`, 'signUpGroups');
      const ls: Record<string, SignUp[]> = {};
      for (const g of gs) {
        for (const v of g.variants) {
          ls[v.variantId] = await allPages<SignUp>(
            `${API}?productId=${encodeURIComponent(g.productId)}&variantId=${encodeURIComponent(v.variantId)}`,
            'signUps',
          );
        }
      }
      const h = await api<{ sends: Send[]; hasNextPage: boolean; nextPageCursor: string | null }>('GET', `${API}/sends`);
      setGroups(gs);
      setLists(ls);
      setSends(h.sends);
      setSendsCursor(h.hasNextPage ? h.nextPageCursor : null);
      setError('');
      // While a send runs, follow its progress.
      if (timer.current) clearTimeout(timer.current);
      if (gs.some((g) => g.variants.some((v) => v.activeSend))) timer.current = setTimeout(() => void load(), 2000);
    } catch (e) {
      setError((e as Error).message);
    }
  }, []);

  useEffect(() => {
    void load();
    return () => {
      if (timer.current) clearTimeout(timer.current);
    };
  }, [load]);

  async function sendAll() {
    const sendRequests = (groups ?? []).flatMap((g) =>
      g.variants
        .filter((v) => v.inStock && (lists[v.variantId]?.length ?? 0) > 0 && !v.activeSend)
        .map((v) => ({ productId: g.productId, variantId: v.variantId })),
    );
    if (sendRequests.length === 0) return setMessage('No variant in stock has anyone waiting.');
    try {
      const r = await api<{ results: Array<{ result: string }> }>('POST', `${API}/send/all`, { sendRequests });
      const started = r.results.filter((x) => x.result === 'started' || x.result === 'joined').length;
      setMessage(`Sending for ${started} ${started === 1 ? 'variant' : 'variants'}.`);
      void load();
    } catch (e) {
      setMessage((e as Error).message);
    }
  }

  async function moreSends() {
    if (!sendsCursor) return;
    const h = await api<{ sends: Send[]; hasNextPage: boolean; nextPageCursor: string | null }>(
      'GET',
      `${API}/sends?cursor=${encodeURIComponent(sendsCursor)}`,
    );
    setSends([...sends, ...h.sends]);
    setSendsCursor(h.hasNextPage ? h.nextPageCursor : null);
  }

  const sendAllButton =
    groups && groups.length ? (
      <button type="button" className="a-button--primary" onClick={sendAll}>
        Send all
      </button>
    ) : null;
  return (
    <>
      <PageHeader
        title="Back in stock"
        description="Who is waiting for a sold-out variant, and the emails that tell them it is back."
        actions={sendAllButton}
      />
      {error ? <p role="alert">{error}</p> : null}
      <p role="status" aria-live="polite">
        {message}
      </p>
      {groups === null ? (
        <Skeleton lines={4} label="Loading sign-ups" />
      ) : groups.length === 0 ? (
        <EmptyState title="No one is waiting yet">
          When a variant sells out, its product page offers a back-in-stock sign-up. Sign-ups show here, and you can email everyone once you
          restock.
        </EmptyState>
      ) : (
        <>
          {groups.map((g) => (
            <section key={g.productId} className="a-card admin-card restock-group" aria-labelledby={`restock-g-${g.productId}`}>
              <h2 id={`restock-g-${g.productId}`}>
                <a href={g.productUrl} target="_blank" rel="noreferrer">
                  {g.productTitle}
                </a>{' '}
                <span>({totalSignUps(g.variants.map((v) => lists[v.variantId] ?? []))} waiting)</span>
              </h2>
              <ul>
                {g.variants.map((v) => (
                  <VariantRow
                    key={`${v.variantId}-${v.qtyInStock}-${v.unlimited}`}
                    group={g}
                    v={v}
                    lists={lists}
                    onChanged={() => void load()}
                    setMessage={setMessage}
                  />
                ))}
              </ul>
            </section>
          ))}
        </>
      )}
      <section className="a-card admin-card" aria-labelledby="restock-history-title">
        <h2 id="restock-history-title">History</h2>
        {sends.length === 0 ? (
          <p className="a-muted">No emails sent yet. Sends you start here, and automatic ones, are listed with their results.</p>
        ) : (
          <table>
            <ColumnHeads columns={['Started', 'Product', 'How', 'Result']} />
            <tbody>
              {sends.map((s) => (
                <tr key={s.id}>
                  <td>{when(s.created)}</td>
                  <td>{s.variantText ? `${s.productTitle}, ${s.variantText}` : s.productTitle}</td>
                  <td>{s.trigger === 'auto' ? 'Automatic' : 'By hand'}</td>
                  <td>{statusText(s)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {sendsCursor ? (
          <button type="button" onClick={() => void moreSends()}>
            Load more
          </button>
        ) : null}
      </section>
      <SettingsForm setMessage={setMessage} />
    </>
  );
}

/**
 * /config engagement screens: the promo popup, mailing lists (members, CSV export, double opt-in),
 * cookie banner settings. (The email preview is EmailTemplatesScreen.tsx.)
 */
import { useEffect, useState } from 'react';
import { api } from '../../client/api.js';
import { SaveForm, useLoad } from '../ui/records.js';
import { ColumnHeads, EmptyState, PageHeader, Skeleton } from '../ui/design.js';
import { COOKIE_BANNER_MODES, POPUP_ANCHORS, POPUP_TRIGGERS, type CookieBannerMode, type PopupTrigger } from '../../../core/engagement.js';
import type { CookieBannerSettings, ListJson, MemberJson, PopupSettings } from '../../../core/api/engagement.js';
import { formatWhen } from '../ui/dates.js';

const API = '/api/config/engagement';

// ---- Promo popup ---------------------------------------------------------------------------------

type Popup = PopupSettings;

type List = ListJson;

const ANCHOR_LABEL = (a: string) => a.replace('-', ' ').replace('center center', 'center');

export function PopupScreen() {
  const [d, setD, error] = useLoad<{ popup: Popup }>(`${API}/popup`);
  const [lists] = useLoad<{ lists: List[] }>(`${API}/lists`);
  const [pagesText, setPagesText] = useState<string | null>(null);
  if (!d) return error ? <p role="alert">{error}</p> : <Skeleton lines={5} label="Loading the promo popup" />;
  const p = d.popup;
  const set = (patch: Partial<Popup>) => setD({ popup: { ...p, ...patch } });
  const pages = pagesText ?? (p.pages === 'all' ? '' : p.pages.join('\n'));
  return (
    <>
      <PageHeader
        title="Promo popup"
        description={`A popup overlay on the pages you choose, with a newsletter sign-up or a button. Saving a change shows it again to visitors who closed the old one (version ${p.version}).`}
      />
      <SaveForm
        label="Promo popup"
        onSubmit={async () => {
          const list = pages
            .split('\n')
            .map((s) => s.trim())
            .filter(Boolean);
          const { version: _v, ...rest } = p;
          const r = await api<{ popup: Popup }>('PUT', `${API}/popup`, { ...rest, pages: list.length ? list : 'all' });
          setD(r);
          setPagesText(null);
          return `Saved (version ${r.popup.version}).`;
        }}
      >
        <label>
          <input type="checkbox" checked={p.enabled} onChange={(e) => set({ enabled: e.target.checked })} /> Show the popup
        </label>
        <label>
          Title
          <input value={p.title} onChange={(e) => set({ title: e.target.value })} maxLength={200} />
        </label>
        <label>
          Text
          <textarea rows={3} value={p.text} onChange={(e) => set({ text: e.target.value })} maxLength={2000} />
        </label>
        <label>
          Image address
          <input value={p.imageUrl} onChange={(e) => set({ imageUrl: e.target.value })} placeholder="/demo-media/... or https://..." />
        </label>
        <label>
          Image description (alt text)
          <input value={p.imageAlt} onChange={(e) => set({ imageAlt: e.target.value })} />
        </label>
        <fieldset>
          <legend>Action</legend>
          <label>
            <input type="radio" name="action" checked={p.action === 'newsletter'} onChange={() => set({ action: 'newsletter' })} />{' '}
            Newsletter sign-up
          </label>
          <label>
            <input type="radio" name="action" checked={p.action === 'button'} onChange={() => set({ action: 'button' })} /> Button
          </label>
        </fieldset>
        <label>
          Button text
          <input value={p.buttonText} onChange={(e) => set({ buttonText: e.target.value })} maxLength={60} />
        </label>
        {p.action === 'button' ? (
          <label>
            Button link
            <input value={p.buttonUrl} onChange={(e) => set({ buttonUrl: e.target.value })} placeholder="/shop" />
          </label>
        ) : (
          <>
            <label>
              Email placeholder
              <input value={p.placeholder} onChange={(e) => set({ placeholder: e.target.value })} />
            </label>
            <label>
              Thank-you text
              <input value={p.successText} onChange={(e) => set({ successText: e.target.value })} />
            </label>
            <label>
              Mailing list
              <select value={p.listId ?? ''} onChange={(e) => set({ listId: e.target.value || null })}>
                <option value="">Default list</option>
                {(lists?.lists ?? []).map((l) => (
                  <option key={l.id} value={l.id}>
                    {l.name}
                  </option>
                ))}
              </select>
            </label>
            <label>
              <input type="checkbox" checked={p.captcha} onChange={(e) => set({ captcha: e.target.checked })} /> Captcha on the sign-up
            </label>
          </>
        )}
        <fieldset>
          <legend>Position</legend>
          <div className="admin-anchor-grid" style={{ display: 'grid', gridTemplateColumns: 'repeat(3, auto)', gap: 4 }}>
            {POPUP_ANCHORS.map((a) => (
              <label key={a}>
                <input type="radio" name="anchor" checked={p.anchor === a} onChange={() => set({ anchor: a })} /> {ANCHOR_LABEL(a)}
              </label>
            ))}
          </div>
        </fieldset>
        <label>
          Show
          <select value={p.trigger} onChange={(e) => set({ trigger: e.target.value as PopupTrigger })}>
            {POPUP_TRIGGERS.map((t) => (
              <option key={t} value={t}>
                {t === 'delay' ? 'After a delay' : t === 'scroll' ? 'When the visitor scrolls' : 'When the visitor is about to leave'}
              </option>
            ))}
          </select>
        </label>
        {p.trigger === 'delay' ? (
          <label>
            Delay (seconds)
            <input type="number" min={0} max={600} value={p.delaySeconds} onChange={(e) => set({ delaySeconds: Number(e.target.value) })} />
          </label>
        ) : null}
        {p.trigger === 'scroll' ? (
          <label>
            Scrolled (percent of the page)
            <input
              type="number"
              min={1}
              max={100}
              value={p.scrollPercent}
              onChange={(e) => set({ scrollPercent: Number(e.target.value) })}
            />
          </label>
        ) : null}
        <label>
          Pages (one path per line, such as / or /shop/*; empty: every page)
          <textarea rows={3} value={pages} onChange={(e) => setPagesText(e.target.value)} />
        </label>
        <label>
          Show again after a close (days; 0: only when the popup changes)
          <input type="number" min={0} max={365} value={p.showAgainDays} onChange={(e) => set({ showAgainDays: Number(e.target.value) })} />
        </label>
      </SaveForm>
    </>
  );
}

// ---- Mailing lists -------------------------------------------------------------------------------

type Member = MemberJson;

function Members({ list }: { list: List }) {
  const [d, , error, reload] = useLoad<{ members: Member[]; total: number }>(
    `${API}/lists/${encodeURIComponent(list.id)}/members?limit=200`,
  );
  useEffect(reload, [list.subscribedCount, list.pendingCount, list.unsubscribedCount]);
  if (!d) return error ? <p role="alert">{error}</p> : <Skeleton lines={2} label={`Loading members of ${list.name}`} />;
  return (
    <table aria-label={`Members of ${list.name}`}>
      <ColumnHeads columns={['Email', 'Status', 'Source', 'Signed up']} />
      <tbody>
        {d.members.length === 0 ? (
          <tr>
            <td colSpan={4}>
              No one has signed up yet. Add a newsletter block to a page, or turn on the promo popup, to collect sign-ups.
            </td>
          </tr>
        ) : (
          d.members.map((x) => (
            <tr key={x.id}>
              <td>{x.email}</td>
              <td>{x.status}</td>
              <td>{x.source}</td>
              <td>{formatWhen(x.created)}</td>
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}

export function ListsScreen() {
  const [d, , error, reload] = useLoad<{ lists: List[] }>(`${API}/lists`);
  const [name, setName] = useState('');
  const [doubleOptIn, setDoubleOptIn] = useState(false);
  if (!d) return error ? <p role="alert">{error}</p> : <Skeleton lines={4} label="Loading mailing lists" />;
  return (
    <>
      <PageHeader
        title="Mailing lists"
        description="Sign-ups from newsletter forms, the promo popup and the back-in-stock form. Every email to a list carries a one-click unsubscribe link."
      />
      {d.lists.length === 0 ? (
        <EmptyState title="No mailing lists yet">
          Create a list below; newsletter forms and the promo popup can then sign visitors up to it.
        </EmptyState>
      ) : null}
      {d.lists.map((l) => (
        <section key={l.id} aria-label={l.name} className="a-card admin-card">
          <h2>
            {l.name}
            {l.isDefault ? ' (default)' : ''}
          </h2>
          <p>
            {l.subscribedCount} subscribed, {l.pendingCount} waiting for confirmation, {l.unsubscribedCount} unsubscribed.{' '}
            <a href={`${API}/lists/${encodeURIComponent(l.id)}/export.csv`} download>
              Export {l.name} as CSV
            </a>
          </p>
          <label className="a-check">
            <input
              type="checkbox"
              checked={l.doubleOptIn}
              onChange={(e) => {
                void api('PUT', `${API}/lists/${encodeURIComponent(l.id)}`, { doubleOptIn: e.target.checked }).then(reload);
              }}
            />{' '}
            Double opt-in (new members confirm by email)
          </label>
          <Members list={l} />
        </section>
      ))}
      <SaveForm
        label="New mailing list"
        button="Create list"
        onSubmit={async () => {
          await api('POST', `${API}/lists`, { name, doubleOptIn });
          setName('');
          reload();
          return 'List created.';
        }}
      >
        <label>
          List name
          <input value={name} onChange={(e) => setName(e.target.value)} maxLength={200} required />
        </label>
        <label className="a-check">
          <input type="checkbox" checked={doubleOptIn} onChange={(e) => setDoubleOptIn(e.target.checked)} /> Double opt-in
        </label>
      </SaveForm>
    </>
  );
}

// ---- Cookie banner -------------------------------------------------------------------------------

const MODE_LABEL: Record<CookieBannerMode, string> = {
  off: 'Off: no banner',
  notice: 'Notice: tell visitors the site uses cookies',
  'opt-in': 'Opt-in: analytics and third-party scripts wait for consent',
};

export function CookiesScreen() {
  const [d, setD, error] = useLoad<{ cookieBanner: CookieBannerSettings }>(`${API}/cookies`);
  if (!d) return error ? <p role="alert">{error}</p> : <Skeleton lines={4} label="Loading the cookie banner" />;
  const c = d.cookieBanner;
  return (
    <>
      <PageHeader
        title="Cookie banner"
        description="Whether visitors see a cookie notice, and whether analytics and third-party scripts wait for their consent."
      />
      <SaveForm
        label="Cookie banner"
        onSubmit={async () => {
          const r = await api<{ cookieBanner: CookieBannerSettings }>('PUT', `${API}/cookies`, c);
          setD(r);
        }}
      >
        <fieldset>
          <legend>Banner</legend>
          {COOKIE_BANNER_MODES.map((mode) => (
            <label key={mode} className="a-check">
              <input type="radio" name="mode" checked={c.mode === mode} onChange={() => setD({ cookieBanner: { ...c, mode } })} />{' '}
              {MODE_LABEL[mode]}
            </label>
          ))}
        </fieldset>
        <label>
          Banner text (empty: the default text)
          <textarea rows={3} value={c.text} onChange={(e) => setD({ cookieBanner: { ...c, text: e.target.value } })} maxLength={2000} />
        </label>
        <label>
          Privacy policy link
          <input value={c.policyUrl} onChange={(e) => setD({ cookieBanner: { ...c, policyUrl: e.target.value } })} placeholder="/privacy" />
        </label>
      </SaveForm>
    </>
  );
}

/** /config settings screens: header/footer code, languages, commerce preferences, team, pages and posts, navigation. */
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { api } from '../../client/api.js';
import { msg, SaveForm, useLoad } from '../ui/records.js';
import { platform as platformMessages } from '../../../core/messages.js';
import type { LayoutLink } from '../../../core/api/common.js';
import { ConfirmDialog, EmptyState, PageHeader, Skeleton, useToast } from '../ui/design.js';
import { savePreferences, usePreferences } from '../../client/commerce-preferences.js';
import { INSTALMENT_COUNTRIES } from '../../../core/instalments.js';
import { CodeEditingUnavailable, useAndroid } from '../ui/code-editing.js';

export function HeaderFooterScreen() {
  const [d, setD, error, , saved] = useLoad<{ header: string; footer: string }>('/api/site-header-footer');
  const android = useAndroid();
  if (!d) return error ? <p role="alert">{error}</p> : <Skeleton lines={4} label="Loading header and footer code" />;
  return (
    <>
      <PageHeader
        title="Header and footer code"
        description="Code added to every public page: analytics tags, verification meta tags, chat widgets. It runs for every visitor, so paste only code you trust."
      />
      {android ? (
        <CodeEditingUnavailable />
      ) : (
        <SaveForm label="Header and footer code" onSubmit={async () => void saved(await api('PUT', '/api/site-header-footer', d))}>
          <label>
            Header code
            <textarea rows={6} value={d.header} onChange={(e) => setD({ ...d, header: e.target.value })} spellCheck={false} />
          </label>
          <label>
            Footer code
            <textarea rows={6} value={d.footer} onChange={(e) => setD({ ...d, footer: e.target.value })} spellCheck={false} />
          </label>
        </SaveForm>
      )}
    </>
  );
}

interface Lang {
  code: string;
  customCoded: boolean;
}

export function LanguagesScreen() {
  const [d, , error, reload] = useLoad<{ languages: Lang[]; connected: boolean; primaryLanguage: string }>('/api/multilingual/settings');
  const [code, setCode] = useState('');
  const toast = useToast();
  if (!d) return error ? <p role="alert">{error}</p> : <Skeleton lines={3} label="Loading languages" />;
  const save = async (languages: Lang[]) => {
    await api('PUT', '/api/multilingual/languages', { languages });
    reload();
  };
  const remove = async (l: Lang) => {
    try {
      await save(d.languages.filter((x) => x.code !== l.code));
      toast(`${l.code} removed.`);
    } catch (e) {
      toast(msg(e), { tone: 'error' });
    }
  };
  const turnOff = async () => {
    try {
      await api('DELETE', '/api/multilingual/connection');
      reload();
      toast('Translations are off.');
    } catch (e) {
      toast(msg(e), { tone: 'error' });
    }
  };
  return (
    <>
      <PageHeader
        title="Languages"
        description={`Site language: ${d.primaryLanguage}. ${d.connected ? 'Translations are on.' : 'Translations are off.'}`}
        actions={
          d.connected ? (
            <ConfirmDialog
              trigger={<button type="button">Turn translations off</button>}
              title="Turn translations off?"
              description="Visitors will see the site in its own language only. The languages below stay listed."
              confirm="Turn translations off"
              onConfirm={turnOff}
            />
          ) : undefined
        }
      />
      <section className="a-card admin-card" aria-labelledby="languages-h">
        <h2 id="languages-h">Other languages</h2>
        {d.languages.length === 0 ? (
          <EmptyState title="No other languages yet" level={3}>
            Add a language code below (such as fr or de-CH) to offer the site in it.
          </EmptyState>
        ) : (
          <ul className="a-list">
            {d.languages.map((l) => (
              <li key={l.code}>
                <span>
                  <strong>{l.code}</strong>
                  {l.customCoded ? ' (custom-coded)' : ''}
                </span>{' '}
                <ConfirmDialog
                  trigger={<button type="button">Remove {l.code}</button>}
                  title={`Remove ${l.code}?`}
                  description={`Visitors will no longer be offered the site in ${l.code}.`}
                  confirm={`Remove ${l.code}`}
                  onConfirm={() => remove(l)}
                />
              </li>
            ))}
          </ul>
        )}
      </section>
      <SaveForm
        label="Add a language"
        button="Add language"
        onSubmit={async () => {
          if (d.languages.some((l) => l.code.toLowerCase() === code.toLowerCase())) throw new Error(platformMessages.tagExists('language'));
          await save([...d.languages, { code, customCoded: false }]);
          setCode('');
        }}
      >
        <label>
          Language code (such as fr or de-CH)
          <input value={code} onChange={(e) => setCode(e.target.value)} required />
        </label>
      </SaveForm>
    </>
  );
}

interface StoreSettings {
  version: number;
  currency: string;
  currencies: string[];
  multipleQuantityAllowedForServices: boolean;
  minimumOrderSubtotalCents: number;
  instalmentsEnabled: boolean;
}

export function CommercePreferencesScreen() {
  const [d, setD, error, , saved] = useLoad<StoreSettings>('/api/config/store-settings');
  const client = useQueryClient();
  const [min, setMin] = useState<string | null>(null);
  if (!d) return <p>{error || 'Loading…'}</p>;
  return (
    <>
      <h1>Commerce preferences</h1>
      <SaveForm
        label="Commerce preferences"
        onSubmit={async () => {
          const minimumOrderSubtotalCents = min === null ? d.minimumOrderSubtotalCents : Math.round(Number(min) * 100);
          saved(await api<StoreSettings>('PUT', '/api/config/store-settings', { ...d, minimumOrderSubtotalCents }));
          setMin(null);
          // The currency and minimum are read by the coupons, shipping, orders and catalogue screens too.
          void client.invalidateQueries({ queryKey: ['checkout-settings'] });
          void client.invalidateQueries({ queryKey: ['catalog-settings'] });
        }}
      >
        <label>
          Currency
          <select value={d.currency} onChange={(e) => setD({ ...d, currency: e.target.value })}>
            {d.currencies.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </label>
        <label>
          Minimum order subtotal
          <input
            inputMode="decimal"
            value={min ?? (d.minimumOrderSubtotalCents / 100).toFixed(2)}
            onChange={(e) => setMin(e.target.value)}
          />
        </label>
        <label className="admin-check">
          <input
            type="checkbox"
            checked={d.multipleQuantityAllowedForServices}
            onChange={(e) => setD({ ...d, multipleQuantityAllowedForServices: e.target.checked })}
          />{' '}
          Allow more than one of a service per order
        </label>
        <label className="admin-check">
          <input type="checkbox" checked={d.instalmentsEnabled} onChange={(e) => setD({ ...d, instalmentsEnabled: e.target.checked })} />{' '}
          Offer instalment payments
        </label>
      </SaveForm>
      <InstalmentProviderSummary />
      <InstalmentProviderForm />
    </>
  );
}

/** The 'instalments' commerce preferences namespace as it is stored (read through the commerce-preferences call). */
function InstalmentProviderSummary() {
  const { data, error } = usePreferences('instalments');
  if (error) return <p role="alert">{error}</p>;
  if (!data) return <Skeleton lines={1} label="Loading the instalment provider" />;
  const country = typeof data.merchantCountry === 'string' ? data.merchantCountry : '';
  return (
    <p aria-label="Instalment provider" className="a-muted">
      {data.available === true && country
        ? `Instalment provider account: ${country}, available.`
        : `Instalment provider account: ${country || 'no country'}, not available.`}
    </p>
  );
}

/** Edits the 'instalments' namespace: written only when a value changed; the summary fetches again after a write. */
function InstalmentProviderForm() {
  const { data, error } = usePreferences('instalments');
  const [edit, setEdit] = useState<{ available: boolean; merchantCountry: string } | null>(null);
  if (!data) return error ? null : <Skeleton lines={2} label="Loading the instalment provider settings" />;
  const v = edit ?? {
    available: data.available === true,
    merchantCountry: typeof data.merchantCountry === 'string' ? data.merchantCountry : '',
  };
  return (
    <SaveForm
      label="Instalment provider"
      onSubmit={async () => {
        const wrote = await savePreferences('instalments', { available: v.available, merchantCountry: v.merchantCountry });
        setEdit(null);
        return wrote ? 'Saved.' : 'No changes to save.';
      }}
    >
      <label className="admin-check">
        <input type="checkbox" checked={v.available} onChange={(e) => setEdit({ ...v, available: e.target.checked })} /> The provider
        account takes instalment payments
      </label>
      <label>
        Provider account country
        <select value={v.merchantCountry} onChange={(e) => setEdit({ ...v, merchantCountry: e.target.value })}>
          <option value="">Not set</option>
          {Object.keys(INSTALMENT_COUNTRIES).map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </label>
    </SaveForm>
  );
}

const STATUS_LABELS: Record<string, string> = {
  published: 'Published',
  scheduled: platformMessages.STATUS_SCHEDULED,
  'needs-review': platformMessages.STATUS_NEEDS_REVIEW,
  draft: platformMessages.STATUS_DRAFT,
  private: platformMessages.STATUS_PRIVATE,
};

interface PageRow {
  id: string;
  title: string;
  urlId: string;
  body?: string;
  version: number;
  enabled: boolean;
}
/** A journal post as the list shows it; posts are edited in the post editor (/config/posts/:id). */
interface Post {
  id: string;
  title: string;
  status: string;
}

export function ContentScreen() {
  const [pages, , pErr, reloadPages] = useLoad<{ pages: PageRow[] }>('/api/config/pages');
  const [posts, , qErr] = useLoad<{ posts: Post[] }>('/api/config/posts');
  const [page, setPage] = useState<PageRow | null>(null);
  return (
    <>
      <h1>Pages and journal posts</h1>
      {pErr || qErr ? <p role="alert">{pErr || qErr}</p> : null}
      <h2>Pages</h2>
      <ul>
        {pages?.pages.map((p) => (
          <li key={p.id}>
            <button type="button" onClick={() => setPage(p)}>
              Edit {p.title}
            </button>{' '}
            /{p.urlId}
          </li>
        ))}
      </ul>
      <button type="button" onClick={() => setPage({ id: '', title: '', urlId: '', body: '', version: 0, enabled: true })}>
        New page
      </button>
      {page ? (
        <SaveForm
          label="Page"
          onSubmit={async () => {
            if (page.id) setPage(await api('PUT', `/api/config/pages/${page.id}`, page));
            else setPage(await api('POST', '/api/config/pages', { title: page.title, body: page.body }));
            reloadPages();
          }}
        >
          <label>
            Page title
            <input value={page.title} onChange={(e) => setPage({ ...page, title: e.target.value })} required />
          </label>
          <label>
            Page body (HTML)
            <textarea rows={6} value={page.body ?? ''} onChange={(e) => setPage({ ...page, body: e.target.value })} />
          </label>
        </SaveForm>
      ) : null}
      <h2>Journal posts</h2>
      <p>
        Posts are written in the visual editor, like pages: <a href="/config/posts">open Posts</a> to write a new one.
      </p>
      <ul>
        {posts?.posts.map((p) => (
          <li key={p.id}>
            <a href={`/config/posts/${p.id}`}>Edit {p.title}</a>{' '}
            <span className={`admin-status admin-status--${p.status}`}>{STATUS_LABELS[p.status] ?? p.status}</span>
          </li>
        ))}
      </ul>
    </>
  );
}

export function NavigationScreen() {
  const [layout, , error, reload] = useLoad<Array<{ identifier: string; links: LayoutLink[] }>>('/api/commondata/GetSiteLayout');
  const [cols] = useLoad<{ collections: Array<{ id: string; title: string; urlId: string; enabled: boolean }> }>('/api/config/collections');
  const [err, setErr] = useState('');
  if (!layout) return <p>{error || 'Loading…'}</p>;
  const main = layout[0];
  const save = (links: LayoutLink[]) =>
    api('POST', '/api/widget/UpdateNavigation', { fieldName: main!.identifier, templateId: 'default', navigation: { items: links } }).then(
      reload,
      (x) => setErr(msg(x)),
    );
  const move = (i: number, d: number) => {
    const links = main!.links.slice();
    const [l] = links.splice(i, 1);
    links.splice(i + d, 0, l!);
    void save(links);
  };
  const name = (l: LayoutLink) => l.title || cols?.collections.find((c) => c.id === l.collectionId)?.title || l.externalLink || '';
  return (
    <>
      <h1>Navigation and collections</h1>
      {err ? <p role="alert">{err}</p> : null}
      {!main ? (
        <p role="alert">{platformMessages.NO_MAIN_NAVIGATION}</p>
      ) : (
        <ol aria-label="Main navigation">
          {main.links.map((l, i) => (
            <li key={`${l.collectionId ?? l.externalLink}-${i}`}>
              {name(l)}{' '}
              <button type="button" disabled={i === 0} onClick={() => move(i, -1)}>
                Move {name(l)} up
              </button>{' '}
              <button type="button" disabled={i === main.links.length - 1} onClick={() => move(i, 1)}>
                Move {name(l)} down
              </button>{' '}
              <button type="button" onClick={() => void save(main.links.filter((_, j) => j !== i))}>
                Remove {name(l)} from navigation
              </button>
            </li>
          ))}
        </ol>
      )}
      <h2>Collections</h2>
      <ul>
        {cols?.collections.map((c) => (
          <li key={c.id}>
            {c.title} /{c.urlId}{' '}
            {main && !main.links.some((l) => l.collectionId === c.id) ? (
              <button
                type="button"
                onClick={() =>
                  void save([...main.links, { title: '', collectionId: c.id, externalLink: null, memberAreaId: null, children: [] }])
                }
              >
                Add {c.title} to navigation
              </button>
            ) : null}
          </li>
        ))}
      </ul>
    </>
  );
}

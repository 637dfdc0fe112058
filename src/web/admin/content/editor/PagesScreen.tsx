/** /config/pages: the site's pages with their status, a form to create one, and the way into the editor. */
import { useEffect, useState, type FormEvent } from 'react';
import { PAGE_STATUS_LABELS, type PageStatus } from '../../../../core/layout.js';
import { editor as editorMessages } from '../../../../core/messages.js';
import { createPage, listPages, type NavPlacement, type PageSummary } from './api.js';
import { EDITOR_CSS } from './styles.js';
import { formatWhen } from '../../ui/dates.js';

export function StatusBadge({ status }: { status: PageStatus }) {
  return <span className={`ed-badge ed-badge--${status}`}>{PAGE_STATUS_LABELS[status] ?? status}</span>;
}

/** 'Something went wrong' with 'Try again', for a load that failed. */
/** A save refused because someone else changed the page first: their message and a Reload button. */
export function ConflictBanner({ message, onReload }: { message: string; onReload: () => void }) {
  return (
    <div role="alert" className="ed-alert">
      <span>{message}</span>
      <button type="button" onClick={onReload}>
        Reload
      </button>
    </div>
  );
}

export function LoadFailed({ onRetry, detail }: { onRetry: () => void; detail?: string }) {
  return (
    <div role="alert" className="ed-alert">
      <span>
        {editorMessages.SOMETHING_WENT_WRONG}
        {detail ? <span className="ed-visually-hidden">: {detail}</span> : null}
      </span>
      <button type="button" onClick={onRetry}>
        {editorMessages.TRY_AGAIN}
      </button>
    </div>
  );
}

export function PagesScreen() {
  const [pages, setPages] = useState<PageSummary[] | null>(null);
  const [folders, setFolders] = useState<Array<{ index: number; title: string }>>([]);
  const [navChoice, setNavChoice] = useState('none');
  const [failed, setFailed] = useState('');
  const [title, setTitle] = useState('');
  const [urlId, setUrlId] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const load = () => {
    setFailed('');
    listPages().then(
      (r) => {
        setPages(r.pages);
        setFolders(r.navFolders ?? []);
      },
      (e: Error) => setFailed(e.message || 'failed'),
    );
  };
  useEffect(load, []);

  async function create(e: FormEvent) {
    e.preventDefault();
    setError('');
    setBusy(true);
    try {
      const navigation: NavPlacement | undefined =
        navChoice === 'first' || navChoice === 'last'
          ? { position: navChoice }
          : navChoice.startsWith('folder:')
            ? { position: 'folder', folder: Number(navChoice.slice(7)) }
            : undefined;
      const r = await createPage(title.trim(), urlId.trim() || undefined, navigation);
      window.location.assign(`/config/pages/${r.page.id}`);
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  }

  return (
    <>
      <style>{EDITOR_CSS}</style>
      <h1>Pages</h1>
      {failed ? <LoadFailed onRetry={load} detail={failed} /> : null}
      {!pages && !failed ? <p>Loading…</p> : null}
      {pages ? (
        pages.length ? (
          <ul className="ed-list" aria-label="Pages">
            {pages.map((p) => (
              <li key={p.id}>
                <a href={`/config/pages/${p.id}`} aria-label={`Edit ${p.title}`}>
                  {p.title}
                </a>
                <span>{p.fullUrl}</span>
                <StatusBadge status={p.status} />
                {p.publishedAt && p.status !== 'published' ? <span>Live; the changes since are not published</span> : null}
                {p.status === 'scheduled' && p.publishAt ? <span>Publishes {formatWhen(p.publishAt)}</span> : null}
              </li>
            ))}
          </ul>
        ) : (
          <p>No pages yet.</p>
        )
      ) : null}
      <h2>Create a page</h2>
      <form onSubmit={create} className="admin-form" aria-label="Create a page">
        <label>
          Page title <input value={title} onChange={(e) => setTitle(e.target.value)} required maxLength={200} />
        </label>
        <label>
          Page URL (optional, such as /about-us) <input value={urlId} onChange={(e) => setUrlId(e.target.value)} maxLength={200} />
        </label>
        <label>
          Add to the main navigation
          <select value={navChoice} onChange={(e) => setNavChoice(e.target.value)}>
            <option value="none">Don't add it</option>
            <option value="first">First</option>
            <option value="last">Last</option>
            {folders.map((f) => (
              <option key={f.index} value={`folder:${f.index}`}>
                Under {f.title}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={busy}>
          Create page
        </button>
        {error ? <p role="alert">{error}</p> : null}
      </form>
    </>
  );
}

/**
 * /config/posts: the journal's posts with their status (draft, scheduled, published), a search, and New post,
 * which makes a draft and opens it in the editor (/config/posts/:id, the page editor for the post's body).
 */
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import type { PageStatus } from '../../../../core/layout.js';
import { createPost, listPosts, type PostsList } from './api.js';
import { LoadFailed, StatusBadge } from './PagesScreen.js';
import { EDITOR_CSS } from './styles.js';
import { formatDateTime } from './post-time.js';
import { Modal } from '../../../islands/Modal.js';

const FILTERS: ReadonlyArray<[string, string]> = [
  ['all', 'All posts'],
  ['draft', 'Drafts'],
  ['scheduled', 'Scheduled'],
  ['published', 'Published'],
];

export function PostsScreen() {
  const [data, setData] = useState<PostsList | null>(null);
  const [failed, setFailed] = useState('');
  const [query, setQuery] = useState('');
  const [filter, setFilter] = useState('all');
  const [creating, setCreating] = useState(false);
  const [title, setTitle] = useState('');
  const [journalId, setJournalId] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const load = () => {
    setFailed('');
    listPosts().then(
      (r) => {
        setData(r);
        setJournalId((j) => j || r.journals[0]?.id || '');
      },
      (e: Error) => setFailed(e.message || 'failed'),
    );
  };
  useEffect(load, []);

  const journals = useMemo(() => new Map((data?.journals ?? []).map((j) => [j.id, j])), [data]);
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    return (data?.posts ?? []).filter(
      (p) =>
        (filter === 'all' || p.status === filter) &&
        (q === '' ||
          p.title.toLowerCase().includes(q) ||
          p.tags.some((t) => t.toLowerCase().includes(q)) ||
          p.categories.some((c) => c.toLowerCase().includes(q))),
    );
  }, [data, query, filter]);

  async function create(e: FormEvent) {
    e.preventDefault();
    setError('');
    if (!title.trim()) {
      setError('Enter a title.');
      return;
    }
    setBusy(true);
    try {
      const made = await createPost(journalId, title.trim());
      window.location.assign(`/config/posts/${made.id}`);
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  }

  return (
    <>
      <style>{EDITOR_CSS}</style>
      <div className="ed-posts-tools">
        <h1 style={{ margin: 0, flex: 1 }}>Posts</h1>
        {data && data.journals.length ? (
          <button type="button" onClick={() => setCreating(true)}>
            New post
          </button>
        ) : null}
      </div>
      {failed ? <LoadFailed onRetry={load} detail={failed} /> : null}
      {!data && !failed ? <p>Loading…</p> : null}
      {data && data.journals.length === 0 ? <p>This site has no journal yet. Add a journal collection to write posts.</p> : null}
      {data && data.journals.length ? (
        <>
          <div className="ed-posts-tools" role="search" aria-label="Find posts">
            <label>
              Search posts
              <input type="search" value={query} onChange={(e) => setQuery(e.target.value)} />
            </label>
            <label>
              Show
              <select value={filter} onChange={(e) => setFilter(e.target.value)}>
                {FILTERS.map(([v, l]) => (
                  <option key={v} value={v}>
                    {l}
                  </option>
                ))}
              </select>
            </label>
          </div>
          {shown.length ? (
            <ul className="ed-list" aria-label="Posts">
              {shown.map((p) => (
                <li key={p.id}>
                  <a href={`/config/posts/${p.id}`} aria-label={`Edit ${p.title}`}>
                    {p.title}
                  </a>
                  <StatusBadge status={p.status as PageStatus} />
                  <span className="ed-post-date">
                    {p.status === 'scheduled' ? 'Publishes ' : p.status === 'published' ? '' : 'Dated '}
                    <time dateTime={p.publishOn}>{formatDateTime(p.publishOn, data.timeZone)}</time>
                  </span>
                  {journals.size > 1 ? <span>{journals.get(p.collectionId)?.title}</span> : null}
                </li>
              ))}
            </ul>
          ) : (
            <p>{data.posts.length ? 'No posts match.' : 'No posts yet. Write the first one with New post.'}</p>
          )}
        </>
      ) : null}
      {creating ? (
        <Modal title="New post" titleId="ed-new-post-title" onClose={() => setCreating(false)} className="ed-dialog">
          <form onSubmit={create} aria-label="New post" className="ed-html" noValidate>
            <label htmlFor="ed-new-post">Post title</label>
            <input
              id="ed-new-post"
              value={title}
              onChange={(e) => setTitle(e.target.value)}
              maxLength={300}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'ed-new-post-error' : undefined}
            />
            {data && data.journals.length > 1 ? (
              <label>
                Journal{' '}
                <select value={journalId} onChange={(e) => setJournalId(e.target.value)}>
                  {data.journals.map((j) => (
                    <option key={j.id} value={j.id}>
                      {j.title}
                    </option>
                  ))}
                </select>
              </label>
            ) : null}
            {error ? (
              <p id="ed-new-post-error" role="alert" className="ed-error">
                {error}
              </p>
            ) : null}
            <span>
              <button type="submit" disabled={busy}>
                Create and edit
              </button>
            </span>
          </form>
        </Modal>
      ) : null}
    </>
  );
}

/**
 * The page editor's calls to the server beyond autosave: publish, unpublish, schedule, the page status, a post's
 * fields, a post body from HTML, and the preview. Each waits for the save under way; a 409 shows the conflict.
 */
import { PAGE_STATUS_LABELS, canonicalJson, validateLayout, type PageLayout } from '../../../../core/layout.js';
import {
  publishPage,
  publishPost,
  saveDraft,
  loadPost,
  savePostDraft,
  savePostFields,
  schedulePage,
  unschedulePage,
  unpublishPost,
  type PageSummary,
} from './api.js';
import type { PostFieldValues } from './PostPanel.js';
import { formatDateTime } from './post-time.js';
import { record } from './history.js';
import { errorMessage, errorStatus, serverFieldErrors, type PageDocument } from './page-document.js';
import { formatWhen } from '../../ui/dates.js';

export interface CallsContext {
  doc: PageDocument;
  id: string;
  isPost: boolean;
  page: PageSummary;
  setHtmlMode: (html: string | null) => void;
  setPreview: (at: number | null) => void;
}

export function pageCalls({ doc, id, isPost, page, setHtmlMode, setPreview }: CallsContext) {
  const {
    validation,
    save,
    setNotice,
    setDone,
    setBusy,
    inflight,
    present,
    version,
    savedText,
    setPage,
    setAnnouncement,
    onConflict,
    setServerErrors,
    setPost,
    lastKey,
    setHist,
    setSelectedId,
    persist,
    post,
  } = doc;
  const noun = isPost ? 'post' : 'page';
  /** Runs a page call after the pending save; a 409 turns into the conflict banner. */
  async function pageCall(run: (layout: PageLayout) => Promise<{ page: PageSummary; layout?: PageLayout }>, success: string) {
    setNotice('');
    setDone('');
    if (validation && !validation.ok) {
      setNotice(save.message ?? validation.message ?? '');
      return;
    }
    setBusy(true);
    while (inflight.current) await inflight.current;
    const v = validateLayout(present.current);
    try {
      const r = await run(v.layout!);
      version.current = r.page.version;
      if (r.layout) savedText.current = canonicalJson(r.layout);
      else savedText.current = canonicalJson(v.layout);
      setPage(r.page);
      setDone(success);
      setAnnouncement(success);
    } catch (e) {
      if (errorStatus(e) === 409) onConflict((e as Error).message);
      else {
        setServerErrors(serverFieldErrors(e, v.layout!));
        setNotice(errorMessage(e));
      }
    } finally {
      setBusy(false);
    }
  }

  const publish = () =>
    pageCall(
      (l) => (isPost ? publishPost(id, version.current, l) : publishPage(id, version.current, l)),
      `Published. Visitors now see this ${noun} at ${page.fullUrl}.`,
    ).then(refreshPost);
  /** After a post call the fields' status and date follow the server's (the panel shows them). */
  function refreshPost() {
    if (isPost)
      loadPost(id).then(
        (d) => setPost((p) => (p ? { ...p, fields: { ...p.fields, status: d.post.status, publishOn: d.post.publishOn } } : p)),
        () => undefined,
      );
  }
  const unpublish = () =>
    pageCall(async () => unpublishPost(id, version.current), 'Unpublished. The post is a draft again.').then(refreshPost);

  /** Saves the post's fields after any body save under way; answers per-field problems, or null. */
  async function saveFields(fields: PostFieldValues): Promise<Record<string, string> | null> {
    setNotice('');
    setDone('');
    setBusy(true);
    while (inflight.current) await inflight.current;
    try {
      const r = await savePostFields(id, version.current, fields);
      version.current = r.version;
      setPage((p) => (p ? { ...p, title: r.title, version: r.version } : p));
      setPost((p) => (p ? { ...p, fields: { ...p.fields, ...r } } : p));
      setDone('Post details saved.');
      setAnnouncement('Post details saved.');
      return null;
    } catch (e) {
      if (errorStatus(e) === 409) onConflict((e as Error).message);
      else setNotice(errorMessage(e));
      return ((e as { data?: { errors?: Record<string, string> } }).data?.errors as Record<string, string> | undefined) ?? null;
    } finally {
      setBusy(false);
    }
  }

  /** Raw HTML mode (admins): the whole body as HTML, saved as one text block cleaned with the site's allow-list. */
  async function applyHtml(html: string) {
    setNotice('');
    setBusy(true);
    while (inflight.current) await inflight.current;
    try {
      const r = await savePostDraft(id, version.current, { html });
      version.current = r.page.version;
      savedText.current = canonicalJson(r.layout);
      setPage(r.page);
      lastKey.current = null;
      setHist((h) => (h ? record(h, r.layout) : h));
      setSelectedId(null);
      setHtmlMode(null);
      setDone('Body saved from HTML.');
      setAnnouncement('Body saved from HTML.');
    } catch (e) {
      if (errorStatus(e) === 409) onConflict((e as Error).message);
      else setNotice(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }
  const setStatus = (status: 'draft' | 'needs-review' | 'private') =>
    pageCall(async (l) => {
      if (page.status === 'scheduled') {
        const u = await unschedulePage(id, version.current);
        version.current = u.page.version;
      }
      return saveDraft(id, version.current, l, status);
    }, `Status: ${PAGE_STATUS_LABELS[status]}.`);

  async function openPreview() {
    setNotice('');
    if (validation && !validation.ok) {
      setNotice(save.message ?? validation.message ?? '');
      return;
    }
    if (await persist()) setPreview(Date.now());
  }

  /** Publishes a post on a date (the site's clocks) or schedules a page (the browser's). */
  const schedule = async (when: string) => {
    if (isPost)
      await pageCall(
        async (l) => publishPost(id, version.current, l, when),
        `Scheduled for ${formatDateTime(when, post!.timeZone)} (${post!.timeZone}).`,
      ).then(refreshPost);
    else await pageCall(async (l) => schedulePage(id, version.current, when, l), `Scheduled for ${formatWhen(when)}.`);
  };

  return { publish, unpublish, saveFields, applyHtml, setStatus, openPreview, schedule };
}

export type PageCalls = ReturnType<typeof pageCalls>;

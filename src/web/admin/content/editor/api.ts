/** The page editor's calls to /api/editor, typed with the contract's shapes (core/api/editor.ts). */
import { api, readCookie, ApiError } from '../../../client/api.js';
import type { PageLayout, PageSummary } from '../../../../core/layout.js';
import type { PostCover, PostFields } from '../../../../core/content.js';
import { editor } from '../../../../core/messages.js';
import { CRUMB_COOKIE } from '../../../../core/cookies.js';

import type {
  DraftStatus,
  PagesList,
  NavPlacement,
  PageDoc,
  SavedPage,
  Upload,
  BlockPictures,
  PostDoc,
  PostRow,
  PostsList,
} from '../../../../core/api/editor.js';

export type { PageSummary, PagesList, NavPlacement, PageDoc, SavedPage, Upload, BlockPictures, PostDoc, PostRow, PostsList };

export const listPages = () => api<PagesList>('GET', '/api/editor/pages');
export const createPage = (title: string, urlId?: string, navigation?: NavPlacement) =>
  api<{ page: PageSummary }>('POST', '/api/editor/pages', { title, ...(urlId ? { urlId } : {}), ...(navigation ? { navigation } : {}) });
export const loadPage = (id: string) => api<PageDoc>('GET', `/api/editor/pages/${encodeURIComponent(id)}`);
export const saveDraft = (id: string, version: number, layout: PageLayout, status?: DraftStatus) =>
  api<SavedPage>('PUT', `/api/editor/pages/${encodeURIComponent(id)}/draft`, status ? { version, layout, status } : { version, layout });
export const publishPage = (id: string, version: number, layout: PageLayout) =>
  api<SavedPage>('POST', `/api/editor/pages/${encodeURIComponent(id)}/publish`, { version, layout });
export const schedulePage = (id: string, version: number, publishAt: string, layout: PageLayout) =>
  api<{ page: PageSummary }>('POST', `/api/editor/pages/${encodeURIComponent(id)}/schedule`, { version, publishAt, layout });
export const unschedulePage = (id: string, version: number) =>
  api<{ page: PageSummary }>('DELETE', `/api/editor/pages/${encodeURIComponent(id)}/schedule`, { version });

export const listUploads = () => api<{ uploads: Upload[] }>('GET', '/api/editor/uploads');

/** How often, and how many times, the editor asks after an upload still processing (about a minute in all). */
export const UPLOAD_POLL_MS = 400;
export const UPLOAD_POLLS = 150;

const wait = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((done, fail) => {
    const t = setTimeout(done, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        fail(new DOMException('Aborted', 'AbortError'));
      },
      { once: true },
    );
  });

/**
 * Sends a file's bytes as they are (the server reads the type from Content-Type). A request that fails
 * on the way (no answer, or an answer without words) is 'There was a problem while uploading your file';
 * a 202 means the server is still processing the file: its job is polled until the upload is ready
 * ('No response data from job request' when a poll answers without the upload, 'File processing failed
 * to complete' when it never finishes).
 */
export async function uploadFile(file: File, signal?: AbortSignal): Promise<Upload> {
  const headers: Record<string, string> = { 'content-type': file.type || 'application/octet-stream', accept: 'application/json' };
  const crumb = readCookie(CRUMB_COOKIE);
  if (crumb) headers['x-csrf-token'] = crumb;
  let res: Response;
  try {
    res = await fetch(`/api/editor/uploads?name=${encodeURIComponent(file.name)}`, {
      method: 'POST',
      body: file,
      headers,
      credentials: 'same-origin',
      signal,
    });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new ApiError(0, editor.UPLOAD_PROBLEM, { network: true });
  }
  let data: Record<string, unknown> = {};
  try {
    data = (await res.json()) as Record<string, unknown>;
  } catch {
    data = {};
  }
  if (!res.ok) throw new ApiError(res.status, typeof data.message === 'string' ? data.message : editor.UPLOAD_PROBLEM, data);
  let upload = data.upload as Upload | undefined;
  if (!upload || typeof upload !== 'object') throw new ApiError(res.status, editor.NO_JOB_RESPONSE, data);
  for (let n = 0; upload.status === 'processing'; n++) {
    if (n >= UPLOAD_POLLS) throw new ApiError(res.status, editor.FILE_PROCESSING_INCOMPLETE, { upload });
    await wait(UPLOAD_POLL_MS, signal);
    const job: { upload?: Upload } | null = await api<{ upload?: Upload } | null>(
      'GET',
      `/api/editor/uploads/${encodeURIComponent(upload.id)}`,
    );
    if (!job || !job.upload || typeof job.upload !== 'object' || typeof job.upload.status !== 'string')
      throw new ApiError(200, editor.NO_JOB_RESPONSE, {});
    upload = job.upload;
  }
  if (upload.status === 'failed') throw new ApiError(422, upload.error ?? editor.FILE_PROCESSING_FAILED, { upload });
  if (upload.status === 'cancelled') throw new ApiError(422, editor.FILE_PROCESSING_CANCELLED, { upload });
  return upload;
}

export { ApiError };

export const renderBlocks = (target: EditTarget, layout: PageLayout) =>
  api<BlockPictures>('POST', `${targetPath(target)}/render`, { layout });

// ---- Journal posts (issue 27): the same editor for a post's body --------------------------------

/** What the editor edits: a page collection or a journal post. */
export interface EditTarget {
  kind: 'page' | 'post';
  id: string;
}
export const targetPath = (t: EditTarget) => `/api/editor/${t.kind}s/${encodeURIComponent(t.id)}`;

export type { PostCover, PostFields };

export const listPosts = () => api<PostsList>('GET', '/api/config/posts');
export const createPost = (collectionId: string, title: string) =>
  api<PostRow>('POST', '/api/config/posts', { collectionId, title, status: 'draft' });
export const loadPost = (id: string) => api<PostDoc>('GET', targetPath({ kind: 'post', id }));
/** Saves the post's fields (not its body); answers the post with its new version. */
export const savePostFields = (id: string, version: number, fields: Omit<PostFields, 'collectionId' | 'urlId'>) =>
  api<PostRow>('PUT', `/api/config/posts/${encodeURIComponent(id)}`, { version, ...fields });
export const savePostDraft = (id: string, version: number, body: { layout: PageLayout } | { html: string }) =>
  api<SavedPage>('PUT', `${targetPath({ kind: 'post', id })}/draft`, { version, ...body });
export const publishPost = (id: string, version: number, layout: PageLayout, publishOn?: string) =>
  api<SavedPage>('POST', `${targetPath({ kind: 'post', id })}/publish`, { version, layout, ...(publishOn ? { publishOn } : {}) });
export const unpublishPost = (id: string, version: number) =>
  api<{ page: PageSummary }>('POST', `${targetPath({ kind: 'post', id })}/unpublish`, { version });

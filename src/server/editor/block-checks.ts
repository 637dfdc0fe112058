/**
 * Checks of a layout's blocks that need more than the layout itself (core/layout.ts checks the shape):
 * run before a draft is saved, published or scheduled, answering 400 with the block's field path.
 *
 * - A newsletter block signs visitors up to a mailing list through a newsletter form: its `formId` must
 *   name a newsletter form of this site ('A List must be selected').
 * - A video block's Vimeo address is resolved through Vimeo's oEmbed endpoint (VIMEO_OEMBED_URL). Vimeo
 *   answers its oEmbed JSON with `account_type`; a Basic account ('basic'), or a 403 (the owner's
 *   privacy settings refuse embedding, as Basic videos do by default), is refused with 'Vimeo Basic
 *   accounts are unsupported'. An unreachable endpoint, a timeout or any other answer takes the address
 *   unchecked: a self-hosted site without internet still saves its pages. Answers are kept 10 minutes,
 *   so autosaves do not ask again.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { BlockType } from '../../core/enums.js';
import { validateLayout, type PageLayout } from '../../core/layout.js';
import { platform as pm } from '../../core/messages.js';
import type { Db } from '../../db/index.js';
import { schema } from '../../db/index.js';
import { badRequest } from '../errors.js';
import { vimeoId } from './render.js';

export type VimeoVerdict = 'ok' | 'basic' | 'unknown';

const KEEP_MS = 10 * 60_000;
const TIMEOUT_MS = 3000;
const MAX_KEPT = 500;

export class VimeoOembed {
  private readonly kept = new Map<string, { at: number; verdict: Promise<VimeoVerdict> }>();

  constructor(
    private readonly endpoint: string,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  /** What Vimeo says of a video's address: 'basic' (refused), 'ok', or 'unknown' (not asked or no answer). */
  verdict(url: string): Promise<VimeoVerdict> {
    const id = vimeoId(url);
    if (!id) return Promise.resolve('unknown');
    const now = Date.now();
    const k = this.kept.get(id);
    if (k && now - k.at < KEEP_MS) return k.verdict;
    if (this.kept.size >= MAX_KEPT) this.kept.clear();
    const verdict = this.ask(id);
    this.kept.set(id, { at: now, verdict });
    return verdict;
  }

  private async ask(id: string): Promise<VimeoVerdict> {
    const u = new URL(this.endpoint);
    u.searchParams.set('url', `https://vimeo.com/${id}`);
    try {
      const res = await this.fetchImpl(u, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(TIMEOUT_MS) });
      if (res.status === 403) return 'basic';
      if (!res.ok) return 'unknown';
      const body = (await res.json()) as { account_type?: unknown };
      return typeof body.account_type === 'string' && body.account_type.toLowerCase() === 'basic' ? 'basic' : 'ok';
    } catch {
      return 'unknown';
    }
  }
}

/** Throws a 400 with the field paths of blocks whose references do not hold; resolves when all do. */
export async function checkBlockReferences(db: Db, websiteId: string, input: unknown, vimeo: VimeoOembed): Promise<void> {
  const v = validateLayout(input);
  // A layout that is not valid is refused by the layout check itself, with its own paths.
  if (!v.ok || !v.layout) return;
  const layout: PageLayout = v.layout;
  const errors: Record<string, string> = {};
  const lists: Array<[string, string]> = [];
  const videos: Array<[string, string]> = [];
  for (const [si, s] of layout.sections.entries()) {
    for (const [bi, b] of s.blocks.entries()) {
      const path = `sections.${si}.blocks.${bi}.data`;
      if (b.type === BlockType.NEWSLETTER) lists.push([`${path}.formId`, String(b.data.formId ?? '')]);
      if (b.type === BlockType.VIDEO && vimeoId(String(b.data.url ?? ''))) videos.push([`${path}.url`, String(b.data.url)]);
    }
  }
  if (lists.length) {
    const ids = [...new Set(lists.map(([, id]) => id))];
    const found = await db
      .select({ id: schema.forms.id })
      .from(schema.forms)
      .where(and(eq(schema.forms.websiteId, websiteId), eq(schema.forms.kind, 'newsletter'), inArray(schema.forms.id, ids)));
    const known = new Set(found.map((f) => f.id));
    for (const [path, id] of lists) if (!known.has(id)) errors[path] = pm.LIST_MUST_BE_SELECTED;
  }
  const verdicts = await Promise.all(videos.map(([, url]) => vimeo.verdict(url)));
  for (const [i, [path]] of videos.entries()) if (verdicts[i] === 'basic') errors[path] = pm.VIMEO_BASIC_UNSUPPORTED;
  const first = Object.values(errors)[0];
  if (first) throw badRequest(first, errors);
}

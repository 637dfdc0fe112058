/**
 * What the members area adds to pages: the page a denied visitor meets instead of the content (lock
 * screen 103, protected content 105, member-area access denied 106), and the video course context
 * (chapters, per-member progress, next lesson) of video list and lesson pages.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PageType } from '../../core/enums.js';
import { formatMoney } from '../../core/money.js';
import { subscriptionPriceText } from '../../core/subscription.js';
import type { SubscriptionPlan } from '../../core/product.js';
import { members as messages } from '../../core/messages.js';
import type { WebsiteRow } from '../platform/index.js';
import { publishedItems, itemUrl, type CollectionRow, type ItemRow } from '../site-context/index.js';
import type { Access, Denial } from './access.js';
import type { AreaRow } from './service.js';
import { renderIsland } from '../../web/ssr.js';
import { cleanOwnerHtml } from '../content/index.js';

type Obj = Record<string, unknown>;

/** A page the pipeline renders into the layout (the shape of pages/routes.ts PageSpec). */
export interface DeniedPage {
  template: string;
  pageType: number;
  status: number;
  title: string;
  ctx: Obj;
}

export const PAYWALL_EVENTS = {
  LIST_VIEW: 'video_list_view',
  DETAILS_VIEW: 'video_details_view',
  ACCESS_DENIED_VIEW: 'video_access_denied_view',
  JOIN_CLICK: 'video_join_click',
  THIRD_PARTY_CLICK: 'video_third_party_click',
} as const;

export function priceText(area: Pick<AreaRow, 'access' | 'priceCents' | 'billingUnit' | 'billingValue'>, currency: string): string {
  if (area.access === 'free') return messages.FREE;
  const price = formatMoney(area.priceCents, currency);
  if (area.access === 'once') return price;
  const plan: SubscriptionPlan = {
    billingPeriod: { value: area.billingValue, unit: area.billingUnit as SubscriptionPlan['billingPeriod']['unit'] },
    numBillingCycles: 0,
  };
  return subscriptionPriceText(price, plan);
}

function pathOf(req: FastifyRequest): string {
  return req.url.split('?')[0] ?? '/';
}

export function lockCtx(req: FastifyRequest, target: string, next: string, error?: string): Obj {
  return {
    action: '/api/members/unlock',
    target,
    next,
    crumb: req.crumb,
    heading: messages.LOCK_TITLE,
    text: target === 'site' ? messages.LOCK_TEXT : messages.PROTECTED_TEXT,
    passwordLabel: messages.PASSWORD_LABEL,
    buttonLabel: messages.UNLOCK_BUTTON,
    error: error ?? null,
  };
}

/** Only the title and address of a locked collection reach its denial page (never its body or settings). */
export function lockedCollectionJson(c: Pick<CollectionRow, 'id' | 'title' | 'urlId' | 'typeName'>): Obj {
  return { id: c.id, title: c.title, urlId: c.urlId, fullUrl: `/${c.urlId}`, typeName: c.typeName };
}

export function lockPage(req: FastifyRequest, error?: string, status = 403, next = pathOf(req)): DeniedPage {
  return {
    template: 'system/lock.html',
    pageType: PageType.LOCK_SCREEN,
    status,
    title: messages.LOCK_TITLE,
    ctx: { lock: lockCtx(req, 'site', next, error) },
  };
}

export function protectedPage(
  req: FastifyRequest,
  c: Pick<CollectionRow, 'id' | 'title' | 'urlId' | 'typeName'>,
  error?: string,
  status = 403,
  next = pathOf(req),
): DeniedPage {
  return {
    template: 'system/protected.html',
    pageType: PageType.PROTECTED_CONTENT,
    status,
    title: c.title,
    ctx: { collection: lockedCollectionJson(c), lock: lockCtx(req, c.id, next, error) },
  };
}

export function viewerStatus(req: FastifyRequest, member: boolean): string {
  return member ? 'member' : req.siteUser ? 'signed_in' : 'anonymous';
}

/** The words of the member-area access-denied page (106): its text and its two buttons. */
export const deniedWords = () => ({
  deniedText: messages.DENIED_TEXT,
  joinLabel: messages.JOIN_BUTTON,
  signInLabel: messages.SIGN_IN_BUTTON,
});

/** The page for a denial; access-denied views are recorded as paywall events. */
export async function deniedPage(
  app: FastifyInstance,
  req: FastifyRequest,
  site: WebsiteRow,
  d: Denial,
  c: CollectionRow,
  itemId: string | null,
): Promise<DeniedPage> {
  if (d.kind === 'site-lock') return lockPage(req);
  if (d.kind === 'password') return protectedPage(req, c);
  const next = pathOf(req);
  const area = d.area;
  await app.analytics?.record(
    PAYWALL_EVENTS.ACCESS_DENIED_VIEW,
    { content_collection_id: c.id, content_item_id: itemId, viewer_access_status: viewerStatus(req, false) },
    { path: next, itemId },
  );
  return {
    template: 'system/access-denied.html',
    pageType: PageType.MEMBER_AREA_ACCESS_DENIED,
    status: 403,
    title: c.title,
    ctx: {
      ...deniedWords(),
      collection: lockedCollectionJson(c),
      memberArea: area ? { id: area.id, name: area.name, priceText: priceText(area, site.currency) } : null,
      joinUrl: area
        ? `/members/join/${encodeURIComponent(area.id)}?from=${encodeURIComponent(c.id)}`
        : `/account/join?next=${encodeURIComponent(next)}`,
      signInUrl: `/account/login?next=${encodeURIComponent(area ? `/members/join/${area.id}` : next)}`,
    },
  };
}

// ---- Video courses -----------------------------------------------------------------------------------

function durationText(seconds: unknown): string {
  const s = Math.max(0, Math.trunc(Number(seconds) || 0));
  if (s === 0) return '';
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, '0')}`;
}

/** Only https embeds of a third-party player, or files of this site, play in a lesson. */
export function safeEmbed(u: unknown): URL | null {
  if (typeof u !== 'string' || u.length > 500) return null;
  try {
    const url = new URL(u);
    return url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

export function safeFile(u: unknown): string | null {
  return typeof u === 'string' && /^\/(?!\/)[\w\-/.%]+$/.test(u) && u.length <= 300 ? u : null;
}

interface Lesson {
  row: ItemRow;
  chapter: string;
}

const LESSON_LIMIT = 250;

async function lessonsOf(app: FastifyInstance, c: CollectionRow): Promise<Lesson[]> {
  const list = await publishedItems(app.database.db, c, LESSON_LIMIT, 0);
  return list.map((row) => ({ row, chapter: String(row.structuredContent.chapter ?? '').slice(0, 200) }));
}

function chaptersOf(c: CollectionRow, lessons: Lesson[], progress: Map<string, { completed: boolean }>, currentId: string | null): Obj[] {
  const out: Array<{ title: string; lessons: Obj[] }> = [];
  for (const l of lessons) {
    const title = l.chapter || c.title;
    let ch = out.find((x) => x.title === title);
    if (!ch) out.push((ch = { title, lessons: [] }));
    const p = progress.get(l.row.id);
    const status = p?.completed ? 'completed' : p ? 'started' : 'not-started';
    ch.lessons.push({
      id: l.row.id,
      title: l.row.title,
      fullUrl: itemUrl(c, l.row),
      duration: durationText(l.row.structuredContent.durationSeconds),
      status,
      statusText: p?.completed ? messages.COMPLETED : p ? messages.STARTED : '',
      current: l.row.id === currentId,
    });
  }
  return out;
}

/** Member-area navigation: the collections of the areas the visitor belongs to. */
async function memberNav(access: Access, req: FastifyRequest, site: WebsiteRow, collections: Map<string, CollectionRow>): Promise<Obj[]> {
  const locks = await access.locks(site);
  const mine = await access.memberAreasOf(req);
  const out: Obj[] = [];
  for (const a of locks.areas) {
    if (!mine.has(a.id)) continue;
    for (const cid of a.collectionIds) {
      const c = collections.get(cid);
      if (c) out.push({ title: c.navigationTitle || c.title, fullUrl: `/${c.urlId}`, memberAreaId: a.id });
    }
  }
  return out;
}

/**
 * The video course context of a list page (no item) or a lesson page: chapters, the member's progress,
 * the lesson's video and the next lesson. A lesson visit by a signed-in visitor records it as started;
 * list and details views are recorded as paywall events.
 */
export async function courseContext(
  app: FastifyInstance,
  access: Access,
  req: FastifyRequest,
  site: WebsiteRow,
  c: CollectionRow,
  collections: Map<string, CollectionRow>,
  item: ItemRow | null,
): Promise<Obj> {
  const user = req.siteUser;
  const lessons = await lessonsOf(app, c);
  if (user && item) await access.service.saveProgress(user.id, item.id, c.id, {});
  const progress = user ? await access.service.progress(user.id, c.id) : new Map<string, { completed: boolean; positionSeconds: number }>();
  const done = lessons.filter((l) => progress.get(l.row.id)?.completed).length;
  const locks = await access.locks(site);
  const areas = locks.areasByCollection.get(c.id) ?? [];
  const mine = await access.memberAreasOf(req);
  const member = areas.some((a) => mine.has(a.id));
  const owner = await access.isOwner(req);
  if (!owner) {
    await app.analytics?.record(
      item ? PAYWALL_EVENTS.DETAILS_VIEW : PAYWALL_EVENTS.LIST_VIEW,
      {
        content_collection_id: c.id,
        content_item_id: item?.id ?? null,
        viewer_access_status: areas.length ? viewerStatus(req, member) : 'open',
      },
      { path: pathOf(req), itemId: item?.id ?? null },
    );
  }
  const common = {
    signedIn: !!user,
    done,
    total: lessons.length,
    progressText: messages.lessonsDone(done, lessons.length),
    memberNav: await memberNav(access, req, site, collections),
  };
  if (!item) return { course: { ...common, chapters: chaptersOf(c, lessons, progress, null), empty: lessons.length === 0 } };
  const idx = lessons.findIndex((l) => l.row.id === item.id);
  const nextL = idx >= 0 ? lessons[idx + 1] : undefined;
  const sc = item.structuredContent;
  const file = safeFile(sc.videoUrl);
  const embed = file ? null : safeEmbed(sc.embedUrl);
  const p = progress.get(item.id);
  return {
    lesson: {
      ...common,
      id: item.id,
      title: item.title,
      body: cleanOwnerHtml(item.body),
      chapter: String(sc.chapter ?? ''),
      courseTitle: c.title,
      courseUrl: `/${c.urlId}`,
      completed: !!p?.completed,
      statusText: p?.completed ? messages.COMPLETED : messages.STARTED,
      completeLabel: messages.MARK_COMPLETE,
      crumb: req.crumb,
      video: file
        ? {
            file: true,
            embed: false,
            src: file,
            label: item.title,
            player: renderIsland('LessonVideo', { itemId: item.id, src: file, label: item.title, completedText: messages.COMPLETED }),
          }
        : embed
          ? {
              file: false,
              embed: true,
              src: embed.toString(),
              label: item.title,
              watchUrl: `/members/watch/${item.id}`,
              watchText: messages.watchOn(embed.host),
            }
          : null,
      next: nextL ? { title: nextL.row.title, fullUrl: itemUrl(c, nextL.row), label: messages.NEXT_LESSON } : null,
      chapters: chaptersOf(c, lessons, progress, item.id),
    },
  };
}

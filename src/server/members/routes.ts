/**
 * The members area's calls and pages: unlocking the site or a page, joining a member area (free at once,
 * paid through the existing checkout in test mode), membership confirmed (208), lesson progress, the
 * third-party video click, member files, and the owner's /config calls.
 */
import { isEmailAddress } from '../../core/email.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { PageType } from '../../core/enums.js';
import { members as messages, platform as platformMessages } from '../../core/messages.js';
import { EMAIL_MAX_LENGTH } from '../../core/constants.js';
import { collectionAddError } from '../../core/content.js';
import { HttpError, badRequest, forbidden, notFound, unauthorized } from '../errors.js';
import { rows } from '../db-util.js';
import { newId } from '../../db/ids.js';
import { schema } from '../../db/index.js';
import { sendSitePage } from '../site-page/index.js';
import { cartIdent, setCartCookie } from '../visitor/index.js';
import { normEmail, type SiteUserService } from '../platform/index.js';
import { appReservedUrlIds } from '../platform/index.js';
import { safeNext } from '../platform/index.js';
import type { SignInPolicy } from '../platform/index.js';
import { allCollections, type CollectionRow } from '../site-context/index.js';
import { CollectionType, RecordType } from '../../core/enums.js';
import { SITE_TARGET, type Access } from './access.js';
import { PAYWALL_EVENTS, lockPage, priceText, protectedPage, safeEmbed, safeFile, viewerStatus } from './pages.js';
import type { AreaInput, AreaRow } from './service.js';
import { parseRange } from './range.js';
import { memberFileKey } from './service.js';
import { mediaStoreFor } from '../storage/index.js';
import { checkQuota, quotaBytes } from '../storage/index.js';
import { cleanOwnerHtml } from '../content/index.js';
import { can } from '../../core/roles.js';

/**
 * Lock-screen and page passwords, counted as sign-in is (platform/sign-in-limits.ts; issue 38, item 4): failed
 * tries only, 10 per 10 minutes per address and per (target, address), 50 a day per (target, address); past 100
 * failures per 10 minutes on a target across addresses each try waits first, and is never refused, so guessers
 * from many addresses cannot lock a shared password for every visitor.
 */
export const UNLOCK_LIMITS: SignInPolicy = {
  name: 'members-unlock',
  address: { max: 10, windowMs: 10 * 60_000 },
  account: { max: 10, windowMs: 10 * 60_000 },
  accountDay: { max: 50, windowMs: 24 * 3_600_000 },
  slowAbove: { max: 100, windowMs: 10 * 60_000 },
  slowMs: 3_000,
};
const MAX_FILE_BYTES = 50 * 1024 * 1024;
const FILE_TYPES = /^(video\/(mp4|webm|ogg|quicktime)|audio\/(mpeg|mp4|ogg|wav|webm)|image\/(jpeg|png|gif|webp|avif)|application\/pdf)$/;

const isForm = (req: FastifyRequest) => String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
const text = (max: number) =>
  z
    .string()
    .max(max)
    .refine((v) => !v.includes('\u0000'), 'Must not contain NUL characters.');

const unlockBody = z.object({
  target: text(64),
  password: z.string({ error: messages.PASSWORD_REQUIRED }).min(1, messages.PASSWORD_REQUIRED).max(200),
  next: text(300).optional(),
  crumb: z.string().optional(),
});

const joinBody = z.object({
  email: z
    .string({ error: platformMessages.ENTER_VALID_EMAIL })
    .trim()
    .max(EMAIL_MAX_LENGTH, platformMessages.ENTER_VALID_EMAIL)
    .refine((s) => isEmailAddress(s), platformMessages.ENTER_VALID_EMAIL)
    .optional(),
  password: z.string().min(8, 'Use at least 8 characters for your password.').max(1024).optional(),
  displayName: text(100).optional(),
  crumb: z.string().optional(),
});

const areaBody = z
  .object({
    id: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,47}$/, 'Use lowercase letters, digits and dashes for the id.')
      .optional(),
    name: z.string({ error: messages.NAME_REQUIRED }).trim().min(1, messages.NAME_REQUIRED).max(100),
    description: text(2000).optional().default(''),
    access: z.enum(['free', 'once', 'subscription']),
    priceCents: z.number().int().min(0).max(100_000_000).optional().default(0),
    billingUnit: z.enum(['WEEK', 'MONTH', 'YEAR']).optional().default('MONTH'),
    billingValue: z.number().int().min(1).max(52).optional().default(1),
    collectionIds: z.array(z.string().max(64)).max(200).optional().default([]),
  })
  .refine((a) => a.access === 'free' || a.priceCents > 0, { message: messages.PRICE_REQUIRED, path: ['priceCents'] });

const passwordBody = z.object({ password: z.string().min(4, messages.PASSWORD_TOO_SHORT).max(200).nullable() });
const progressBody = z.object({
  itemId: z.string().max(64),
  completed: z.union([z.boolean(), z.enum(['true', 'false'])]).optional(),
  positionSeconds: z.coerce.number().int().min(0).max(100_000).optional(),
  /** The player's own duration of the video (used when the lesson has none set). */
  durationSeconds: z.coerce.number().int().min(0).max(100_000).optional(),
  /** The player reached the end. */
  ended: z.union([z.boolean(), z.enum(['true', 'false'])]).optional(),
  crumb: z.string().optional(),
});
const courseBody = z.object({
  title: z.string().trim().min(1, 'Required').max(200),
  urlId: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,79}$/, 'Use lowercase letters, digits and dashes for the address.')
    .optional(),
  description: text(2000).optional().default(''),
});
const lessonBody = z
  .object({
    title: z.string().trim().min(1, 'Required').max(200),
    urlId: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,79}$/)
      .optional(),
    chapter: text(200).optional().default(''),
    body: text(20_000).optional().default(''),
    videoUrl: z.string().max(300).optional(),
    embedUrl: z.string().max(500).optional(),
    durationSeconds: z.number().int().min(0).max(100_000).optional().default(0),
  })
  .refine((l) => (l.videoUrl ? !!safeFile(l.videoUrl) : !!safeEmbed(l.embedUrl)), { message: messages.VIDEO_SOURCE, path: ['videoUrl'] });

function parse<T>(schemaOf: z.ZodType<T>, v: unknown): T {
  const r = schemaOf.safeParse(v ?? {});
  if (r.success) return r.data;
  const errors: Record<string, string> = {};
  for (const i of r.error.issues) errors[i.path.join('.') || '_'] ??= i.message;
  throw badRequest(r.error.issues[0]?.message ?? 'Bad request', errors);
}

function slug(s: string): string {
  return (
    s
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'item'
  );
}

export async function memberRoutes(app: FastifyInstance, opts: { access: Access; siteUsers: SiteUserService }) {
  const ctx = memberRoutesCtx(app, opts);
  await unlockRoutes(app, opts, ctx);
  await joinRoutes(app, opts, ctx);
  await joinConfirmedRoutes(app, opts, ctx);
  await lessonRoutes(app, opts, ctx);
  await ownerRoutes(app, opts, ctx);
}

type MemberRoutesCtx = ReturnType<typeof memberRoutesCtx>;

/** What the calls of memberRoutes share. */
function memberRoutesCtx(app: FastifyInstance, opts: { access: Access; siteUsers: SiteUserService }) {
  const { access, siteUsers } = opts;
  const service = access.service;
  const media = mediaStoreFor(app.config);
  const { websites, carts, rateLimiter } = app.services;
  const owner = { preHandler: app.requireOwner(can('members', 'write')) };
  const ownerRead = { preHandler: app.requireOwner(can('members', 'read')) };

  app.addContentTypeParser(FILE_TYPES, { parseAs: 'buffer', bodyLimit: MAX_FILE_BYTES }, (_req, body, done) => done(null, body));

  async function areaOr404(id: string): Promise<AreaRow> {
    const site = await websites.get();
    const a = id.length <= 64 ? await service.area(site.id, id) : null;
    if (!a) throw notFound(messages.AREA_NOT_FOUND);
    return a;
  }

  async function joinPage(
    req: FastifyRequest,
    reply: FastifyReply,
    area: AreaRow,
    extra: { error?: string; notice?: string; status?: number; values?: Record<string, string> } = {},
  ) {
    const site = await websites.get();
    const u = req.siteUser;
    return sendSitePage(app, req, reply, {
      template: 'system/member-join.html',
      pageType: PageType.PAGE,
      status: extra.status ?? 200,
      title: messages.joinArea(area.name),
      ctx: {
        join: {
          areaId: area.id,
          heading: messages.joinArea(area.name),
          description: area.description,
          priceText: priceText(area, site.currency),
          action: `/api/members/areas/${encodeURIComponent(area.id)}/join`,
          crumb: req.crumb,
          signedIn: !!u,
          email: u?.email ?? '',
          buttonLabel: messages.joinArea(area.name),
          signInUrl: `/account/login?next=${encodeURIComponent(`/members/join/${area.id}`)}`,
          error: extra.error ?? null,
          notice: extra.notice ?? null,
          values: extra.values ?? {},
        },
      },
    });
  }

  /** The join button of the access-denied page lands here (recorded as the paywall's join click). */
  return { access, siteUsers, service, media, websites, carts, rateLimiter, owner, ownerRead, areaOr404, joinPage };
}

/** Unlocking a password-protected page or the site. */
async function unlockRoutes(app: FastifyInstance, opts: { access: Access; siteUsers: SiteUserService }, ctx: MemberRoutesCtx) {
  const { access, service, websites } = ctx;
  // ---- Unlocking ----------------------------------------------------------------------------------

  app.post('/api/members/unlock', async (req, reply) => {
    const form = isForm(req);
    const site = await websites.get();
    const raw = (req.body ?? {}) as Record<string, unknown>;
    const target = typeof raw.target === 'string' ? raw.target.slice(0, 64) : '';
    const next = safeNext(raw.next) ?? '/';
    const collections = target === SITE_TARGET ? [] : await allCollections(app.database.db, site.id);
    const c = collections.find((x) => x.id === target);
    if (target !== SITE_TARGET && !c) throw notFound('Not found');
    const again = async (message: string, status: number) => {
      if (!form) throw new HttpError(status, message);
      const page = c ? protectedPage(req, c, message, status, next) : lockPage(req, message, status, next);
      return sendSitePage(app, req, reply, page);
    };
    const parsed = unlockBody.safeParse(raw);
    if (!parsed.success) return again(messages.PASSWORD_REQUIRED, 400);
    const verdict = await app.services.signInLimits.begin(UNLOCK_LIMITS, target, req.ip);
    if (verdict.refused) {
      reply.header('retry-after', String(Math.ceil(UNLOCK_LIMITS[verdict.refused].windowMs / 1000)));
      return again(messages.TOO_MANY_PASSWORDS, 429);
    }
    const nonce = await service.checkPassword(site.id, target, parsed.data.password);
    if (!nonce) {
      req.log.info({ event: 'members-unlock-failed' }, 'wrong lock password');
      return again(messages.WRONG_PASSWORD, 401);
    }
    await verdict.attempt.succeeded();
    await access.addUnlock(req, reply, target, nonce);
    reply.header('cache-control', 'no-store');
    if (form) return reply.redirect(next, 303);
    return { ok: true, next };
  });
}

/** Joining a member area: the join page and its form. */
async function joinRoutes(app: FastifyInstance, opts: { access: Access; siteUsers: SiteUserService }, ctx: MemberRoutesCtx) {
  const { access, siteUsers, service, websites, carts, rateLimiter, areaOr404, joinPage } = ctx;
  // ---- Joining ------------------------------------------------------------------------------------

  app.get('/members/join/:areaId', async (req, reply) => {
    const { areaId } = req.params as { areaId: string };
    const area = await areaOr404(areaId);
    const from = (req.query as Record<string, unknown>).from;
    if (typeof from === 'string' && from.length <= 64) {
      await app.analytics?.record(
        PAYWALL_EVENTS.JOIN_CLICK,
        { content_collection_id: from, content_item_id: null, viewer_access_status: viewerStatus(req, false) },
        { path: `/members/join/${area.id}` },
      );
    }
    if (req.siteUser && (await access.memberAreasOf(req)).has(area.id))
      return reply.redirect(`/members/confirmed/${encodeURIComponent(area.id)}`, 303);
    return joinPage(req, reply, area);
  });

  app.post('/api/members/areas/:areaId/join', async (req, reply) => {
    const form = isForm(req);
    const { areaId } = req.params as { areaId: string };
    const area = await areaOr404(areaId);
    const site = await websites.get();
    const raw = (req.body ?? {}) as Record<string, unknown>;
    const values = {
      email: typeof raw.email === 'string' ? raw.email.slice(0, 256) : '',
      displayName: typeof raw.displayName === 'string' ? raw.displayName.slice(0, 100) : '',
    };
    try {
      const userId = req.siteUser?.id ?? null;
      if (!userId) {
        await rateLimiter.check({ name: 'members-join', max: 10, windowMs: 10 * 60_000, message: messages.TOO_MANY_JOINS }, req.ip);
        const body = parse(joinBody, raw);
        if (!body.email) throw badRequest(platformMessages.ENTER_VALID_EMAIL, { email: platformMessages.ENTER_VALID_EMAIL });
        if (!body.password)
          throw badRequest('Use at least 8 characters for your password.', { password: 'Use at least 8 characters for your password.' });
        const email = normEmail(body.email);
        await rateLimiter.check(
          { name: 'members-join-email', max: 5, windowMs: 60 * 60_000, message: messages.TOO_MANY_JOINS_FOR_EMAIL },
          email,
        );
        // One answer for every address: a new one gets an unconfirmed account and a confirmation link, one
        // with an account an email saying so (with a sign-in link back here). Nobody is signed in and nothing
        // is granted until the link in the mailbox is followed: a free area then at once (the confirmed hook
        // of index.ts), a paid one after its checkout, which the confirmed visitor reaches from the join page.
        // The sign-up's browser key goes with every answer: the link signs in with this password only here.
        const free = area.access === 'free' || !area.productItemId;
        const { browserKey } = await siteUsers.signUp({
          websiteId: site.id,
          email,
          password: body.password,
          displayName: body.displayName?.trim() ?? '',
          origin: await app.emailOrigin(),
          purpose: {
            intro: `Follow this link to confirm your email and join ${area.name}:`,
            next: free ? `/members/confirmed/${encodeURIComponent(area.id)}` : `/members/join/${encodeURIComponent(area.id)}`,
            ...(free ? { onCreated: (tx, id) => service.addAwaiting(tx, area.id, id) } : {}),
          },
        });
        app.setSignUpCookie(req, reply, browserKey);
        reply.header('cache-control', 'no-store');
        if (form) return joinPage(req, reply, area, { notice: messages.JOIN_CHECK_EMAIL, values });
        return reply.status(202).send({ message: messages.JOIN_CHECK_EMAIL });
      }
      let next: string;
      if (area.access === 'free' || !area.productItemId) {
        await service.addMember(area.id, userId);
        next = `/members/confirmed/${encodeURIComponent(area.id)}`;
      } else {
        const sku = await rows<{ sku: string }>(
          app.database.db,
          sql`select sku from product_variants where item_id = ${area.productItemId} order by ordering limit 1`,
        );
        const line = { itemId: area.productItemId, sku: sku[0]?.sku ?? '', quantity: 1, additionalFields: '' };
        if (area.access === 'subscription') {
          const { cartToken } = await carts.createSubscription(site.id, { siteUserId: userId }, line, site.currency);
          const sub = await app.checkout.service.subscriptionCart(cartToken);
          await service.addPending(area.id, userId, sub!.id);
          next = `/checkout?cartToken=${encodeURIComponent(cartToken)}`;
        } else {
          const ident = { token: cartIdent(req).token, siteUserId: userId };
          let cart = await carts.find(ident);
          const has = cart
            ? await rows<{ id: string }>(
                app.database.db,
                sql`select id from cart_entries where cart_id = ${cart.id} and item_id = ${line.itemId}`,
              )
            : [];
          if (has.length === 0) {
            const res = await carts.add(site.id, ident, line, site.currency);
            if (res.token && res.token !== ident.token) setCartCookie(req, reply, res.token);
            cart = await carts.find({ token: res.token ?? ident.token, siteUserId: userId });
          }
          await service.addPending(area.id, userId, cart!.id);
          next = '/checkout';
        }
      }
      reply.header('cache-control', 'no-store');
      if (form) return reply.redirect(next, 303);
      return { next };
    } catch (e) {
      if (!form || !(e instanceof HttpError)) throw e;
      return joinPage(req, reply, area, { error: e.message, status: e.status, values });
    }
  });

  /** Membership confirmed (208): the member's welcome and the way into the area. */
}

/** The page a new member lands on once their email is confirmed. */
async function joinConfirmedRoutes(app: FastifyInstance, opts: { access: Access; siteUsers: SiteUserService }, ctx: MemberRoutesCtx) {
  const { access, websites, areaOr404 } = ctx;
  app.get('/members/confirmed/:areaId', async (req, reply) => {
    const { areaId } = req.params as { areaId: string };
    const area = await areaOr404(areaId);
    if (!req.siteUser) return reply.redirect(`/account/login?next=${encodeURIComponent(`/members/confirmed/${area.id}`)}`, 303);
    const member = (await access.memberAreasOf(req)).has(area.id);
    const site = await websites.get();
    const collections = await allCollections(app.database.db, site.id);
    const q = req.query as Record<string, unknown>;
    let order: Record<string, unknown> | null = null;
    if (typeof q.order === 'string' && typeof q.t === 'string' && q.order.length <= 64) {
      await app.checkout.service.loadSecret();
      if (app.checkout.service.verify(`order:${q.order}`, q.t)) {
        const o = await app.checkout.service.order(q.order);
        if (o) order = { orderNumber: o.orderNumber, testMode: o.testMode, statusUrl: app.checkout.service.statusPath(o.id) };
      }
    }
    const contents = area.collectionIds
      .map((id) => collections.find((c) => c.id === id))
      .filter((c): c is CollectionRow => !!c && c.enabled)
      .map((c) => ({ title: c.navigationTitle || c.title, fullUrl: `/${c.urlId}` }));
    return sendSitePage(app, req, reply, {
      template: 'system/membership-confirmed.html',
      pageType: PageType.MEMBERSHIP_CONFIRMED,
      status: member ? 200 : 403,
      title: member ? messages.CONFIRMED_TITLE : area.name,
      ctx: {
        membership: {
          areaId: area.id,
          heading: member ? messages.CONFIRMED_TITLE : area.name,
          text: member ? messages.confirmedText(area.name) : messages.NOT_A_MEMBER,
          order,
          contents: member ? contents : [],
        },
      },
    });
  });
}

/** A member's lessons: progress, the watch page and the private files. */
async function lessonRoutes(app: FastifyInstance, opts: { access: Access; siteUsers: SiteUserService }, ctx: MemberRoutesCtx) {
  const { access, service, media, websites } = ctx;
  // ---- Lessons ------------------------------------------------------------------------------------

  async function lessonFor(req: FastifyRequest, itemId: string) {
    const site = await websites.get();
    const r = await app.database.db
      .select({
        id: schema.items.id,
        collectionId: schema.items.collectionId,
        urlId: schema.items.urlId,
        sc: schema.items.structuredContent,
      })
      .from(schema.items)
      .where(
        sql`${schema.items.id} = ${itemId} and ${schema.items.websiteId} = ${site.id} and ${schema.items.status} = 'published' and ${schema.items.recordType} = ${RecordType.VIDEO}`,
      )
      .limit(1);
    const item = r[0];
    if (!item) throw notFound(messages.LESSON_NOT_FOUND);
    const collections = await allCollections(app.database.db, site.id);
    const c = collections.find((x) => x.id === item.collectionId);
    if (!c || !c.enabled) throw notFound(messages.LESSON_NOT_FOUND);
    const denied = await access.check(req, site, c.id);
    return { site, item, c, denied };
  }

  app.post('/api/members/progress', async (req, reply) => {
    const body = parse(progressBody, req.body);
    if (!req.siteUser) throw unauthorized(messages.MEMBERS_ONLY);
    const { item, c, denied } = await lessonFor(req, body.itemId);
    if (denied) throw forbidden(messages.MEMBERS_ONLY);
    let completed = body.completed === undefined ? undefined : body.completed === true || body.completed === 'true';
    // The player's reports: the end of the video, or 90% of it watched, completes the lesson (never undoes it).
    if (completed === undefined && watchedEnough(body, (item.sc as Record<string, unknown>).durationSeconds)) completed = true;
    await service.saveProgress(req.siteUser.id, item.id, c.id, { completed, positionSeconds: body.positionSeconds });
    reply.header('cache-control', 'no-store');
    if (isForm(req)) return reply.redirect(`/${c.urlId}/${item.urlId}`, 303);
    const progress = await service.progress(req.siteUser.id, c.id);
    return {
      ok: true,
      completed: progress.get(item.id)?.completed ?? false,
      done: [...progress.values()].filter((p) => p.completed).length,
    };
  });

  /** A lesson's third-party video: the click is recorded, then the visitor goes to the player's page. */
  app.get('/members/watch/:itemId', async (req, reply) => {
    const { itemId } = req.params as { itemId: string };
    const { item, c, denied } = await lessonFor(req, itemId.slice(0, 64));
    if (denied) return reply.redirect(`/${c.urlId}/${item.urlId}`, 303);
    const url = safeEmbed((item.sc as Record<string, unknown>).embedUrl);
    if (!url) throw notFound(messages.LESSON_NOT_FOUND);
    const mine = await access.memberAreasOf(req);
    const areas = (await access.locks(await websites.get())).areasByCollection.get(c.id) ?? [];
    await app.analytics?.record(
      PAYWALL_EVENTS.THIRD_PARTY_CLICK,
      {
        content_collection_id: c.id,
        content_item_id: item.id,
        viewer_access_status: areas.length
          ? viewerStatus(
              req,
              areas.some((a) => mine.has(a.id)),
            )
          : 'open',
        destination_url: url.toString(),
      },
      { path: `/${c.urlId}/${item.urlId}`, itemId: item.id },
    );
    reply.header('cache-control', 'no-store');
    return reply.redirect(url.toString(), 302);
  });

  /** Member files: the access check ran in the request hook (index.ts); here the bytes are sent. */
  app.get('/members/files/:id', async (req, reply) => {
    const { id } = req.params as { id: string };
    const f = await service.file(id);
    if (!f) throw notFound('Not found');
    reply.header('cache-control', 'private, no-store').header('x-content-type-options', 'nosniff');
    if (f.inStore) {
      // In the bucket: a presigned URL of MEDIA_SIGNED_URL_SECONDS, made only now that access was checked; the store answers Range itself.
      const url = await media.signedUrl(memberFileKey(id), { filename: f.name, contentType: f.contentType });
      if (!url) throw new HttpError(503, 'This file is kept in object storage, which is not configured on this server.');
      return reply.redirect(url, 302);
    }
    reply.header('content-disposition', `inline; filename="${f.name.replace(/[^\w.-]/g, '_')}"`);
    // Range requests, so a video can seek. Files never change (a new upload is a new id): the id is the validator.
    const etag = `"${id}"`;
    const size = f.bytes.length;
    reply.header('accept-ranges', 'bytes').header('etag', etag);
    const ifRange = req.headers['if-range'];
    const r = ifRange === undefined || ifRange === etag ? parseRange(req.headers.range, size) : ({ kind: 'whole' } as const);
    if (r.kind === 'unsatisfiable') return reply.status(416).header('content-range', `bytes */${size}`).send();
    if (r.kind === 'partial') {
      return reply
        .status(206)
        .header('content-range', `bytes ${r.start}-${r.end}/${size}`)
        .type(f.contentType)
        .send(f.bytes.subarray(r.start, r.end + 1));
    }
    return reply.type(f.contentType).send(f.bytes);
  });
}

/** The owner's /config calls: settings, passwords, areas, members, analytics, files, courses. */
async function ownerRoutes(app: FastifyInstance, opts: { access: Access; siteUsers: SiteUserService }, ctx: MemberRoutesCtx) {
  const { access, service, media, websites, owner, ownerRead } = ctx;
  // ---- Owner: /config calls -------------------------------------------------------------------------

  app.get('/api/members/settings', ownerRead, async (_req, reply) => {
    const site = await websites.get();
    const [pw, areas, collections, files] = await Promise.all([
      service.passwords(site.id),
      service.areas(site.id),
      allCollections(app.database.db, site.id),
      service.files(site.id),
    ]);
    reply.header('cache-control', 'no-store');
    return {
      currency: site.currency,
      sitePasswordSet: pw.some((p) => p.target === SITE_TARGET),
      pagePasswords: pw
        .filter((p) => p.target !== SITE_TARGET)
        .map((p) => ({ collectionId: p.target, title: collections.find((c) => c.id === p.target)?.title ?? '' })),
      areas: areas.map((a) => ({ ...areaJson(a), priceText: priceText(a, site.currency) })),
      collections: collections.filter((c) => c.enabled).map((c) => ({ id: c.id, title: c.title, urlId: c.urlId, typeName: c.typeName })),
      files,
    };
  });

  app.put('/api/members/site-password', owner, async (req) => {
    const { password } = parse(passwordBody, req.body);
    const site = await websites.get();
    await service.setPassword(site.id, SITE_TARGET, password);
    access.invalidate();
    return { sitePasswordSet: password !== null };
  });

  app.put('/api/members/page-passwords/:collectionId', owner, async (req) => {
    const { collectionId } = req.params as { collectionId: string };
    const { password } = parse(passwordBody, req.body);
    const site = await websites.get();
    const c = (await allCollections(app.database.db, site.id)).find((x) => x.id === collectionId);
    if (!c) throw notFound(messages.UNKNOWN_COLLECTION);
    await service.setPassword(site.id, c.id, password);
    access.invalidate();
    return { collectionId: c.id, passwordSet: password !== null };
  });

  app.post('/api/members/areas', owner, async (req, reply) => {
    const body = parse(areaBody, req.body);
    const site = await websites.get();
    const { id, ...input } = body;
    const a = await service.createArea(site.id, input as AreaInput, id);
    access.invalidate();
    websites.invalidate();
    return reply.status(201).send(areaJson(a));
  });

  app.put('/api/members/areas/:id', owner, async (req) => {
    const { id } = req.params as { id: string };
    const body = parse(areaBody, req.body);
    const site = await websites.get();
    const { id: _ignored, ...input } = body;
    void _ignored;
    const a = await service.updateArea(site.id, id, input as AreaInput);
    access.invalidate();
    websites.invalidate();
    return areaJson(a);
  });

  app.delete('/api/members/areas/:id', owner, async (req, reply) => {
    const { id } = req.params as { id: string };
    const site = await websites.get();
    await service.deleteArea(site.id, id);
    access.invalidate();
    websites.invalidate();
    return reply.status(204).send();
  });

  app.get('/api/members/members', ownerRead, async (req, reply) => {
    const q = z.object({ areaId: z.string().max(64).optional() }).parse(req.query ?? {});
    const site = await websites.get();
    reply.header('cache-control', 'no-store');
    return { members: await service.members(site.id, q.areaId) };
  });

  /** The paywall events of the last 30 days, from the analytics roll-ups. */
  app.get('/api/members/analytics', ownerRead, async (_req, reply) => {
    const site = await websites.get();
    const since = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
    const r = await rows<{ dim: string; c: string | number }>(
      app.database.db,
      sql`select dim, sum(count) as c from analytics_daily where website_id = ${site.id} and metric = 'event' and dim like 'event:video\_%' and day >= ${since} group by dim`,
    );
    const counts = new Map(r.map((x) => [x.dim.slice('event:'.length), Number(x.c)]));
    reply.header('cache-control', 'no-store');
    return { events: Object.values(PAYWALL_EVENTS).map((name) => ({ name, count: counts.get(name) ?? 0 })) };
  });

  app.post(
    '/api/members/files',
    { ...owner, bodyLimit: MAX_FILE_BYTES, config: { tooLargeMessage: messages.FILE_TOO_LARGE } },
    async (req, reply) => {
      const type = String(req.headers['content-type'] ?? '')
        .split(';')[0]!
        .trim();
      if (!FILE_TYPES.test(type) || !Buffer.isBuffer(req.body)) throw new HttpError(415, messages.FILE_TYPE);
      const name = String(req.headers['x-file-name'] ?? 'file').slice(0, 200) || 'file';
      const site = await websites.get();
      await checkQuota(app.database.db, site.id, req.body.length, quotaBytes(app.config));
      const id = await service.saveFile(site.id, name, type, req.body, media);
      return reply.status(201).send({ id, url: `/members/files/${id}`, name, size: req.body.length });
    },
  );

  registerCourseRoutes(app, ctx);
}

/** The owner's video courses: a course (a collection of videos) and its lessons, at most 250 a course. */
function registerCourseRoutes(app: FastifyInstance, ctx: MemberRoutesCtx) {
  const { websites, owner } = ctx;
  app.post('/api/members/courses', owner, async (req, reply) => {
    const body = parse(courseBody, req.body);
    const site = await websites.get();
    const id = newId();
    const urlId = body.urlId ?? slug(body.title);
    const taken = await rows<{ id: string }>(
      app.database.db,
      sql`select id from collections where website_id = ${site.id} and url_id = ${urlId}`,
    );
    // A system route's first segment (/forms, /members, /checkout ...) would shadow the course's pages.
    if (taken[0] || appReservedUrlIds(app).has(urlId))
      throw new HttpError(409, 'That address is already used by another page.', { urlId: 'That address is already used by another page.' });
    await app.database.db.insert(schema.collections).values({
      id,
      websiteId: site.id,
      urlId,
      title: body.title,
      description: body.description,
      type: CollectionType.GENERIC,
      typeName: 'videos',
      ordering: 100,
    });
    return reply.status(201).send({ id, urlId, title: body.title, fullUrl: `/${urlId}` });
  });

  app.post('/api/members/courses/:id/lessons', owner, async (req, reply) => {
    const { id } = req.params as { id: string };
    const body = parse(lessonBody, req.body);
    const site = await websites.get();
    const c = (await allCollections(app.database.db, site.id)).find((x) => x.id === id && x.typeName === 'videos');
    if (!c) throw notFound('That video course does not exist.');
    const itemId = newId();
    const urlId = body.urlId ?? `${slug(body.title)}-${itemId.slice(0, 4)}`;
    await app.database.db.transaction(async (tx) => {
      // A course's lessons are ordered by the owner: at most 250, counted
      // under the course row's lock so two concurrent adds cannot pass the limit together.
      await tx.execute(sql`select id from collections where id = ${c.id} for update`);
      const count = await rows<{ n: number | string }>(tx, sql`select count(*) as n from items where collection_id = ${c.id}`);
      const full = collectionAddError(c, Number(count[0]?.n ?? 0));
      if (full) throw badRequest(full);
      await tx.insert(schema.items).values({
        id: itemId,
        websiteId: site.id,
        collectionId: c.id,
        urlId,
        title: body.title,
        recordType: RecordType.VIDEO,
        body: cleanOwnerHtml(body.body),
        ordering: Number(count[0]?.n ?? 0),
        structuredContent: {
          chapter: body.chapter,
          videoUrl: body.videoUrl ?? null,
          embedUrl: body.videoUrl ? null : (body.embedUrl ?? null),
          durationSeconds: body.durationSeconds,
        },
      });
    });
    return reply.status(201).send({ id: itemId, urlId, fullUrl: `/${c.urlId}/${urlId}` });
  });
}

/** Share of a lesson's video that counts as watched to the end. */
export const COMPLETE_AT = 0.9;

/** Whether a player's report completes the lesson: it ended, or the position is at 90% of the duration or more. */
export function watchedEnough(
  p: { ended?: boolean | 'true' | 'false'; positionSeconds?: number; durationSeconds?: number },
  lessonDuration: unknown,
): boolean {
  if (p.ended === true || p.ended === 'true') return true;
  const duration = Number(lessonDuration) > 0 ? Number(lessonDuration) : (p.durationSeconds ?? 0);
  return p.positionSeconds !== undefined && duration > 0 && p.positionSeconds >= COMPLETE_AT * duration;
}

function areaJson(a: AreaRow) {
  return {
    id: a.id,
    name: a.name,
    description: a.description,
    access: a.access,
    priceCents: a.priceCents,
    billingUnit: a.billingUnit,
    billingValue: a.billingValue,
    productItemId: a.productItemId,
    collectionIds: a.collectionIds,
  };
}

/**
 * The collection endpoints (census, events, JavaScript errors, performance) and the owner's dashboard API.
 * Collection endpoints validate and bound their input, apply the tracking rule and the cookie
 * policy, hand the events to the ingest buffer and answer 202 at once; nothing waits on the database.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { inArray } from 'drizzle-orm';
import { schema } from '../../db/index.js';
import { parseVisitorCookie, shouldRecordPageView, shouldTrack, VISITOR_COOKIE_NAME } from '../../core/cookies.js';
import { HttpError, badRequest } from '../errors.js';
import { OWNER_COOKIE } from '../../core/cookies.js';
import type { WebsiteService } from '../platform/index.js';
import type { AnalyticsIngest } from './ingest.js';
import { dashboard } from './queries.js';
import { dashboardVariants } from '../flags/index.js';
import { PAGE_VIEW_EVENTS, firstLanguage, pathOf, proxyCountry, type IngestEvent, type VitalName } from './rollup.js';
import {
  LIMITS,
  censusData,
  errorsBody,
  jsonField,
  performanceBody,
  rangeQuery,
  recordEventBody,
  recordHitBody,
  type CensusData,
} from '../../core/api/analytics.js';
import { settingsPatch, type AnalyticsSettingsService } from './settings.js';
import { can } from '../../core/roles.js';
import { CONSENT_COOKIE } from '../../core/cookies.js';

export interface RouteDeps {
  ingest: AnalyticsIngest;
  settings: AnalyticsSettingsService;
  websites: WebsiteService;
}

const legacyData = z
  .object({
    pageHash: z.string().max(200).optional(),
    pagePath: z.string().max(2048).optional(),
    websiteId: z.string().max(64).optional(),
    templateId: z.string().max(64).optional(),
    variantId: z.string().max(64).optional(),
    memberAccountId: z.string().max(64).nullable().optional(),
    member_locale: z.string().max(35).nullable().optional(),
    website_locale: z.string().max(35).optional(),
  })
  .catchall(z.union([z.string().max(1000), z.number().finite(), z.boolean(), z.null()]))
  .refine((o) => Object.keys(o).length <= LIMITS.extraKeys, 'too many fields');

const objectBody = z.record(z.string().max(64), z.unknown());

/** A JSON body that may arrive as text (beacons send text/plain). */
function jsonBody(body: unknown): unknown {
  if (typeof body === 'string') return jsonField('body', body);
  if (body === undefined || body === null) throw badRequest('body: a JSON body is required');
  return body;
}

function clean<T extends Record<string, unknown>>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

export async function analyticsRoutes(app: FastifyInstance, deps: RouteDeps) {
  const kit = recordingKit(app, deps);
  censusRoutes(app, kit);
  await pipelineRoutes(app, deps, kit);
  reportRoutes(app, kit);
  dashboardRoutes(app, deps);
}

type Kit = ReturnType<typeof recordingKit>;

/** What the recording calls share: the tracking gate, the visitor, the ingest hand-off, the census event shape. */
function recordingKit(app: FastifyInstance, deps: RouteDeps) {
  const { ingest, settings, websites } = deps;
  const trustsProxy = !!app.config.TRUST_PROXY;

  /** Site, settings and whether this request may be recorded at this path (the core tracking rule). */
  async function gate(req: FastifyRequest, path: string | null, pageType?: number, pageView = false) {
    const site = await websites.get();
    const s = await settings.get(site.id);
    let role: number | null = null;
    if (req.cookies[OWNER_COOKIE]) role = (await app.loadOwner(req))?.role ?? null;
    const input = { roles: role === null ? [] : [role], path: path ?? '/', pageType, trackingEnabled: s.trackingEnabled };
    const allowed = pageView ? shouldRecordPageView(input) : shouldTrack(input);
    // Identifiers need consent: never under a restrictive policy, and under 'ask' only once granted.
    const consent = s.cookiePolicy === 'implied' || (s.cookiePolicy === 'ask' && req.cookies[CONSENT_COOKIE] === 'granted');
    return { site, allowed, consent };
  }

  function checkSite(siteId: string, sent: string | undefined) {
    if (sent && sent !== siteId) throw badRequest('websiteId: unknown website');
  }

  function visitorOf(req: FastifyRequest, ...candidates: Array<string | null | undefined>): string | null {
    for (const c of [req.cookies[VISITOR_COOKIE_NAME], ...candidates]) {
      const v = parseVisitorCookie(c);
      if (v) return v.visitorId;
    }
    return null;
  }

  function accepted(reply: FastifyReply, siteId: string, events: IngestEvent[]) {
    if (!ingest.accept(siteId, events)) {
      reply.header('retry-after', '1');
      throw new HttpError(503, 'Analytics is busy; the event was not recorded.', undefined, { retryAfter: 1 });
    }
    return reply.status(202).header('cache-control', 'no-store').send({ accepted: events.length });
  }

  function censusEvent(req: FastifyRequest, name: string, data: CensusData, consent: boolean, cookie?: string): IngestEvent {
    const stored: Record<string, unknown> = clean({ ...data });
    if (!consent) {
      delete stored.visitorCookie;
      delete stored.sessionId;
    }
    return {
      source: 'census',
      name,
      at: new Date(),
      visitorId: consent ? visitorOf(req, cookie, data.visitorCookie) : null,
      sessionId: consent ? (data.sessionId ?? null) : null,
      path: pathOf(data.url),
      itemId: data.itemId ?? null,
      data: stored,
      facts: {
        referrer: data.referrer ?? null,
        userAgent: data.userAgent ?? (req.headers['user-agent'] ?? '').slice(0, 512),
        // The visitor's own language and country, never the page's (which is the shop's).
        locale: firstLanguage(req.headers['accept-language']),
        country: trustsProxy ? proxyCountry(req.headers) : null,
        formId: data.formId ?? null,
      },
    };
  }

  /** Analytics data of a census call: a JSON object, JSON text, or a form with a `data` field. */
  function censusInput(body: unknown): CensusData {
    const raw = jsonBody(body);
    const o = objectBody.parse(raw);
    if (typeof o.data === 'string') return censusData.parse(jsonField('data', o.data));
    return censusData.parse(o);
  }

  const beacon = { crumb: false };
  return { gate, checkSite, visitorOf, accepted, censusEvent, censusInput, beacon };
}

// ---- Census ------------------------------------------------------------------------------------

function censusRoutes(app: FastifyInstance, kit: Kit) {
  const { gate, checkSite, accepted, censusEvent, censusInput, beacon } = kit;

  app.post('/api/census/RecordHit', { bodyLimit: LIMITS.censusBody, config: beacon }, async (req, reply) => {
    const body = recordHitBody.parse(req.body);
    const data = censusData.parse(jsonField('data', body.data));
    const path = pathOf(data.url);
    const isView = PAGE_VIEW_EVENTS.has(body.event);
    const g = await gate(req, path, data.pageType, isView);
    checkSite(g.site.id, data.websiteId);
    if (!g.allowed) return reply.status(202).send({ accepted: 0 });
    return accepted(reply, g.site.id, [censusEvent(req, body.event, data, g.consent, body.ss_cvr)]);
  });

  const censusCall = (name: string) => async (req: FastifyRequest, reply: FastifyReply) => {
    const data = censusInput(req.body);
    const params = req.params as { id?: string };
    if (params.id !== undefined) {
      if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(params.id)) throw badRequest('id: must be an id');
      data.itemId = params.id;
    }
    const g = await gate(req, pathOf(data.url), data.pageType);
    checkSite(g.site.id, data.websiteId);
    if (!g.allowed) return reply.status(202).send({ accepted: 0 });
    return accepted(reply, g.site.id, [censusEvent(req, name, data, g.consent)]);
  };
  const censusOpts = { bodyLimit: LIMITS.censusBody, config: beacon };
  app.post('/api/census/button-click', censusOpts, censusCall('button_click'));
  app.post('/api/census/button-render', censusOpts, censusCall('button_render'));
  app.post('/api/census/form-render', censusOpts, censusCall('form_render'));
  app.post('/api/census/overlay', censusOpts, censusCall('overlay'));
  app.post('/api/census/RecordQuickView/:id', censusOpts, censusCall('quick_view'));
}

// ---- Event pipelines -----------------------------------------------------------------------------

async function pipelineRoutes(app: FastifyInstance, deps: RouteDeps, kit: Kit) {
  const { ingest, settings, websites } = deps;
  const { gate, checkSite, visitorOf, accepted, beacon } = kit;

  // The bulk of the traffic: parsed, validated, checked and buffered in the ingest worker, so a burst of
  // beacons costs this thread little more than reading the request (see ingest.ts).
  // The body reaches the worker as the text it came as: this thread does not even parse it, and a body
  // that could not be copied to the worker once parsed (JSON nested thousands deep) is simply text.
  await app.register(async (events) => {
    events.removeContentTypeParser('application/json');
    events.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, text, done) => done(null, text));
    events.post('/api/v1/events', { bodyLimit: LIMITS.eventsBody, config: beacon }, async (req, reply) => {
      const site = await websites.get();
      const s = await settings.get(site.id);
      const role = req.cookies[OWNER_COOKIE] ? ((await app.loadOwner(req))?.role ?? null) : null;
      const r = await ingest.submitEvents(req.body, {
        siteId: site.id,
        roles: role === null ? [] : [role],
        trackingEnabled: s.trackingEnabled,
        consent: s.cookiePolicy === 'implied' || (s.cookiePolicy === 'ask' && req.cookies[CONSENT_COOKIE] === 'granted'),
        visitorCookie: req.cookies[VISITOR_COOKIE_NAME] ?? null,
      });
      if (r.status === 400) throw new HttpError(400, r.message ?? 'Invalid request', r.errors);
      if (r.status === 503) {
        reply.header('retry-after', '1');
        throw new HttpError(503, 'Analytics is busy; the event was not recorded.', undefined, { retryAfter: 1 });
      }
      return reply
        .status(202)
        .header('cache-control', 'no-store')
        .send({ accepted: r.accepted ?? 0 });
    });
  });

  app.post('/api/events/RecordEvent', { bodyLimit: LIMITS.censusBody }, async (req, reply) => {
    const body = recordEventBody.parse(req.body);
    const data = legacyData.parse(jsonField('data', body.data));
    const path = pathOf(data.pagePath ?? null);
    const g = await gate(req, path);
    checkSite(g.site.id, data.websiteId);
    if (!g.allowed) return reply.status(202).send({ accepted: 0 });
    if (!g.consent) delete data.memberAccountId;
    return accepted(reply, g.site.id, [
      {
        source: 'legacy',
        name: body.event,
        at: new Date(),
        visitorId: g.consent ? visitorOf(req) : null,
        sessionId: null,
        path,
        itemId: null,
        data: clean({ ...data }),
      },
    ]);
  });
}

// ---- Error reports and performance records ---------------------------------------------------------

function reportRoutes(app: FastifyInstance, kit: Kit) {
  const { gate, checkSite, accepted, beacon } = kit;

  app.post('/api/events/RecordJavascriptErrors', { bodyLimit: LIMITS.errorsBody }, async (req, reply) => {
    const list = errorsBody.parse(jsonBody(req.body));
    const g = await gate(req, pathOf(list[0].url));
    for (const e of list) checkSite(g.site.id, e.websiteId);
    if (!g.allowed) return reply.status(202).send({ accepted: 0 });
    const events: IngestEvent[] = list.map((e) => ({
      source: 'error',
      name: e.kind ?? 'error',
      at: new Date(),
      visitorId: null,
      sessionId: null,
      path: pathOf(e.url),
      itemId: null,
      data: clean({ ...e }),
      facts: {
        message: e.message,
        stack: e.stack ?? '',
        url: e.url,
        browser: e.browser ?? (req.headers['user-agent'] ?? '').slice(0, 512),
      },
    }));
    return accepted(reply, g.site.id, events);
  });

  app.post('/api/1/performance/records', { bodyLimit: LIMITS.performanceBody, config: beacon }, async (req, reply) => {
    const list = performanceBody.parse(jsonBody(req.body));
    const g = await gate(req, pathOf(list[0].data.path ?? null));
    if (!g.allowed) return reply.status(202).send({ accepted: 0 });
    const events: IngestEvent[] = list.map((r) => ({
      source: 'vital',
      name: r.data.name,
      at: new Date(),
      visitorId: null,
      sessionId: null,
      path: pathOf(r.data.path ?? null),
      itemId: null,
      data: clean({ app: r.app, event: r.event, pageLoadId: r.pageLoadId, ts: r.ts, ...r.data }),
      facts: { vital: r.data.name as VitalName, vitalValue: r.data.value },
    }));
    return accepted(reply, g.site.id, events);
  });
}

// ---- Owner dashboard ------------------------------------------------------------------------------

function dashboardRoutes(app: FastifyInstance, deps: RouteDeps) {
  const { settings, websites } = deps;

  app.get('/api/analytics/dashboard', { preHandler: app.requireOwner(can('analytics', 'read')) }, async (req, reply) => {
    const q = rangeQuery.parse(req.query);
    const site = await websites.get();
    reply.header('cache-control', 'no-store');
    const d = await dashboard(app.database.db, site.id, q.from, q.to);
    // Names for the ids the charts show: product titles for restock sign-ups, form names for submissions.
    const itemIds = d.restock.map((r) => r.dim).filter((x) => x !== '(unknown)');
    const formIds = d.forms.map((r) => r.dim).filter((x) => x !== '(unknown)');
    const [items, forms] = await Promise.all([
      itemIds.length
        ? app.database.db
            .select({ id: schema.items.id, title: schema.items.title })
            .from(schema.items)
            .where(inArray(schema.items.id, itemIds))
        : [],
      formIds.length
        ? app.database.db
            .select({ id: schema.forms.id, name: schema.forms.name })
            .from(schema.forms)
            .where(inArray(schema.forms.id, formIds))
        : [],
    ]);
    const titles = new Map<string, string>([...items.map((i) => [i.id, i.title] as const), ...forms.map((f) => [f.id, f.name] as const)]);
    for (const r of [...d.restock, ...d.forms]) r.label = titles.get(r.dim) ?? r.dim;
    // The funnel split by an experiment's variant (`?experiment=name`, else the first experiment): server/flags.
    return { ...d, ...(await dashboardVariants(app.database.db, site, (req.query as Record<string, unknown>).experiment, q.from, q.to)) };
  });

  app.get('/api/analytics/settings', { preHandler: app.requireOwner(can('analytics', 'read')) }, async () => {
    const site = await websites.get();
    return { ...(await settings.get(site.id)), timeZone: site.timeZone };
  });

  app.put('/api/analytics/settings', { preHandler: app.requireOwner(can('analytics', 'write')), bodyLimit: 4096 }, async (req) => {
    const patch = settingsPatch.parse(req.body ?? {});
    const site = await websites.get();
    return settings.update(site.id, patch);
  });
}

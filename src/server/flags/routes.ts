/**
 * The flags area's calls: feature switches and experiments (owner), the funnel split by variant, the owner's
 * preview and safe-mode cookies, the billing destinations, the session recorder's id and the events
 * service's schema endpoint (validate mode).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FEATURES, featureByKey, storedSwitches } from '../../core/features.js';
import { experimentProblem, type Experiment } from '../../core/experiments.js';
import { UPGRADE_DESTINATIONS, BILLING_PATH, formatPreviewCookie, parsePreviewCookie } from '../../core/preview.js';
import { PREVIEW_COOKIE, SAFE_MODE_COOKIE } from '../../core/cookies.js';
import { SESSION_RECORDER_MOCK_ID } from '../../core/session-recording.js';
import { platform as platformMessages } from '../../core/messages.js';
import { badRequest, notFound } from '../errors.js';
import { parseInput } from '../platform/index.js';
import { changeSettings } from '../platform/index.js';
import { eventContent, LIMITS } from '../../core/api/analytics.js';
import { jsonField } from '../../core/api/analytics.js';
import {
  experimentsBody,
  featuresBody,
  funnelParams,
  funnelQuery,
  internalSiteBody,
  previewBody,
  safeModeBody,
  schemaParams,
  type BillingAnswer,
  type ExperimentsAnswer,
  type InternalSiteAnswer,
  type SafeModeAnswer,
  type FeatureRow,
  type FeaturesAnswer,
  type FunnelAnswer,
  type PreviewAnswer,
  type PreviewState,
} from '../../core/api/flags.js';
import { experimentsOf, featuresOf, internalSite } from './service.js';
import { funnelByVariant } from './funnel.js';
import { previewableThemes } from './page.js';
import { can } from '../../core/roles.js';

/** A session recorder the owner configured: its id and the script the browser loads. */

/** Names the session recorder's script on the getId answer. */
export const RECORDER_SCRIPT_HEADER = 'x-recorder-script';
export interface SessionRecorderProvider {
  id: string;
  scriptUrl: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The configured session recorder; null (the default) means none: no third-party script loads. */
    sessionRecorder: { provider: SessionRecorderProvider | null };
  }
}

const PREVIEW_MAX_AGE = 8 * 3600;

function ownerCookie(req: FastifyRequest, reply: FastifyReply, name: string, value: string | null, maxAge: number) {
  const secure = req.protocol === 'https';
  if (value === null) reply.clearCookie(name, { path: '/', httpOnly: true, sameSite: 'lax', secure });
  else reply.setCookie(name, value, { path: '/', httpOnly: true, sameSite: 'lax', secure, maxAge });
}

export async function flagsRoutes(app: FastifyInstance) {
  const websites = app.services.websites;
  const db = app.database.db;
  const reader = { preHandler: app.requireOwner(can('features', 'read')) };
  const settings = { preHandler: app.requireOwner(can('features', 'write')) };
  const siteOf = async (req: FastifyRequest) => {
    const site = await websites.get();
    if (req.owner && req.owner.websiteId !== site.id) throw notFound('No such website.');
    return site;
  };
  const featureList = (site: Awaited<ReturnType<typeof siteOf>>): FeatureRow[] => {
    const states = featuresOf(site);
    const stored = storedSwitches(site.settings.features);
    return FEATURES.map((f) => ({
      code: f.code,
      key: f.key,
      label: f.label,
      beta: f.beta,
      defaultOn: f.defaultOn,
      switchedOn: stored[f.key] ?? f.defaultOn,
      enabled: states[f.key],
    }));
  };

  // ---- Feature switches --------------------------------------------------------------------------
  app.get('/api/flags/features', reader, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return { features: featureList(await siteOf(req)) } satisfies FeaturesAnswer;
  });
  app.put('/api/flags/features', settings, async (req) => {
    const body = parseInput(featuresBody, req.body);
    for (const k of Object.keys(body.features))
      if (!featureByKey(k))
        throw badRequest(platformMessages.notExpectedOption(k), { [`features.${k}`]: platformMessages.notExpectedOption(k) });
    const site = await siteOf(req);
    await app.database.db.transaction((tx) =>
      changeSettings(tx, site.id, req.owner!.id, 'features.update', (s) => ({
        ...s,
        features: { ...storedSwitches(s.features), ...body.features },
      })),
    );
    websites.invalidate();
    return { features: featureList(await websites.get()) } satisfies FeaturesAnswer;
  });

  // ---- Experiments -------------------------------------------------------------------------------
  app.get('/api/flags/experiments', reader, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return { experiments: experimentsOf(await siteOf(req)) } satisfies ExperimentsAnswer;
  });
  app.put('/api/flags/experiments', settings, async (req) => {
    const body = parseInput(experimentsBody, req.body);
    const list: Experiment[] = body.experiments.map((e) => ({
      name: e.name,
      variants: e.variants.map((v) => ({ name: v.name, weight: v.weight })),
    }));
    const problem = experimentProblem(list);
    if (problem) throw badRequest(problem);
    const site = await siteOf(req);
    await app.database.db.transaction((tx) =>
      changeSettings(tx, site.id, req.owner!.id, 'experiments.update', (s) => ({ ...s, experiments: list })),
    );
    websites.invalidate();
    return { experiments: list } satisfies ExperimentsAnswer;
  });
  // The owner's 'internal site' mark: experiment overrides work on every host of the site.
  app.get('/api/flags/internal-site', reader, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return { internal: internalSite(await siteOf(req)) } satisfies InternalSiteAnswer;
  });
  app.put('/api/flags/internal-site', settings, async (req) => {
    const body = parseInput(internalSiteBody, req.body);
    const site = await siteOf(req);
    await app.database.db.transaction((tx) =>
      changeSettings(tx, site.id, req.owner!.id, 'internal-site.update', (s) => {
        const next = { ...s };
        if (body.internal) next.internalSite = true;
        else delete next.internalSite;
        return next;
      }),
    );
    websites.invalidate();
    return { internal: internalSite(await websites.get()) } satisfies InternalSiteAnswer;
  });
  app.get('/api/flags/experiments/:name/funnel', reader, async (req, reply) => {
    const { name } = parseInput(funnelParams, req.params);
    const q = parseInput(funnelQuery, req.query);
    const site = await siteOf(req);
    const e = experimentsOf(site).find((x) => x.name === name);
    if (!e) throw notFound('No such experiment.');
    reply.header('cache-control', 'no-store');
    return {
      experiment: name,
      from: q.from,
      to: q.to,
      variants: await funnelByVariant(
        db,
        site.id,
        name,
        e.variants.map((v) => v.name),
        q.from,
        q.to,
      ),
    } satisfies FunnelAnswer;
  });

  registerOwnerPreview(app);

  // ---- Billing destinations (a self-hosted install has no plan to buy) -----------------------------
  app.get('/api/flags/billing', reader, async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    return {
      plan: {
        name: 'Self-hosted',
        selfHosted: true,
        trial: false,
        description: 'Tessera runs on your own server: every feature is included and there is nothing to upgrade.',
      },
      billingPath: BILLING_PATH,
      destinations: [
        { key: 'trialUpgrade', label: 'Upgrade from a trial', url: UPGRADE_DESTINATIONS.trialUpgrade },
        { key: 'upgrade', label: 'Website subscriptions', url: UPGRADE_DESTINATIONS.upgrade },
      ],
    } satisfies BillingAnswer;
  });

  // ---- Session recorder id (one mock id means skip) ------------------------------------------------
  // The answer is the id as a JSON string; the recorder's script, when one is
  // configured, is named by the X-Recorder-Script header.
  app.get('/api/commerce/fullstory/getId', async (_req, reply) => {
    reply.header('cache-control', 'no-store').type('application/json; charset=utf-8');
    const p = app.sessionRecorder.provider;
    if (p) reply.header(RECORDER_SCRIPT_HEADER, p.scriptUrl);
    return JSON.stringify(p ? p.id : SESSION_RECORDER_MOCK_ID);
  });

  // ---- The events service's schema endpoint (validate mode): checks, records nothing ---------------
  app.post('/api/v1/schemas/:schemaName', { bodyLimit: LIMITS.eventContentChars * 2, config: { crumb: false } }, async (req, reply) => {
    const { schemaName } = parseInput(schemaParams, req.params);
    const raw = typeof req.body === 'string' ? jsonField('body', req.body) : req.body;
    const content =
      raw && typeof raw === 'object' && 'eventContent' in (raw as object) ? (raw as { eventContent: unknown }).eventContent : raw;
    const parsed = typeof content === 'string' ? jsonField('eventContent', content) : content;
    const r = eventContent.safeParse(parsed ?? {});
    reply.header('cache-control', 'no-store');
    if (r.success) return { schemaName, valid: true, errors: {} };
    const errors: Record<string, string> = {};
    for (const i of r.error.issues) errors[i.path.join('.') || '_'] ??= i.message;
    return reply
      .status(400)
      .send({ error: 'Bad Request', message: `${schemaName}: the event does not match its schema.`, schemaName, valid: false, errors });
  });
}

/** The owner's preview (drafts, another theme) and safe mode: cookies only ever set here, for a signed-in owner. */
function registerOwnerPreview(app: FastifyInstance) {
  const anyOwnerRead = { preHandler: app.requireOwner(can('account', 'read')) };
  const anyOwner = { preHandler: app.requireOwner(can('account', 'write')) };
  // ---- Owner preview and safe mode (cookies only ever set here, for a signed-in owner) ------------
  app.get('/api/flags/preview', anyOwnerRead, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const p = parsePreviewCookie(req.cookies[PREVIEW_COOKIE]);
    return {
      drafts: p?.drafts ?? false,
      theme: p?.theme ?? null,
      active: !!p,
      safeMode: req.cookies[SAFE_MODE_COOKIE] === '1',
      themes: previewableThemes(app),
    } satisfies PreviewState;
  });
  app.post('/api/flags/preview', anyOwner, async (req, reply) => {
    const body = parseInput(previewBody, req.body);
    const theme = body.theme ?? null;
    if (theme && !previewableThemes(app).includes(theme))
      throw badRequest(platformMessages.notExpectedOption(theme), { theme: platformMessages.notExpectedOption(theme) });
    ownerCookie(req, reply, PREVIEW_COOKIE, formatPreviewCookie({ drafts: body.drafts, theme }), PREVIEW_MAX_AGE);
    return { drafts: body.drafts, theme, active: true } satisfies PreviewAnswer;
  });
  app.delete('/api/flags/preview', anyOwner, async (req, reply) => {
    ownerCookie(req, reply, PREVIEW_COOKIE, null, 0);
    return { drafts: false, theme: null, active: false } satisfies PreviewAnswer;
  });
  app.put('/api/flags/safe-mode', anyOwner, async (req, reply) => {
    const body = parseInput(safeModeBody, req.body);
    ownerCookie(req, reply, SAFE_MODE_COOKIE, body.enabled ? '1' : null, PREVIEW_MAX_AGE);
    return { safeMode: body.enabled } satisfies SafeModeAnswer;
  });
}

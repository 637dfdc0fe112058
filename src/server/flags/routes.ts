/**
 * The flags area's calls: feature switches and experiments (owner), the funnel split by variant, the owner's
 * preview and safe-mode cookies, the billing destinations, the session recorder's id and the events
 * service's schema endpoint (validate mode).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { FEATURES, featureByKey, storedSwitches } from '../../core/features.js';
import { experimentProblem, EXPERIMENT_NAME, VARIANT_NAME, type Experiment } from '../../core/experiments.js';
import { THEME_FOLDER_NAME, UPGRADE_DESTINATIONS, BILLING_PATH, formatPreviewCookie, parsePreviewCookie } from '../../core/preview.js';
import { PREVIEW_COOKIE, SAFE_MODE_COOKIE } from '../../core/cookies.js';
import { SESSION_RECORDER_MOCK_ID } from '../../core/session-recording.js';
import { platform as platformMessages } from '../../core/messages.js';
import { badRequest, notFound } from '../errors.js';
import { parseInput } from '../platform/index.js';
import { changeSettings } from '../platform/index.js';
import { eventContent, LIMITS } from '../../core/api/analytics.js';
import { jsonField } from '../../core/api/analytics.js';
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

const featuresBody = z.object({
  features: z.record(z.string().max(64), z.boolean({ error: 'Each switch is on (true) or off (false).' }), {
    error: 'features must map feature keys to true or false.',
  }),
});

const variantIn = z.object({
  name: z.string().regex(VARIANT_NAME, 'A variant name is letters, digits, dashes or underscores (40 at most).'),
  weight: z
    .number({ error: 'Weights are whole numbers from 0 to 1000.' })
    .int('Weights are whole numbers from 0 to 1000.')
    .min(0, 'Weights are whole numbers from 0 to 1000.')
    .max(1000, 'Weights are whole numbers from 0 to 1000.'),
});
const experimentsBody = z.object({
  experiments: z
    .array(
      z.object({
        name: z.string().regex(EXPERIMENT_NAME, 'An experiment name is lower-case letters, digits and dashes (40 at most).'),
        variants: z.array(variantIn).min(2, 'An experiment needs at least two variants.').max(10, 'An experiment has at most 10 variants.'),
      }),
    )
    .max(20, 'At most 20 experiments.'),
});
const funnelQuery = z
  .object({
    from: z.iso.date({ error: 'from must be a date (YYYY-MM-DD).' }),
    to: z.iso.date({ error: 'to must be a date (YYYY-MM-DD).' }),
  })
  .refine((q) => q.from <= q.to, { message: 'from must not be after to', path: ['from'] })
  .refine((q) => Date.parse(q.to) - Date.parse(q.from) <= 400 * 86_400_000, { message: 'the range is at most 400 days', path: ['to'] });
const previewBody = z.object({
  drafts: z.boolean({ error: 'drafts is true or false.' }).optional().default(true),
  theme: z.string().regex(THEME_FOLDER_NAME, 'Choose a theme folder.').nullish(),
});
const safeModeBody = z.object({ enabled: z.boolean({ error: 'enabled is true or false.' }) });
const internalSiteBody = z.object({ internal: z.boolean({ error: 'internal is true or false.' }) });
const schemaParam = z.object({
  schemaName: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_.:-]+$/, 'must be an event name'),
});

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
  const featureList = (site: Awaited<ReturnType<typeof siteOf>>) => {
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
    return { features: featureList(await siteOf(req)) };
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
    return { features: featureList(await websites.get()) };
  });

  // ---- Experiments -------------------------------------------------------------------------------
  app.get('/api/flags/experiments', reader, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return { experiments: experimentsOf(await siteOf(req)) };
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
    return { experiments: list };
  });
  // The owner's 'internal site' mark: experiment overrides work on every host of the site.
  app.get('/api/flags/internal-site', reader, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return { internal: internalSite(await siteOf(req)) };
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
    return { internal: internalSite(await websites.get()) };
  });
  app.get('/api/flags/experiments/:name/funnel', reader, async (req, reply) => {
    const { name } = parseInput(z.object({ name: z.string().regex(EXPERIMENT_NAME, 'No such experiment.') }), req.params);
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
    };
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
    };
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
    const { schemaName } = parseInput(schemaParam, req.params);
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
    };
  });
  app.post('/api/flags/preview', anyOwner, async (req, reply) => {
    const body = parseInput(previewBody, req.body);
    const theme = body.theme ?? null;
    if (theme && !previewableThemes(app).includes(theme))
      throw badRequest(platformMessages.notExpectedOption(theme), { theme: platformMessages.notExpectedOption(theme) });
    ownerCookie(req, reply, PREVIEW_COOKIE, formatPreviewCookie({ drafts: body.drafts, theme }), PREVIEW_MAX_AGE);
    return { drafts: body.drafts, theme, active: true };
  });
  app.delete('/api/flags/preview', anyOwner, async (req, reply) => {
    ownerCookie(req, reply, PREVIEW_COOKIE, null, 0);
    return { drafts: false, theme: null, active: false };
  });
  app.put('/api/flags/safe-mode', anyOwner, async (req, reply) => {
    const body = parseInput(safeModeBody, req.body);
    ownerCookie(req, reply, SAFE_MODE_COOKIE, body.enabled ? '1' : null, PREVIEW_MAX_AGE);
    return { safeMode: body.enabled };
  });
}

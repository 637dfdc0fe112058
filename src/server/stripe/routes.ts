/**
 * Stripe's routes: the webhook (POST /api/payments/stripe/webhook, signed, no crumb), the public checkout
 * configuration (publishable key only), and Settings → Payments for the owner (admin role): the keys, saved
 * masked, and Check connection.
 */
import type { FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import { z } from 'zod';
import { badRequest, HttpError } from '../errors.js';
import type { StripeProvider } from './provider.js';
import {
  isLiveKey,
  maskSecret,
  PUBLISHABLE_KEY_RE,
  SECRET_KEY_RE,
  stripeMessages,
  WEBHOOK_SECRET_RE,
  type StripeSettings,
} from './settings.js';
import type { StripeEventHandler } from './webhook.js';
import { can } from '../../core/roles.js';

export const STRIPE_WEBHOOK_PATH = '/api/payments/stripe/webhook';
/** Stripe's own default tolerance: a signature older than 5 minutes is refused (replays of captured requests). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
/**
 * A signature dated further ahead than this is refused too (issue 38): the age check alone takes any future
 * time, so a delivery signed "tomorrow" (a leaked secret, a wrong clock) would stay replayable until then.
 */
export const WEBHOOK_FUTURE_SECONDS = 300;

export const webhookMessages = {
  UNSIGNED: 'This endpoint takes only events signed by Stripe (Stripe-Signature header).',
  NOT_SET_UP: 'Stripe webhooks are not set up on this site (no signing secret).',
  BAD_SIGNATURE: 'The Stripe-Signature does not match this site’s webhook signing secret, or it is older than 5 minutes.',
  FUTURE_SIGNATURE: 'The Stripe-Signature is dated more than 5 minutes ahead of this server’s clock; check the server’s time.',
} as const;

/** The `t=` (unix seconds) of a Stripe-Signature header, or null; a plain split, no pattern over the header. */
export function signatureTime(header: string): number | null {
  for (const part of header.split(',')) {
    const p = part.trim();
    if (!p.startsWith('t=')) continue;
    const t = Number(p.slice(2));
    return Number.isSafeInteger(t) ? t : null;
  }
  return null;
}

/** The webhook, in its own encapsulated plugin: JSON bodies stay raw bytes here, as the signature needs them. */
export async function stripeWebhookRoutes(
  app: FastifyInstance,
  opts: { settings: StripeSettings; handler: StripeEventHandler; now: () => number },
) {
  const { settings, handler, now } = opts;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  const verifier = Stripe.webhooks;

  app.post(STRIPE_WEBHOOK_PATH, { config: { crumb: false }, bodyLimit: 1024 * 1024 }, async (req, reply) => {
    const header = req.headers['stripe-signature'];
    const sig = Array.isArray(header) ? header[0] : header;
    const raw = Buffer.isBuffer(req.body) ? req.body : null;
    if (!sig || !raw || sig.length > 2000) throw badRequest(webhookMessages.UNSIGNED);
    const { keys } = await settings.load();
    if (!keys.webhookSecret) throw badRequest(webhookMessages.NOT_SET_UP);
    let event: Stripe.Event;
    const receivedAt = now();
    try {
      event = verifier.constructEvent(raw, sig, keys.webhookSecret, WEBHOOK_TOLERANCE_SECONDS, undefined, receivedAt);
    } catch {
      throw badRequest(webhookMessages.BAD_SIGNATURE);
    }
    const signedAt = signatureTime(sig);
    if (signedAt === null || signedAt - Math.floor(receivedAt / 1000) > WEBHOOK_FUTURE_SECONDS)
      throw badRequest(webhookMessages.FUTURE_SIGNATURE);
    try {
      const out = await handler.handle(event);
      // An object Stripe itself no longer has (another account's, a deleted test object): retrying cannot help.
      if (out.missing)
        req.log.warn(
          { event: event.id, type: event.type, object: out.missing },
          'stripe event names an object Stripe does not have; acknowledged as not ours',
        );
      reply.header('cache-control', 'no-store');
      return { received: true, duplicate: out.duplicate, result: out.result };
    } catch (e) {
      // Stripe retries a delivery that did not get a 2xx: an event we could not act on now (Stripe
      // unreachable for the fresh read, a database hiccup) is handled on a later delivery.
      req.log.error(
        { err: e instanceof Error ? e.message : String(e), event: event.id, type: event.type },
        'stripe event not handled; Stripe will deliver it again',
      );
      throw new HttpError(503, 'The event could not be handled now; please deliver it again.');
    }
  });
}

const keyField = (re: RegExp, message: string) =>
  z.union([z.literal(''), z.string().trim().max(300, message).regex(re, message)]).optional();
const settingsSchema = z.object({
  publishableKey: keyField(PUBLISHABLE_KEY_RE, stripeMessages.PUBLISHABLE_KEY),
  secretKey: keyField(SECRET_KEY_RE, stripeMessages.SECRET_KEY),
  webhookSecret: keyField(WEBHOOK_SECRET_RE, stripeMessages.WEBHOOK_SECRET),
});

/** What the owner's screen shows: never a secret in full. */
async function settingsView(app: FastifyInstance, settings: StripeSettings) {
  const { keys, sources } = await settings.load();
  const connected = keys.secretKey !== '';
  return {
    provider: connected ? 'stripe' : 'test',
    mode: connected ? (isLiveKey(keys.secretKey) ? 'live' : 'test') : 'test',
    publishableKey: keys.publishableKey,
    secretKey: maskSecret(keys.secretKey),
    webhookSecret: maskSecret(keys.webhookSecret),
    sources,
    webhookUrl: `${await app.emailOrigin()}${STRIPE_WEBHOOK_PATH}`,
    webhookEvents: [
      'payment_intent.succeeded',
      'payment_intent.payment_failed',
      'payment_intent.canceled',
      'checkout.session.completed',
      'charge.refunded',
      'charge.dispute.created',
    ],
  };
}

/** Check connection: the account the key belongs to, or the problem in words. */
export async function checkConnection(provider: StripeProvider, settings: StripeSettings) {
  if (!(await settings.configured())) return { ok: false as const, problem: stripeMessages.NOT_CONFIGURED };
  try {
    const a = await provider.account();
    const { keys } = await settings.load();
    return {
      ok: true as const,
      accountId: a.id,
      country: a.country ?? null,
      currency: a.default_currency ? a.default_currency.toUpperCase() : null,
      chargesEnabled: a.charges_enabled === true,
      mode: isLiveKey(keys.secretKey) ? 'live' : 'test',
      problem: a.charges_enabled
        ? null
        : 'Stripe has not enabled charges on this account yet: finish the account details in your Stripe dashboard.',
    };
  } catch (e) {
    let problem = 'Stripe answered with an error we did not expect. Try again, and check the Stripe dashboard.';
    if (e instanceof Stripe.errors.StripeAuthenticationError)
      problem =
        'Stripe refused the secret key: it is wrong, or it was rolled or deleted. Copy it again from the Stripe dashboard (Developers → API keys).';
    else if (e instanceof Stripe.errors.StripePermissionError)
      problem = 'This restricted key may not read the account: give it read access to Account details, or use the secret key.';
    else if (e instanceof Stripe.errors.StripeConnectionError)
      problem = 'Stripe could not be reached from this server. Check its internet connection (and any firewall), then try again.';
    else if (e instanceof Stripe.errors.StripeRateLimitError)
      problem = 'Stripe is limiting requests right now. Wait a minute and try again.';
    else if (e instanceof Stripe.errors.StripeError && (e.statusCode ?? 0) >= 500)
      problem = 'Stripe is having trouble right now (it answered with a server error). Try again in a few minutes.';
    return { ok: false as const, problem };
  }
}

export async function stripeSettingsRoutes(
  app: FastifyInstance,
  opts: { settings: StripeSettings; provider: StripeProvider; onSaved: () => Promise<void> },
) {
  const { settings, provider } = opts;
  const adminRead = {
    preHandler: app.requireOwner(can('payments', 'read'), 'Only the site owner (admin role) can change payment settings.'),
  };
  const admin = { preHandler: app.requireOwner(can('payments', 'write'), 'Only the site owner (admin role) can change payment settings.') };

  app.get('/api/config/payments', adminRead, async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    return settingsView(app, settings);
  });

  app.put('/api/config/payments', { ...admin, bodyLimit: 8 * 1024 }, async (req, reply) => {
    const body = settingsSchema.parse(req.body ?? {});
    const { keys, sources } = await settings.load();
    const errors: Record<string, string> = {};
    for (const k of ['publishableKey', 'secretKey', 'webhookSecret'] as const) {
      if (body[k] !== undefined && sources[k] === 'environment') errors[k] = stripeMessages.FROM_ENVIRONMENT;
    }
    if (Object.keys(errors).length) throw badRequest(Object.values(errors)[0]!, errors);
    const pk = body.publishableKey ?? keys.publishableKey;
    const sk = body.secretKey ?? keys.secretKey;
    if (pk && sk && /^pk_live_/.test(pk) !== isLiveKey(sk))
      throw badRequest(stripeMessages.MODE_MISMATCH, { publishableKey: stripeMessages.MODE_MISMATCH });
    await settings.save(body);
    await opts.onSaved();
    reply.header('cache-control', 'no-store');
    return settingsView(app, settings);
  });

  const checkLimit = app.services.rateLimiter.guard({
    name: 'stripe-check',
    max: 20,
    windowMs: 60_000,
    key: (req) => req.ip,
    message: 'Too many checks. Wait a minute and try again.',
  });
  app.post('/api/config/payments/check', { ...admin, preHandler: [admin.preHandler, checkLimit] }, async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    const result = await checkConnection(provider, settings);
    if (await settings.configured()) await settings.recordCheck(result.ok && result.chargesEnabled, result.ok ? result.country : null);
    return result;
  });
}

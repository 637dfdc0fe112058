/**
 * Donations: the donate page (203) with suggested amounts and a custom amount, the donation call (JSON,
 * or a plain form post that works without JavaScript), the contribution confirmed page (204) behind a
 * signed link, and the owner's donor list and settings.
 */
import { donationListQuery, donationSettingsIn } from '../../core/api/reviews.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { sql } from 'drizzle-orm';
import { PageType } from '../../core/enums.js';
import { commerce, donations as text, forms } from '../../core/messages.js';
import { donationAmount } from '../../core/donations.js';
import { formatMoney, moneyDecimalString } from '../../core/money.js';
import { isValidEmail } from '../../core/forms.js';
import { HttpError, badRequest, notFound } from '../errors.js';
import { rows } from '../db-util.js';
import { sendSitePage } from '../site-page/index.js';
import { changeSettingsSection } from '../platform/index.js';
import { linkKey, signLink, verifyLink } from '../signed-links.js';
import type { PaymentMethodInput } from '../payments/index.js';
import type { DonationService } from './service.js';
import { donationSettingsOf, type DonationSettings } from './settings.js';
import { DONATIONS_FORM_ACTION, donationFormContext, donationStripe } from './form.js';
import { STRIPE_DONATION_RETURN_PATH, STRIPE_PROVIDER, startStripeDonation } from '../stripe/index.js';
import { can } from '../../core/roles.js';

export const DONATE_PATH = '/donate';
export const CONFIRMED_PATH = '/donate/confirmed';
export const DONATIONS_API = DONATIONS_FORM_ACTION;
const PURPOSE = 'donation';
const KEY = /^[A-Za-z0-9_-]{8,128}$/;
/** Per address (card testing is the abuse to expect; a cookie is free to renew, an address is not). */
export const DONATION_LIMIT = { name: 'donation', max: 30, windowMs: 60_000, message: commerce.RATE_LIMITED };

type Obj = Record<string, unknown>;

const noNul = (s: string) => !s.includes('\u0000');
const str = (max: number, msg: string) => z.string({ error: msg }).max(max, msg).refine(noNul, msg);
const body = z.object({
  amountCents: z.union([z.number(), z.string().max(20)]).optional(),
  customAmount: z.union([z.number(), z.string().max(40)]).optional(),
  donorName: str(200, text.NAME_TOO_LONG)
    .transform((s) => s.trim())
    .pipe(z.string().min(1, text.NAME_REQUIRED).max(120, text.NAME_TOO_LONG)),
  email: str(256, forms.INVALID_EMAIL).transform((s) => s.trim()),
  message: str(1000, text.MESSAGE_TOO_LONG).optional().default(''),
  idempotencyKey: z.string().max(200).optional(),
  // Card fields: the form's flat names, or a payment object as the checkout sends it.
  cardNumber: z.string().max(30).optional(),
  cardExpiry: z.string().max(10).optional(),
  cardCvc: z.string().max(6).optional(),
  payment: z
    .object({
      type: z.literal('card'),
      number: z.string().max(30),
      expiry: z.string().max(10),
      cvc: z.string().max(6),
      name: z.string().max(200).optional(),
    })
    .optional(),
  crumb: z.string().optional(),
});

function isFormPost(req: FastifyRequest): boolean {
  return String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
}

export async function donationRoutes(app: FastifyInstance, opts: { donations: DonationService }) {
  const { donations } = opts;
  const { websites } = app.services;

  async function donatePage(
    req: FastifyRequest,
    reply: FastifyReply,
    state: { status?: number; values?: Obj; errors?: Record<string, string>; message?: string } = {},
  ) {
    const site = await websites.get();
    const s = donationSettingsOf(site.settings);
    const v = { ...(state.values ?? {}) };
    // A link may choose the amount: /donate?amount=2500 (minor units), e.g. from a button on another page.
    const asked = (req.query as Obj).amount;
    if (state.values === undefined && typeof asked === 'string' && /^\d{1,9}$/.test(asked)) {
      const cents = Number(asked);
      if (s.suggestedAmounts.includes(cents)) v.amountCents = String(cents);
      else if (cents >= s.minimumCents && cents <= s.maximumCents)
        Object.assign(v, { amountCents: 'custom', customAmount: moneyDecimalString(cents, site.currency) });
    }
    const chosen =
      v.amountCents === undefined ? String(s.suggestedAmounts[Math.min(1, s.suggestedAmounts.length - 1)]) : String(v.amountCents);
    return sendSitePage(app, req, reply, {
      template: 'system/donate.html',
      pageType: PageType.DONATE,
      status: state.status ?? (s.enabled ? 200 : 404),
      title: s.title,
      ctx: {
        donate: {
          open: s.enabled,
          closedText: text.CLOSED,
          title: s.title,
          description: s.description,
          ...donationFormContext({
            req,
            settings: s,
            currency: site.currency,
            prefix: 'donate',
            amounts: s.suggestedAmounts,
            allowCustom: true,
            chosen,
            values: v,
            errors: state.errors,
            message: state.message,
            stripe: donationStripe(app),
          }),
        },
      },
    });
  }

  app.get(DONATE_PATH, async (req, reply) => donatePage(req, reply));

  /** Validates and charges; throws a 4xx HttpError in the donor's words. */
  async function donate(raw: Obj, settings: DonationSettings, site: { id: string; title: string; currency: string }) {
    if (!settings.enabled) throw notFound(text.CLOSED);
    const parsed = body.safeParse(raw);
    const errors: Record<string, string> = {};
    if (!parsed.success) for (const i of parsed.error.issues) errors[String(i.path[0] ?? '_')] ??= i.message;
    const amount = donationAmount({ amountCents: raw.amountCents, customAmount: raw.customAmount }, site.currency, settings);
    if (!amount.ok) errors.amount = amount.message;
    const email = parsed.success ? parsed.data.email : '';
    if (parsed.success && !isValidEmail(email)) errors.email = email ? forms.INVALID_EMAIL : forms.REQUIRED;
    if (Object.keys(errors).length > 0 || !parsed.success || !amount.ok)
      throw badRequest(Object.values(errors)[0] ?? text.AMOUNT_REQUIRED, errors);
    const b = parsed.data;
    if (!b.idempotencyKey || !KEY.test(b.idempotencyKey)) throw badRequest(text.KEY_INVALID, { idempotencyKey: text.KEY_INVALID });
    const base = {
      websiteId: site.id,
      siteTitle: site.title,
      currency: site.currency,
      amountCents: amount.cents,
      donorName: b.donorName,
      email,
      message: b.message.trim(),
      key: b.idempotencyKey,
    };
    if (donationStripe(app)) {
      // Stripe connected: the donor pays on Stripe's Checkout page (card numbers never come here); the donation is
      // recorded when Stripe says the payment succeeded (the return page or the webhook).
      const prepared = await donations.prepareHosted(base, STRIPE_PROVIDER);
      if ('donation' in prepared) return { donation: prepared.donation, duplicate: true };
      const url = await startStripeDonation(app, {
        ...prepared,
        amountCents: amount.cents,
        currency: site.currency,
        siteTitle: site.title,
        email,
        origin: await app.emailOrigin(),
      });
      return { redirect: url };
    }
    const payment: PaymentMethodInput = b.payment ?? {
      type: 'card',
      number: b.cardNumber ?? '',
      expiry: b.cardExpiry ?? '',
      cvc: b.cardCvc ?? '',
      name: b.donorName,
    };
    return donations.donate({ ...base, payment });
  }

  app.post(DONATIONS_API, { preHandler: app.services.rateLimiter.guard(DONATION_LIMIT), bodyLimit: 32 * 1024 }, async (req, reply) => {
    const form = isFormPost(req);
    const raw = (req.body && typeof req.body === 'object' ? req.body : {}) as Obj;
    const site = await websites.get();
    const settings = donationSettingsOf(site.settings);
    reply.header('cache-control', 'no-store');
    try {
      const r = await donate(raw, settings, site);
      if ('redirect' in r) {
        if (form) return reply.redirect(r.redirect, 303);
        return { status: 'redirect', url: r.redirect };
      }
      const url = `${CONFIRMED_PATH}/${signLink(await linkKey(app.database), PURPOSE, r.donation.id)}`;
      if (form) return reply.redirect(url, 303);
      const d = r.donation;
      return {
        donation: { id: d.id, amountCents: d.amountCents, currency: d.currency, testMode: d.testMode },
        duplicate: r.duplicate,
        confirmationUrl: url,
      };
    } catch (e) {
      if (!form || !(e instanceof HttpError)) throw e;
      // Card fields are never written back into the page. The page gets a fresh idempotency key: a declined
      // attempt's key would answer the same decline again, and nothing was charged under it.
      const { cardNumber: _n, cardExpiry: _e, cardCvc: _c, idempotencyKey: _k, ...values } = raw;
      // A donation block may suggest an amount the donate page does not list: it comes back as a custom amount.
      const picked = typeof values.amountCents === 'string' && /^\d{1,9}$/.test(values.amountCents) ? Number(values.amountCents) : null;
      if (picked !== null && !settings.suggestedAmounts.includes(picked))
        Object.assign(values, { amountCents: 'custom', customAmount: moneyDecimalString(picked, site.currency) });
      return donatePage(req, reply, { status: e.status, values, errors: e.errors ?? {}, message: e.message });
    }
  });

  registerDonationReturnPages(app, donations);
  registerDonationOwnerRoutes(app, donations);
}

/** Where the donor lands after paying: Stripe's return path and the signed confirmation page. */
function registerDonationReturnPages(app: FastifyInstance, donations: DonationService) {
  /** Stripe's page sends the donor back here: the donation (recorded now if the webhook has not yet), or the form. */
  app.get(STRIPE_DONATION_RETURN_PATH, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const q = z.object({ session_id: z.string().regex(/^cs_[A-Za-z0-9_]{1,200}$/) }).safeParse(req.query ?? {});
    if (!q.success || !donationStripe(app)) return reply.redirect(DONATE_PATH, 303);
    const stripe = await app.stripe.settings.stripe();
    const session = await stripe!.checkout.sessions.retrieve(q.data.session_id).catch(() => null);
    const attemptId = session?.metadata?.tessera_attempt ?? null;
    const pi = typeof session?.payment_intent === 'string' ? session.payment_intent : (session?.payment_intent?.id ?? null);
    if (!session || session.payment_status !== 'paid' || !pi || !attemptId || session.metadata?.tessera_kind !== 'donation')
      return reply.redirect(DONATE_PATH, 303);
    await app.checkout.service.settlePayment(STRIPE_PROVIDER, pi, attemptId);
    const d = await donations.byAttempt(attemptId);
    return reply.redirect(d ? `${CONFIRMED_PATH}/${signLink(await linkKey(app.database), PURPOSE, d.id)}` : DONATE_PATH, 303);
  });

  app.get<{ Params: { token: string } }>(`${CONFIRMED_PATH}/:token`, async (req, reply) => {
    reply.header('referrer-policy', 'no-referrer');
    const id = verifyLink(await linkKey(app.database), PURPOSE, req.params.token);
    const d = id ? await donations.get(id) : null;
    if (!d) {
      return sendSitePage(app, req, reply, {
        template: 'system/contribution-confirmed.html',
        pageType: PageType.CONTRIBUTION_CONFIRMED,
        status: 404,
        title: text.NOT_FOUND,
        ctx: { contribution: null, notFoundText: text.NOT_FOUND },
      });
    }
    return sendSitePage(app, req, reply, {
      template: 'system/contribution-confirmed.html',
      pageType: PageType.CONTRIBUTION_CONFIRMED,
      title: text.CONFIRMED_TITLE,
      ctx: {
        contribution: {
          heading: text.CONFIRMED_TITLE,
          amount: formatMoney(d.amountCents, d.currency),
          amountCents: d.amountCents,
          currency: d.currency,
          donorName: d.donorName,
          email: d.email,
          testMode: d.testMode,
          card: d.cardLast4 ? `${d.cardBrand} ending ${d.cardLast4}` : '',
        },
      },
    });
  });
}

/** The owner's donor list and donation settings. */
function registerDonationOwnerRoutes(app: FastifyInstance, donations: DonationService) {
  // ---- Owner ------------------------------------------------------------------------------------

  const donorsView = { preHandler: app.requireOwner(can('donations', 'read')) };
  const storeRead = { preHandler: app.requireOwner(can('donation-settings', 'read')) };
  const store = { preHandler: app.requireOwner(can('donation-settings', 'write')) };

  app.get(`${DONATIONS_API}/admin/donations`, donorsView, async (req) => {
    const q = donationListQuery.parse(req.query ?? {});
    return donations.list(req.owner!.websiteId, q);
  });

  app.get(`${DONATIONS_API}/admin/settings`, storeRead, async (req) => {
    const r = await rows<{ settings: Obj; currency: string }>(
      app.database.db,
      sql`select settings, currency from websites where id = ${req.owner!.websiteId}`,
    );
    return { settings: donationSettingsOf(r[0]?.settings ?? {}), currency: r[0]?.currency ?? 'USD' };
  });

  app.put(`${DONATIONS_API}/admin/settings`, store, async (req) => {
    const b = donationSettingsIn.parse(req.body ?? {});
    const websiteId = req.owner!.websiteId;
    const saved = await app.database.db.transaction((tx) =>
      changeSettingsSection(tx, websiteId, req.owner!.id, 'donations.settings', 'donations', donationSettingsOf, (current) => {
        const merged = { ...current, ...b.settings };
        if (merged.minimumCents > merged.maximumCents)
          throw badRequest('The minimum cannot be above the maximum.', { minimumCents: 'The minimum cannot be above the maximum.' });
        return merged;
      }),
    );
    app.services.websites.invalidate();
    return { settings: donationSettingsOf(saved) };
  });
}

/**
 * The flags area (issue #16): feature switches with one source of truth (`isEnabled(site, feature)`),
 * experiments, the session-recording gate's server side, the analytics client's options, the owner's
 * preview and safe mode, and the billing destinations.
 *
 * Wrapped with fastify-plugin so its route gate sees every area's routes: a switched-off feature's routes
 * answer 404. Other areas call `isEnabled(site, Feature.X)` from './service.js' (or `app.flags.isEnabled`).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { and, eq, sql } from 'drizzle-orm';
import { schema } from '../../db/index.js';
import { analyticsOptionsOf, serviceUrlFor, sourceEnvironmentOf, type AnalyticsOptions } from '../../core/analytics-options.js';
import { Feature } from '../../core/features.js';
import { ProductType } from '../../core/enums.js';
import { badRequest, notFound } from '../errors.js';
import { cartIdent } from '../visitor/index.js';
import { checkoutMessages, featureFlags } from '../../core/messages.js';
import type { WebsiteRow } from '../platform/index.js';
import { anyInstalmentsEnabled, isEnabled } from './service.js';
import { pageFlags, previewItem, previewStatuses, productHidden, type PageFlags } from './page.js';
import { flagsRoutes } from './routes.js';

export { isEnabled, isBlockEnabled, featuresOf, instalmentsEnabled, experimentsOf, Feature } from './service.js';
export type { PageFlags } from './page.js';

export interface FlagsApi {
  isEnabled(site: Pick<WebsiteRow, 'settings'>, feature: Feature): boolean;
  /** The page pipeline's per-request state (preview, safe mode, features, experiments, island). */
  page(req: FastifyRequest, site: WebsiteRow): Promise<PageFlags>;
  /** An unpublished item for the owner's preview (null when not previewing or not found). */
  previewItem(flags: PageFlags, collectionId: string, urlId: string): ReturnType<typeof previewItem> | Promise<null>;
  /** The item statuses list pages show this request (undefined: published only; more for an owner's preview). */
  previewStatuses(req: FastifyRequest, site: WebsiteRow): Promise<readonly string[] | undefined>;
  /** Whether a product is hidden because its feature is off (gift cards). */
  productHidden(site: WebsiteRow, structuredContent: Record<string, unknown> | null | undefined): boolean;
  analytics: AnalyticsOptions;
}

declare module 'fastify' {
  interface FastifyInstance {
    flags: FlagsApi;
  }
}

/**
 * Visitor-facing routes that belong to a feature: a route pattern, matched exactly or, for `prefix`, with
 * everything under it. (Owner management calls stay, so an owner can set a feature up before turning it on.)
 */
const ROUTE_FEATURES: Array<{ path: string; prefix?: boolean; on: (site: WebsiteRow) => boolean }> = [
  { path: '/api/3/commerce/cart/subscription', on: (s) => isEnabled(s, Feature.SUBSCRIPTIONS) },
  { path: '/checkout/subscription', prefix: true, on: (s) => isEnabled(s, Feature.SUBSCRIPTIONS) },
  { path: '/api/instalments', prefix: true, on: anyInstalmentsEnabled },
  { path: '/api/members/areas/:areaId/join', on: (s) => isEnabled(s, Feature.MEMBER_AREAS) },
  { path: '/members/join/:areaId', on: (s) => isEnabled(s, Feature.MEMBER_AREAS) },
  { path: '/members/confirmed/:areaId', on: (s) => isEnabled(s, Feature.MEMBER_AREAS) },
  { path: '/api/donations', on: (s) => isEnabled(s, Feature.DONATIONS) },
  { path: '/donate', prefix: true, on: (s) => isEnabled(s, Feature.DONATIONS) },
];

function featureOfRoute(url: string | undefined) {
  if (!url) return undefined;
  return ROUTE_FEATURES.find((r) => url === r.path || (r.prefix === true && url.startsWith(`${r.path}/`)));
}

const CART_ENTRIES = '/api/commerce/shopping-cart/entries';
const CHECKOUT_WITH_CODES = new Set(['/api/checkout/quote', '/api/checkout/place-order']);

/** Whether the visitor's shopping cart holds a gift card (subscription carts never do). */
async function cartHoldsGiftCard(app: FastifyInstance, req: FastifyRequest): Promise<boolean> {
  if ((req.body as { cartToken?: unknown } | undefined)?.cartToken) return false;
  const ident = cartIdent(req);
  if (!ident.token && !ident.siteUserId) return false;
  const cart = await app.services.carts.find(ident);
  if (!cart) return false;
  const found = await app.database.db
    .select({ id: schema.cartEntries.id })
    .from(schema.cartEntries)
    .innerJoin(schema.items, eq(schema.items.id, schema.cartEntries.itemId))
    .where(
      and(
        eq(schema.cartEntries.cartId, cart.id),
        sql`(${schema.items.structuredContent}->>'productType') = ${String(ProductType.GIFT_CARD)}`,
      ),
    )
    .limit(1);
  return found.length > 0;
}

export const flagsArea = fp(
  async (app: FastifyInstance) => {
    const c = app.config;
    const sourceEnvironment = sourceEnvironmentOf(c.ANALYTICS_SOURCE_ENV, (m) =>
      app.log.warn({ value: c.ANALYTICS_SOURCE_ENV, event: 'analytics-invalid-source-environment' }, m),
    );
    const analytics = analyticsOptionsOf({
      fireEvents: c.ANALYTICS_FIRE_EVENTS,
      logging: c.ANALYTICS_LOGGING,
      beacon: c.ANALYTICS_BEACON,
      validate: c.ANALYTICS_VALIDATE,
      sourceEnvironment,
      serviceUrl: serviceUrlFor(sourceEnvironment, {
        dev: c.ANALYTICS_SERVICE_URL_DEV,
        qa: c.ANALYTICS_SERVICE_URL_QA,
        prod: c.ANALYTICS_SERVICE_URL_PROD,
      }),
    });
    app.decorate('sessionRecorder', {
      provider:
        c.SESSION_RECORDER_ID && c.SESSION_RECORDER_SCRIPT_URL
          ? { id: c.SESSION_RECORDER_ID, scriptUrl: c.SESSION_RECORDER_SCRIPT_URL }
          : null,
    });
    const client = { analytics };
    app.decorate('flags', {
      isEnabled,
      page: (req, site) => pageFlags(app, req, site, client),
      previewItem: (flags, collectionId, urlId) =>
        flags.owner && flags.drafts ? previewItem(app, collectionId, urlId) : Promise.resolve(null),
      previewStatuses: (req, site) => previewStatuses(app, req, site),
      productHidden,
      analytics,
    } satisfies FlagsApi);

    // A switched-off feature's routes answer 404, whichever area registered them.
    app.addHook('onRequest', async (req) => {
      const rule = featureOfRoute(req.routeOptions.url);
      if (!rule) return;
      const site = await app.services.websites.get();
      if (!rule.on(site)) throw notFound();
    });

    // Gift cards switched off: a gift card cannot be added to a cart (its page already answers 404), and no
    // gift card code is taken at checkout.
    app.addHook('preHandler', async (req) => {
      if (req.method !== 'POST') return;
      const url = req.routeOptions.url;
      if (url !== CART_ENTRIES && !CHECKOUT_WITH_CODES.has(url ?? '')) return;
      const site = await app.services.websites.get();
      if (isEnabled(site, Feature.GIFT_CARDS)) return;
      if (url !== CART_ENTRIES) {
        const code = (req.body as { giftCardCode?: unknown } | undefined)?.giftCardCode;
        if (typeof code === 'string' && code.trim() !== '')
          throw badRequest(checkoutMessages.GIFT_CARD_UNKNOWN, { giftCardCode: checkoutMessages.GIFT_CARD_UNKNOWN });
        // A gift card put in the cart while the feature was on is not sold now: checkout says so.
        if (await cartHoldsGiftCard(app, req)) throw badRequest(featureFlags.GIFT_CARDS_OFF, { cart: featureFlags.GIFT_CARDS_OFF });
        return;
      }
      const itemId = (req.body as { itemId?: unknown } | undefined)?.itemId;
      if (typeof itemId !== 'string' || itemId.length > 64) return;
      const [row] = await app.database.db
        .select({ sc: schema.items.structuredContent })
        .from(schema.items)
        .where(and(eq(schema.items.id, itemId), eq(schema.items.websiteId, site.id)))
        .limit(1);
      if (row && Number((row.sc as Record<string, unknown>).productType) === ProductType.GIFT_CARD)
        throw notFound('Sorry, that item is unavailable.');
    });

    await app.register(flagsRoutes);
  },
  { name: 'flags-area' },
);
export { dashboardVariants } from './funnel.js';

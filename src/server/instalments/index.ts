/**
 * The instalments area: the owner's preferences read on every page
 * request so the commerce context code can serve the per-item instalment context, the provider's modal
 * through our own route, and the instalment payment method at checkout (test mode).
 *
 * Wrapped with fastify-plugin: its page hook must reach the page routes, and `app.instalments` the tests.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { badRequest } from '../errors.js';
import { HttpModalSource, ModalService } from './modal.js';
import { loadInstalmentPreferences, NO_INSTALMENTS } from './preferences.js';
import { storeInstalmentContext, withInstalmentState, type InstalmentRequestState } from './context.js';
import type { InstalmentContext } from '../../core/instalments.js';
import { InstalmentTestProvider } from '../payments/index.js';
import { instalmentsEnabled } from '../flags/index.js';

export { seedInstalmentPreferences, DEMO_INSTALMENT_PREFERENCES, INSTALMENTS_NAMESPACE, loadInstalmentPreferences } from './preferences.js';
export { instalmentContextFor, cartInstalmentContexts, currentStoreInstalmentContext } from './context.js';

export const INSTALMENTS_API = '/api/instalments';

declare module 'fastify' {
  interface FastifyInstance {
    instalments: {
      modal: ModalService;
      /** The store-wide instalment context for a currency, as checkout offers it (off when the owner's switch is off). */
      storeContext(currency: string): Promise<InstalmentContext>;
    };
  }
}

/**
 * Instalments are offered when the owner's /config switch 'Offer instalment payments' is on
 * (storeSettings.instalmentsEnabled) and the brand of the merchant's country is switched on (server/flags).
 */
export function instalmentsOffered(site: { settings: Record<string, unknown> }, merchantCountry: string | null | undefined): boolean {
  const store = (site.settings.storeSettings ?? {}) as { instalmentsEnabled?: unknown };
  return store.instalmentsEnabled === true && instalmentsEnabled(site as Parameters<typeof instalmentsEnabled>[0], merchantCountry);
}

/** Requests that never render a page: APIs, static files, health. */
const NOT_PAGES = /^\/(api|assets|theme|demo-media|health|favicon)(\/|\?|$)/;

const localeParam = z.object({ locale: z.string().max(10) });

export const instalmentsArea = fp(async (app: FastifyInstance): Promise<void> => {
  const modal = new ModalService(new HttpModalSource(), app.log);
  /**
   * With Stripe connected, Afterpay/Clearpay goes through the connected account: its country (retrieved by Check
   * connection, stripe/settings.ts) decides eligibility, not the preferences' merchantCountry (used
   * until the account has been checked, and without Stripe).
   */
  const effective = async (prefs: Awaited<ReturnType<typeof loadInstalmentPreferences>>) => {
    if (!app.hasDecorator('stripe') || !app.stripe.active()) return prefs;
    const country = await app.stripe.settings.accountCountry();
    return country ? { ...prefs, merchantCountry: country } : prefs;
  };
  const storeContext = async (currency: string): Promise<InstalmentContext> => {
    const site = await app.services.websites.get();
    const prefs = await effective(await loadInstalmentPreferences(app.database.db, site.id));
    return storeInstalmentContext(instalmentsOffered(site, prefs.merchantCountry) ? prefs : NO_INSTALMENTS, currency, site.locale);
  };
  if (!app.hasDecorator('instalments')) app.decorate('instalments', { modal, storeContext });

  /** The request's state: the owner's preferences and the website's language. */
  const stateFor = async (): Promise<InstalmentRequestState | null> => {
    const site = await app.services.websites.get();
    // Kept per content version (plugins/site-cache.ts): commerce_preferences writes move the version.
    const prefs = await effective(
      await app.siteCache.get('instalment-preferences', site.id, () => loadInstalmentPreferences(app.database.db, site.id)),
    );
    // The brand of the merchant's country must be switched on (server/flags), else no messaging.
    return { prefs: instalmentsOffered(site, prefs.merchantCountry) ? prefs : NO_INSTALMENTS, language: site.locale };
  };

  // Page requests read the preferences once; the rest of the request sees them (commerce context code).
  app.addHook('onRequest', (req: FastifyRequest, _reply, done) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || NOT_PAGES.test(req.url)) return done();
    stateFor().then(
      (state) => (state ? withInstalmentState(state, done) : done()),
      (err: unknown) => {
        // Never a broken page: without preferences no pill is shown.
        req.log.warn(
          { err, event: 'instalment-preferences-load-failed' },
          'instalment preferences could not be read; no instalment messaging on this page',
        );
        withInstalmentState({ prefs: NO_INSTALMENTS, language: 'en-US' }, done);
      },
    );
  });

  // The provider's static modal for a locale, or { source: 'local' } when it cannot be loaded.
  app.get(`${INSTALMENTS_API}/modal/:locale`, async (req, reply) => {
    const { locale } = localeParam.parse(req.params);
    if (!ModalService.isLocale(locale)) throw badRequest('Unknown instalment locale.');
    const answer = await modal.modal(locale);
    reply.header('cache-control', answer.source === 'provider' ? 'public, max-age=3600' : 'no-store');
    return answer;
  });

  // At checkout the instalment provider is a payment method of the provider interface (test mode).
  if (app.hasDecorator('checkout')) {
    app.checkout.payments.register(new InstalmentTestProvider(app.database, storeContext));
  }
});
export { currentInstalmentState } from './context.js';

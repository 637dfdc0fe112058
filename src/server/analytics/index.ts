import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import type { Database } from '../../db/index.js';
import { OWNER_COOKIE } from '../../core/cookies.js';
import { AnalyticsIngest } from './ingest.js';
import { injectPageData, pageDataAt, pageDataFor, pageDataScript, PAGE_DATA_ID } from './page-data.js';
import { deferInsert } from '../site-page/index.js';
import { analyticsRoutes } from './routes.js';
import { AnalyticsSettingsService, DEFAULT_SETTINGS, purgeExpired } from './settings.js';
import type { IngestEvent } from './rollup.js';
import { siteUserQuietly } from '../visitor/index.js';

export interface AnalyticsApi {
  ingest: AnalyticsIngest;
  settings: AnalyticsSettingsService;
  /**
   * Records server-side events (an order placed, a form submitted, ...) through the same buffer:
   * e.g. `app.analytics.record('order_placed', { cart_value: 4200, currency_code: 'USD', order_id })`.
   */
  record(
    name: string,
    fields?: Record<string, unknown>,
    opts?: { visitorId?: string | null; itemId?: string | null; path?: string | null },
  ): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    analytics: AnalyticsApi;
  }
}

const PURGE_EVERY_MS = 60 * 60 * 1000;

/**
 * Where the ingest journals accepted events (see journal.ts): in the PGlite data folder (this process's
 * alone), or for PostgreSQL in DATA_DIR under a key of the connection string, so only a restart against
 * the same database replays them. In-memory PGlite (tests) keeps no journal.
 */
function journalOf(database: Database, dataDir: string): { dir: string; key: string } | null {
  if (database.kind === 'pglite') return database.dataDir ? { dir: join(database.dataDir, 'analytics-journal'), key: 'pglite' } : null;
  if (!database.url) return null;
  return { dir: join(resolve(dataDir), 'analytics-journal'), key: createHash('sha256').update(database.url).digest('hex').slice(0, 16) };
}

/**
 * The analytics area: collection endpoints, the ingest buffer and its writer, the page data island,
 * raw-event retention and the owner dashboard API. Registered without encapsulation so the data
 * island reaches every page and `app.analytics` every area.
 */
export const analyticsArea = fp(
  async (app: FastifyInstance) => {
    const env = app.config;
    const { websites } = app.services;
    const ingest = new AnalyticsIngest(app.database, {
      maxBuffered: env.ANALYTICS_MAX_BUFFERED,
      log: app.log,
      journal: journalOf(app.database, env.DATA_DIR),
    });
    const settings = new AnalyticsSettingsService(
      app.database,
      { ...DEFAULT_SETTINGS, retentionDays: env.ANALYTICS_RETENTION_DAYS },
      app.siteCache,
    );

    app.decorate('analytics', {
      ingest,
      settings,
      async record(name, fields = {}, opts = {}) {
        const site = await websites.get();
        const s = await settings.get(site.id);
        if (!s.trackingEnabled) return;
        const f = fields as Record<string, unknown>;
        const e: IngestEvent = {
          source: 'event',
          name,
          at: new Date(),
          visitorId: opts.visitorId ?? null,
          sessionId: null,
          path: opts.path ?? null,
          itemId: opts.itemId ?? null,
          data: f,
          facts: {
            value: typeof f.cart_value === 'number' ? f.cart_value : null,
            currency: typeof f.currency_code === 'string' ? f.currency_code : null,
            formId: typeof f.form_id === 'string' ? f.form_id : null,
          },
        };
        ingest.accept(site.id, [e]);
      },
    } satisfies AnalyticsApi);

    let purgeTimer: ReturnType<typeof setInterval> | null = null;
    const purge = async () => {
      try {
        const site = await websites.get();
        const s = await settings.get(site.id);
        await purgeExpired(app.database, site.id, s.retentionDays);
      } catch (err) {
        app.log.warn({ err: (err as Error).message }, 'analytics purge failed');
      }
    };
    app.addHook('onReady', async () => {
      ingest.start();
      purgeTimer = setInterval(() => void purge(), PURGE_EVERY_MS);
      purgeTimer.unref?.();
    });
    // Nothing buffered is lost on a clean shutdown.
    app.addHook('onClose', async () => {
      if (purgeTimer) clearInterval(purgeTimer);
      await ingest.close();
    });

    // The page data island on every rendered page (unless the page pipeline already wrote one).
    app.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'GET' || typeof payload !== 'string' || req.url.startsWith('/api/')) return payload;
      const type = reply.getHeader('content-type');
      if (
        typeof type !== 'string' ||
        !type.startsWith('text/html') ||
        !payload.includes('class="tessera ') ||
        payload.includes(`id="${PAGE_DATA_ID}"`)
      )
        return payload;
      try {
        const site = await websites.get();
        const s = await settings.get(site.id);
        const owner = req.cookies[OWNER_COOKIE] ? await app.loadOwner(req) : null;
        const data = pageDataFor(req, payload, {
          websiteId: site.id,
          templateId: String((site.settings as Record<string, unknown>).templateId ?? 'default'),
          locale: site.locale,
          trackingEnabled: s.trackingEnabled,
          cookiePolicy: s.cookiePolicy,
          role: owner?.role ?? null,
          memberLocale: siteUserQuietly(req)?.language || null,
        });
        const script = pageDataScript(data);
        // With the page cache's onSend hook to come (it always is, in the app), the island goes in as the page
        // becomes bytes (site-page/late-insert.ts): no second copy of a large page.
        if (app.hasDecorator('pageCache')) {
          deferInsert(reply, payload, pageDataAt(payload), script);
          return payload;
        }
        return injectPageData(payload, script);
      } catch (err) {
        req.log.warn({ err: (err as Error).message }, 'analytics page data');
        return payload;
      }
    });

    await analyticsRoutes(app, { ingest, settings, websites });
  },
  { name: 'analytics-area' },
);
export { injectPageData, pageDataScript } from './page-data.js';
export { eventContent, jsonField, LIMITS } from '../../core/api/analytics.js';

import './cldr-packs.js';
import { constants as zlibConstants } from 'node:zlib';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import { parseQueryString } from './plugins/querystring.js';
import compress from '@fastify/compress';
import helmet from 'helmet';
import { cspPlugin } from './site-page/csp.js';
import type { SitePageParts } from './site-page/page.js';
import fastifyStatic from '@fastify/static';
import { folderFileType, sendInside } from './files-inside.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from '../db/index.js';
import { imageHosts, type Config } from './config.js';
import { setImageHosts, siteShellContext } from './site-context/index.js';
import { siteStylesHead } from './editor/index.js';
import { errorsPlugin } from './plugins/errors.js';
import { rewriteUrl } from './plugins/path.js';
import { logSerializers } from './plugins/log-safety.js';
import { hardeningPlugin } from './plugins/hardening.js';
import { crumbPlugin } from './visitor/crumb.js';
import { ownerAuthPlugin, OWNER_ACCESS, OWNER_ROLES } from './platform/owner-auth.js';
import type { Access, Area } from '../core/roles.js';
import { OwnerService } from './platform/owners.js';
import { WebsiteService } from './platform/websites.js';
import { authRoutes } from './platform/auth-routes.js';
import { ownerRecoveryRoutes } from './platform/owner-recovery.js';
import { adminRoutes } from './platform/admin-routes.js';
import { CartService } from './commerce/cart-service.js';
import { commerceRoutes } from './commerce/routes.js';
import { commerceWidgets } from './commerce/index.js';
import type { Theme } from './site-page/index.js';
import { openTheme, siteThemeHook } from './themes/index.js';
import { flagsArea } from './flags/index.js';
import { ClientAssets } from './site-page/index.js';
import { mediaStoreFor, quotaBytes, UploadService } from './storage/index.js';
import { pageRoutes } from './pages/routes.js';
import { formsArea } from './forms/index.js';
import { restockArea } from './restock/index.js';
import { analyticsArea } from './analytics/index.js';
import { checkoutArea, onOrderPlaced } from './checkout/index.js';
import { ownerOrderHook, platformArea } from './platform/index.js';
import { Mailer, smtpTransport } from './mail/mailer.js';
import { emailOriginOf, type EmailOrigin } from './email-origin.js';
import { JobQueue } from './jobs/queue.js';
import {
  DatabaseRateLimitStore,
  MemoryRateLimitStore,
  RATE_LIMIT_KEEP_MS,
  RATE_LIMIT_PURGE_EVERY_MS,
  RateLimiter,
  RedisRateLimitStore,
  WriteBehindRateLimitStore,
  type RateLimitStore,
} from './plugins/rate-limit.js';
import { Redis } from 'ioredis';
import { SignInLimits } from './platform/sign-in-limits.js';
import { SiteCache, siteCachePlugin } from './plugins/site-cache.js';
import { opsPlugin, requestIdOf } from './plugins/ops.js';
import { foregroundPlugin } from './plugins/foreground.js';

export interface AppDeps {
  config: Config;
  database: Database;
  /** A pino logger or false (tests). */
  logger?: boolean | Record<string, unknown>;
}

export interface Services {
  owners: OwnerService;
  websites: WebsiteService;
  carts: CartService;
  theme: Theme;
  assets: ClientAssets;
  mailer: Mailer;
  jobs: JobQueue;
  rateLimiter: RateLimiter;
  /** Owner and site-user sign-in limits: failures only, per (account, address) (platform/sign-in-limits.ts). */
  signInLimits: SignInLimits;
  /** Owner uploads (storage/uploads.ts): the editor's media library, and product imports' fetched images. */
  uploads: UploadService;
}

/** A registered route; an owner route carries the roles its guard admits and the area and access they come from. */
export interface RouteEntry {
  method: string;
  url: string;
  ownerRoles?: readonly number[];
  ownerAccess?: { area: Area; access: Access };
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
    database: Database;
    config: Config;
    /** Every route registered (method and URL pattern), for the route table and the fuzz test. */
    routeTable: RouteEntry[];
    /** The origin of emailed links (email-origin.ts): PUBLIC_URL, the saved site address, this server; never a request's Host. */
    emailOrigin: EmailOrigin;
  }
}

/** Cookies and auth headers never reach the logs. */
const redact = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["stripe-signature"]',
  'req.headers["x-csrf-token"]',
  'req.headers["x-siteuser-xsrf-token"]',
  'res.headers["set-cookie"]',
];

/**
 * TRUST_PROXY as Fastify takes it. A hop count becomes "trust the nearest n hops" (Fastify itself
 * ignores a bare number); a list is compiled by proxy-addr; false trusts no X-Forwarded-* at all.
 */
export function trustProxyOption(v: Config['TRUST_PROXY']): boolean | string[] | ((addr: string, hop: number) => boolean) {
  if (typeof v === 'number') return v > 0 ? (_addr: string, hop: number) => hop < v : false;
  return v;
}

/** The Fastify instance with its logging, proxy, body, router and shutdown options. */
function createFastify(deps: AppDeps): FastifyInstance {
  const { config } = deps;
  return Fastify({
    logger:
      deps.logger === undefined
        ? { level: config.LOG_LEVEL, redact, serializers: logSerializers }
        : deps.logger === false
          ? false
          : { ...(deps.logger as object), redact, serializers: logSerializers },
    // One line per request, written below: path without its query (sign-in links and unsubscribe
    // links carry tokens there), status and time. Never headers or cookies.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    bodyLimit: 1024 * 1024,
    // Query strings parse with depth, array and parameter limits (plugins/querystring.ts); url-encoded bodies below too.
    routerOptions: { maxParamLength: 200, querystringParser: parseQueryString },
    // One normalised path for the router and every guard (plugins/path.ts).
    rewriteUrl,
    // Request ids (plugins/ops.ts): in every log line as reqId, in X-Request-Id and in 500 answers.
    genReqId: requestIdOf,
    return503OnClosing: false,
    // Shutdown (main.ts) closes idle connections itself, a moment after it stops listening, so a connection
    // accepted just before the listener closed still gets its request served.
    forceCloseConnections: false,
  });
}

/** The rate-limit counters' store, as RATE_LIMIT_STORE chooses, and the Redis client when it is Redis. */
function openRateStore(app: FastifyInstance, config: Config, database: Database): { redis: Redis | null; rateStore: RateLimitStore } {
  let redis: Redis | null = null;
  let rateStore: RateLimitStore;
  if (config.RATE_LIMIT_STORE === 'redis') {
    redis = new Redis(config.REDIS_URL!, { lazyConnect: false, maxRetriesPerRequest: 2, enableOfflineQueue: true });
    redis.on('error', (err) => app.log.warn({ err: err.message }, 'redis error'));
    rateStore = new RedisRateLimitStore(redis);
  } else if (config.RATE_LIMIT_STORE === 'memory') rateStore = new MemoryRateLimitStore();
  // PGlite is this process's alone (its folder is locked): counts in memory, written to the table each second.
  else rateStore = database.kind === 'pglite' ? new WriteBehindRateLimitStore(database) : new DatabaseRateLimitStore(database);
  return { redis, rateStore };
}

/** Every route's method, path and owner guard, listed on app.routeTable as routes are added. */
function recordRouteTable(app: FastifyInstance): void {
  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (r) => {
    const handlers = [r.preHandler ?? []].flat() as Array<{
      [OWNER_ROLES]?: readonly number[];
      [OWNER_ACCESS]?: RouteEntry['ownerAccess'];
    }>;
    const guard = handlers.find((h) => h && OWNER_ROLES in h);
    for (const m of Array.isArray(r.method) ? r.method : [r.method]) {
      if (m !== 'HEAD')
        routeTable.push({ method: m, url: r.url, ...(guard ? { ownerRoles: guard[OWNER_ROLES], ownerAccess: guard[OWNER_ACCESS] } : {}) });
    }
  });
}

/** Builds the Fastify app from its plugins. It never listens; main.ts does. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  const app = createFastify(deps);
  const { redis, rateStore } = openRateStore(app, config, database);
  // A Tessera theme folder, or a developer template folder (template.conf) rendered through server/themes.
  const theme = openTheme(config.THEME_DIR, app.log, config.DEV);
  // The image template's fixed list of image hosts (srcset only for images on them).
  setImageHosts(imageHosts(config));
  const siteCache = new SiteCache(database);
  const services: Services = {
    owners: new OwnerService(database),
    websites: new WebsiteService(database, siteCache),
    carts: new CartService(database),
    theme,
    assets: new ClientAssets(),
    mailer: new Mailer(database, config.SMTP_URL ? smtpTransport(config.SMTP_URL) : null, config.MAIL_FROM, app.log),
    jobs: new JobQueue(database, app.log),
    rateLimiter: new RateLimiter(rateStore),
    signInLimits: new SignInLimits(rateStore),
    uploads: new UploadService(database.db, config.DATA_DIR, mediaStoreFor(config), quotaBytes(config)),
  };
  app.decorate('services', services);
  // The page shell (site-page) renders every area's page with the site's context and styles, handed in here.
  app.decorate('sitePageParts', {
    siteContext: (site, path) => siteShellContext(database.db, services.websites, site, path),
    stylesHead: (websiteId) => siteStylesHead(app, websiteId),
    widgets: (site) => commerceWidgets({ currency: site.currency, settings: services.websites.storeSettings(site) }),
  } satisfies SitePageParts);
  // Pages render with the site's chosen theme: Tessera's or a developer template (server/themes).
  app.addHook('preHandler', siteThemeHook(app));
  app.addHook('onResponse', async (req, reply) => {
    const path = req.url.split('?')[0];
    req.log.info({ method: req.method, path, status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
  });
  recordRouteTable(app);
  app.decorate('database', database);
  app.decorate('config', config);
  app.decorate('emailOrigin', emailOriginOf(app));
  app.addHook('onClose', async () => {
    theme.close();
    // A lock notice or confirmation link started after a sign-in's answer is written before the mailer stops.
    await services.signInLimits.idle();
    await services.mailer.stop();
    await services.jobs.stop();
    if (redis) await redis.quit().catch(() => redis?.disconnect());
    await rateStore.close?.().catch((err: Error) => app.log.warn({ err: err.message }, 'rate-limit counts not written'));
  });
  if (config.WORKERS) {
    // Old rate-limit counters leave the table once an hour (and once a minute after start).
    let purgeTimers: Array<ReturnType<typeof setTimeout>> = [];
    const purgeRates = () =>
      void rateStore
        .purge?.(new Date(Date.now() - RATE_LIMIT_KEEP_MS))
        .catch((err: Error) => app.log.warn({ err: err.message }, 'rate-limit purge failed'));
    app.addHook('onListen', async () => {
      services.mailer.start();
      services.jobs.start();
      if (rateStore.purge)
        purgeTimers = [setTimeout(purgeRates, 60_000).unref(), setInterval(purgeRates, RATE_LIMIT_PURGE_EVERY_MS).unref()];
    });
    app.addHook('onClose', async () => {
      for (const t of purgeTimers) clearTimeout(t);
    });
  }

  await app.register(errorsPlugin);
  // /health, /ready, /metrics and request ids.
  await app.register(opsPlugin);
  await app.register(hardeningPlugin);
  // Helmet's security headers on every response (the Content-Security-Policy is plugins/csp.ts's). The
  // middleware is built once: @fastify/helmet built it again for every request, a few per cent of a page.
  const securityHeaders = helmet({
    contentSecurityPolicy: false,
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-site' },
  });
  app.addHook('onRequest', (req, reply, done) => securityHeaders(req.raw, reply.raw, (err) => done(err as Error | undefined)));
  await app.register(cspPlugin);
  // HTML pages are compressed by the page pipeline itself (pages/encode.ts, from the page cache's onSend
  // hook), which this plugin then leaves alone. What it compresses (JSON, a deflate-only client's page) is
  // made per request: brotli 3 and gzip 4 cost about 60% of the plugin's brotli 4 / gzip 6 for 5-6% more
  // bytes, and a body up to 512 KB is compressed in one call instead of through a stream pipeline.
  await app.register(compress, {
    threshold: 1024,
    syncThreshold: 512 * 1024,
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 3 } },
    zlibOptions: { level: 4 },
  });
  await app.register(cookie);
  await app.register(formbody, { bodyLimit: 256 * 1024, parser: parseQueryString });
  await app.register(crumbPlugin);
  await app.register(ownerAuthPlugin, { owners: services.owners });
  await app.register(siteCachePlugin, { cache: siteCache });
  await app.register(foregroundPlugin);

  // Hashed client bundles: cached for a year. Theme assets: an hour.
  if (existsSync(services.assets.dir)) {
    // File by file (wildcard: false): other /assets/ paths are a developer template's files (server/themes).
    await app.register(fastifyStatic, {
      root: join(services.assets.dir, 'assets'),
      prefix: '/assets/',
      wildcard: false,
      immutable: true,
      maxAge: '365d',
      decorateReply: false,
      index: false,
    });
  }
  // The theme folder's files (THEME_DIR may hold a third party's theme): never outside its real folder (files-inside.ts).
  app.get('/theme/*', async (req, reply) => {
    const rel = (req.params as { '*': string })['*'];
    return sendInside(reply, theme.assetsDir, rel, folderFileType(rel), 3600);
  });

  const demoMedia = join(process.cwd(), 'seed', 'media');
  if (existsSync(demoMedia)) {
    await app.register(fastifyStatic, { root: demoMedia, prefix: '/demo-media/', maxAge: '7d', decorateReply: false, index: false });
  }

  // Feature switches first: their route gate answers 404 for a switched-off feature's routes in every area.
  await app.register(flagsArea);
  await app.register(authRoutes, { owners: services.owners });
  await app.register(ownerRecoveryRoutes, { owners: services.owners });
  await app.register(adminRoutes, { assets: services.assets });
  await app.register(commerceRoutes, { carts: services.carts, websites: services.websites });
  // Each area registers its own routes; services are on app.services.
  await app.register(platformArea);
  // The owner's new-order and low-stock emails ride on checkout's order-placed hook (platform/owner-notifications.ts).
  onOrderPlaced(
    app.database,
    ownerOrderHook(
      (tx, mail) => services.mailer.enqueue(tx, mail),
      (tx) => app.emailOrigin(tx),
    ),
  );
  await app.register(formsArea);
  await app.register(restockArea);
  await app.register(analyticsArea);
  await app.register(checkoutArea);
  await app.register((await import('./stripe/index.js')).stripeArea);
  await app.register((await import('./instalments/index.js')).instalmentsArea);
  await app.register((await import('./engagement/index.js')).engagementArea);
  await app.register((await import('./reviews/index.js')).reviewsArea);
  await app.register((await import('./content/likes.js')).likeRoutes);
  await app.register((await import('./donations/index.js')).donationsArea);
  await app.register((await import('./members/index.js')).membersArea);
  await app.register((await import('./editor/index.js')).editorArea);
  await app.register((await import('./catalog/index.js')).catalogArea);
  // Crawlers: robots.txt, sitemap, product feed, URL redirects (checked by the page routes before their 404).
  await app.register((await import('./seo/index.js')).seoArea);
  // The owner's backup download (backup/routes.ts).
  await app.register((await import('./backup/routes.js')).backupArea);
  // Developer templates: theme choice, /site.css, /assets/ and /scripts/ files, /api/themes.
  await app.register((await import('./themes/index.js')).themesArea);
  await pageRoutes(app, { database, websites: services.websites, carts: services.carts, theme, assets: services.assets });
  return app;
}

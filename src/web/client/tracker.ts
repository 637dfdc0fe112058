/**
 * The visitor tracker: census calls, the newer event pipeline and the older
 * one, shopper events with their cart fields, all to
 * our own server. Every send is fire-and-forget: failures are ignored and no page waits on them.
 * Events that need consent wait for the visitor's decision under an 'ask' cookie policy; under a
 * restrictive one (or after a refusal) census cookies are cleared and events go without identifiers.
 */
import { ANALYTICS_ACCEPTED_STATUSES, ANALYTICS_TIMEOUT_MS, DEFAULT_RESOLVED_LOCALE } from '../../core/constants.js';
import {
  parseSiteUserInfo,
  shouldRecordPageView,
  SITE_USER_INFO_COOKIE_NAME,
  VISITOR_COOKIE_NAME,
  CRUMB_COOKIE,
} from '../../core/cookies.js';
import { PageType } from '../../core/enums.js';
import { cut, type PageData } from './analytics-page.js';
import {
  ANALYTICS_WARNINGS,
  DEFAULT_ANALYTICS_OPTIONS,
  eventsUrl,
  schemaUrl,
  type AnalyticsOptions,
} from '../../core/analytics-options.js';
import {
  clearCensusCookies,
  marketingIdOf,
  MARKETING_ID_KEY,
  touchVisitor,
  type CookieJar,
  type KeyValue,
  type VisitorState,
} from './tracker-cookies.js';
import { CONSENT_COOKIE } from '../../core/cookies.js';

export const EVENTS_URL = '/api/v1/events';
export const RECORD_EVENT_URL = '/api/events/RecordEvent';
export const CENSUS_URL = '/api/census';
const BATCH_MAX = 20;
const BATCH_WAIT_MS = 1000;
const PENDING_MAX = 100;

export type ShopperEvent =
  | 'product_page_visit'
  | 'add_to_cart'
  | 'view_cart'
  | 'remove_from_cart'
  | 'related_product_display'
  | 'related_product_click'
  | 'related_product_add'
  | 'reviews_tab_click'
  | 'reviews_anchor_click'
  | 'checkout_start'
  | 'order_placed'
  | 'form_submit'
  | 'restock_signup';
export type PaywallEvent =
  'video_list_view' | 'video_details_view' | 'video_access_denied_view' | 'video_join_click' | 'video_third_party_click';

export interface CartFields {
  cart_id: string | null;
  num_items_in_cart: number;
  cart_value: number;
  currency_code: string;
  product_types_list: number[];
  purchase_type_list: string[];
}

interface CartLike {
  id?: string | null;
  totalQuantity?: number;
  subtotalCents?: number;
  subtotal?: { currency?: string };
  entries?: Array<{
    productType?: number;
    quantity?: number;
    purchasePriceCents?: number;
    subTotalCents?: number;
    purchasePriceMoney?: { currency?: string };
  }>;
  isSubscription?: boolean;
}

/** The cart fields of every shopper event, from a cart as the cart API answers it. */
export function cartFieldsOf(cart: CartLike | null | undefined, fallbackCurrency = 'USD'): CartFields {
  const entries = Array.isArray(cart?.entries) ? cart!.entries : [];
  const value =
    typeof cart?.subtotalCents === 'number'
      ? cart.subtotalCents
      : entries.reduce((s, e) => s + (e.subTotalCents ?? (e.purchasePriceCents ?? 0) * (e.quantity ?? 0)), 0);
  return {
    cart_id: cart?.id ?? null,
    num_items_in_cart: typeof cart?.totalQuantity === 'number' ? cart.totalQuantity : entries.reduce((s, e) => s + (e.quantity ?? 0), 0),
    cart_value: Math.max(0, Math.round(value)),
    currency_code: (cart?.subtotal?.currency ?? entries[0]?.purchasePriceMoney?.currency ?? fallbackCurrency).toUpperCase(),
    product_types_list: [...new Set(entries.map((e) => e.productType).filter((t): t is number => typeof t === 'number'))],
    purchase_type_list: entries.length === 0 ? [] : [cart?.isSubscription ? 'SUBSCRIPTION' : 'ONE_TIME'],
  };
}

/** resolved_locale: the given locale, else the document language, else en-US. */
export function resolveLocale(explicit: string | null | undefined, documentLang: string | null | undefined): string {
  return explicit || documentLang || DEFAULT_RESOLVED_LOCALE;
}

export type Consent = 'granted' | 'denied' | 'pending';

/** The consent state of a page: implied policies grant, restrictive ones deny, 'ask' reads the decision. */
export function consentOf(policy: PageData['cookiePolicy'], decision: string | undefined): Consent {
  if (policy === 'implied') return 'granted';
  if (policy === 'restrictive') return 'denied';
  return decision === 'granted' ? 'granted' : decision === 'denied' ? 'denied' : 'pending';
}

export interface TrackerEnv {
  page: PageData;
  jar: CookieJar;
  local: KeyValue | null;
  session: KeyValue | null;
  now(): number;
  random(): number;
  /** Sends a beacon; false when the browser refused or has none. */
  beacon(url: string, body: string): boolean;
  fetch: typeof fetch;
  location: { href: string; host: string; pathname: string; search: string };
  document: { title: string; referrer: string; lang: string };
  /** The client's options (fire events, logging, beacon, validate, source environment); defaults when absent. */
  options?: AnalyticsOptions;
  /** The visitor's experiment assignments as `name:variant` tags, attached to every event. */
  experiments?: () => string[];
  /** Where analytics warnings go (never user-facing). */
  warn?: (message: string, detail?: unknown) => void;
  browser: {
    userAgent: string;
    language: string;
    locale: string;
    innerWidth: number;
    innerHeight: number;
    screenWidth: number;
    screenHeight: number;
  };
}

interface Envelope {
  eventSchemaName: string;
  eventContent: string;
}

export class Tracker {
  consent: Consent;
  visitor: VisitorState | null = null;
  cart: CartLike | null = null;
  private waiting: Array<() => void> = [];
  private batch: Envelope[] = [];
  private batchTimer: ReturnType<typeof setTimeout> | null = null;
  /** Counts of what was sent, for tests. */
  readonly sent = { census: 0, events: 0, legacy: 0 };

  private readonly options: AnalyticsOptions;

  constructor(private readonly env: TrackerEnv) {
    this.options = env.options ?? DEFAULT_ANALYTICS_OPTIONS;
    this.consent = consentOf(env.page.cookiePolicy, env.jar.get(CONSENT_COOKIE));
    if (this.consent === 'denied') clearCensusCookies(env.jar, env.local);
    if (this.consent === 'granted') this.touch();
  }

  private touch() {
    this.visitor = touchVisitor(this.env.jar, {
      now: this.env.now(),
      random: this.env.random,
      local: this.env.local,
      session: this.env.session,
      warn: (m) => this.env.warn?.(m),
    });
    // The campaign a visit lands from stays its marketing id for the rest of the session.
    if (this.visitor.landing) {
      const id = marketingIdOf(this.env.location.search);
      try {
        if (id) this.env.session?.setItem(MARKETING_ID_KEY, id);
        else this.env.session?.removeItem(MARKETING_ID_KEY);
      } catch {
        /* no session storage: the id goes on this page's events only */
      }
      this.landingMarketingId = id;
    }
  }

  private landingMarketingId: string | null = null;

  /** marketing_id: the landing campaign of this session, when there was one. */
  private marketingId(): string | null {
    try {
      const stored = this.env.session?.getItem(MARKETING_ID_KEY) ?? null;
      if (stored) return stored.slice(0, 64);
    } catch {
      /* fall through */
    }
    return this.landingMarketingId;
  }

  /** Runs now, or once the visitor decides under an 'ask' policy (never dropped while pending). */
  private withConsent(fn: () => void) {
    if (this.consent !== 'pending') return fn();
    if (this.waiting.length < PENDING_MAX) this.waiting.push(fn);
  }

  /** The visitor's cookie decision: granted starts the cookies; refused clears them. Queued events then go. */
  decide(granted: boolean) {
    this.consent = granted ? 'granted' : 'denied';
    this.env.jar.set(CONSENT_COOKIE, this.consent, 365 * 24 * 3600);
    if (granted) this.touch();
    else {
      this.visitor = null;
      clearCensusCookies(this.env.jar, this.env.local);
    }
    const queued = this.waiting;
    this.waiting = [];
    for (const fn of queued) fn();
  }

  // ---- Census ------------------------------------------------------------------------------------

  /** Analytics data: user agent, client date, viewport and screen, website, template, locale, url, title, ids. */
  censusData(extra: Record<string, unknown> = {}): Record<string, unknown> {
    const { page, browser, location, document: doc } = this.env;
    const data: Record<string, unknown> = {
      userAgent: cut(browser.userAgent, 512),
      clientDate: this.env.now(),
      viewportWidth: Math.max(0, Math.round(browser.innerWidth)),
      viewportHeight: Math.max(0, Math.round(browser.innerHeight)),
      screenWidth: Math.max(0, Math.round(browser.screenWidth)),
      screenHeight: Math.max(0, Math.round(browser.screenHeight)),
      websiteId: page.websiteId,
      templateId: page.templateId,
      locale: cut(resolveLocale(page.locale, doc.lang), 35),
      url: cut(location.href, 2048),
      title: cut(doc.title, 300),
      referrer: cut(doc.referrer, 2048),
      pageType: page.pageType ?? undefined,
      ...(page.itemId ? { itemId: page.itemId } : {}),
      ...(page.collectionId ? { collectionId: page.collectionId } : {}),
      ...extra,
    };
    if (this.visitor && this.consent === 'granted') {
      data.visitorCookie = this.visitor.visitorCookie;
      data.sessionId = this.visitor.sessionId;
      data.newVisit = this.visitor.newVisit;
      data.newVisitor = this.visitor.newVisitor;
    }
    return data;
  }

  private post(url: string, body: string, contentType: string, timeout: boolean) {
    const headers: Record<string, string> = { 'content-type': contentType };
    // The site's crumb goes only to this site, never to an events service on another origin.
    const c = /^\/(?!\/)/.test(url) ? this.env.jar.get(CRUMB_COOKIE) : undefined;
    if (c) headers['x-csrf-token'] = c;
    const init: RequestInit = { method: 'POST', headers, body, credentials: 'same-origin', keepalive: true };
    if (timeout && typeof AbortSignal !== 'undefined' && 'timeout' in AbortSignal) init.signal = AbortSignal.timeout(ANALYTICS_TIMEOUT_MS);
    try {
      return this.env.fetch(url, init).then(
        (r) => r,
        () => null,
      );
    } catch {
      return Promise.resolve(null);
    }
  }

  /** POST /api/census/RecordHit, form-encoded: event, data (JSON), ss_cvr. */
  recordHit(event: string, extra: Record<string, unknown> = {}) {
    this.withConsent(() => {
      const form = new URLSearchParams({ event, data: JSON.stringify(this.censusData(extra)) });
      const cvr = this.consent === 'granted' ? this.env.jar.get(VISITOR_COOKIE_NAME) : undefined;
      if (cvr) form.set('ss_cvr', cvr);
      this.sent.census += 1;
      void this.post(`${CENSUS_URL}/RecordHit`, form.toString(), 'application/x-www-form-urlencoded', true);
    });
  }

  /** The other census calls: button-click, button-render (2.5 s time-out), form-render, overlay, RecordQuickView/{id}. */
  census(
    call: 'button-click' | 'button-render' | 'form-render' | 'overlay' | `RecordQuickView/${string}`,
    extra: Record<string, unknown> = {},
  ) {
    this.withConsent(() => {
      this.sent.census += 1;
      void this.post(`${CENSUS_URL}/${call}`, JSON.stringify(this.censusData(extra)), 'application/json', call === 'button-render');
    });
  }

  /** A page view: RecordHit 'view' (never for the search page). */
  pageView() {
    const { page, location } = this.env;
    if (!shouldRecordPageView({ path: location.pathname, pageType: page.pageType, trackingEnabled: page.track })) return;
    this.recordHit('view');
  }

  // ---- The newer pipeline ----------------------------------------------------------------------------

  /** Event content: the common fields, then the event's own fields. */
  content(name: string, fields: Record<string, unknown>): Record<string, unknown> {
    const { page, browser, location, document: doc } = this.env;
    const user = parseSiteUserInfo(this.env.jar.get(SITE_USER_INFO_COOKIE_NAME));
    const c: Record<string, unknown> = {
      browser_language: cut(browser.language, 35),
      browser_locale: cut(browser.locale, 35),
      browser_window_height: Math.max(0, Math.round(browser.innerHeight)),
      browser_window_width: Math.max(0, Math.round(browser.innerWidth)),
      client_name: 'tessera-site',
      client_version: '1',
      page_host: cut(location.host, 255),
      page_path: cut(location.pathname, 2048),
      page_query_params: cut(location.search.replace(/^\?/, ''), 2048),
      page_referrer_url: cut(doc.referrer, 2048),
      enduser_user_agent: cut(browser.userAgent, 512),
      event_occurrence_timestamp: this.env.now(),
      custom_schema_name: name,
      source_environment: this.options.sourceEnvironment,
      context_website_id: page.websiteId,
      resolved_locale: cut(resolveLocale(null, doc.lang), 35),
      website_locale: cut(page.locale, 35),
      member_account_locale: user.authenticated ? (page.memberLocale ?? null) : null,
      is_logged_in: user.authenticated,
    };
    if (page.itemId) c.object_identifier = page.itemId;
    const tags = this.env.experiments?.() ?? [];
    if (tags.length) c.experiments = tags.slice(0, 20);
    if (this.visitor && this.consent === 'granted') {
      c.analytics_id = this.visitor.analyticsId;
      c.session_id = this.visitor.sessionId;
      c.visitor_cookie = this.visitor.visitorCookie;
      c.user_id = user.siteUserId;
      c.member_account_id = user.siteUserId;
      const marketing = this.marketingId();
      if (marketing) c.marketing_id = marketing;
    }
    const overwritten = Object.keys(fields).filter((k) => k in c && c[k] !== null && c[k] !== undefined);
    if (overwritten.length) this.env.warn?.(ANALYTICS_WARNINGS.FIELDS_OVERWRITTEN, overwritten);
    return { ...c, ...fields };
  }

  /** Queues an event for POST {events service}/api/v1/events; batches go by beacon. */
  event(name: string, fields: Record<string, unknown> = {}) {
    if (!this.options.fireEvents) return;
    this.withConsent(() => {
      if (this.options.logging) this.env.warn?.(`analytics event ${name}`, fields);
      this.batch.push({ eventSchemaName: name, eventContent: JSON.stringify(this.content(name, fields)) });
      if (this.batch.length >= BATCH_MAX) this.flush();
      else if (!this.batchTimer) this.batchTimer = setTimeout(() => this.flush(), BATCH_WAIT_MS);
    });
  }

  /** A shopper event: the event's fields with the cart fields. */
  shopper(name: ShopperEvent, fields: Record<string, unknown> = {}) {
    this.event(name, { ...cartFieldsOf(this.cart), ...fields });
  }

  /** A video paywall event. */
  paywall(
    name: PaywallEvent,
    fields: { content_collection_id: string | null; content_item_id: string | null; viewer_access_status: string },
  ) {
    this.event(name, fields);
  }

  /** Sends the batch: by beacon, or a plain request where beacons are unavailable (200 or 202 only). */
  flush(): Promise<boolean> {
    if (this.batchTimer) clearTimeout(this.batchTimer);
    this.batchTimer = null;
    if (this.batch.length === 0) return Promise.resolve(true);
    const o = this.options;
    // Validate mode: each event goes to the events service's schema endpoint, and nothing is recorded.
    if (o.validate) {
      const list = this.batch;
      this.batch = [];
      return Promise.all(
        list.map((e) =>
          this.post(schemaUrl(o, e.eventSchemaName), e.eventContent, 'application/json', false).then((r) => {
            if (r && !r.ok) this.env.warn?.(`analytics event ${e.eventSchemaName} does not match its schema`);
            return !!r && r.ok;
          }),
        ),
      ).then((all) => all.every(Boolean));
    }
    const url = eventsUrl(o);
    const body = JSON.stringify(this.batch);
    this.sent.events += this.batch.length;
    this.batch = [];
    let beaconed = false;
    try {
      beaconed = o.beacon && this.env.beacon(url, body);
    } catch {
      beaconed = false;
    }
    if (beaconed) return Promise.resolve(true);
    return this.post(url, body, 'text/plain;charset=UTF-8', false).then((r) => {
      const ok = !!r && ANALYTICS_ACCEPTED_STATUSES.includes(r.status);
      if (r && !ok) this.env.warn?.(`analytics HTTP status ${r.status} not accepted`);
      return ok;
    });
  }

  // ---- The older pipeline -------------------------------------------------------------------------

  /** POST /api/events/RecordEvent, form-encoded: crumb (from the cookie), event, data (JSON). */
  recordEvent(event: string, data: Record<string, unknown> = {}) {
    this.withConsent(() => {
      const { page, location, document: doc } = this.env;
      const user = parseSiteUserInfo(this.env.jar.get(SITE_USER_INFO_COOKIE_NAME));
      const payload = {
        pageHash: cut(location.pathname, 200),
        pagePath: cut(location.pathname, 2048),
        websiteId: page.websiteId,
        templateId: page.templateId,
        ...(this.consent === 'granted' && user.siteUserId ? { memberAccountId: user.siteUserId } : {}),
        website_locale: cut(page.locale || doc.lang, 35),
        ...data,
      };
      const form = new URLSearchParams({ crumb: this.env.jar.get(CRUMB_COOKIE) ?? '', event, data: JSON.stringify(payload) });
      this.sent.legacy += 1;
      void this.post(RECORD_EVENT_URL, form.toString(), 'application/x-www-form-urlencoded', false);
    });
  }

  /** The shopper events a page type implies: product page visit, view cart, checkout. */
  pageEvents() {
    const { page } = this.env;
    if (page.pageType === PageType.CONTENT_ITEM && page.itemId) this.shopper('product_page_visit', { item_id: page.itemId });
    else if (page.pageType === PageType.SHOW_CART || page.pageType === PageType.CART_V2) this.shopper('view_cart');
    else if (page.pageType === PageType.CHECKOUT) this.shopper('checkout_start');
  }
}

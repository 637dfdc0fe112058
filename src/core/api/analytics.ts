/**
 * Analytics: the collection endpoints' bodies (every field has a type and a length, every list a count,
 * every body a size set on the route, so a hostile or broken client gets a 400 and nothing reaches the
 * buffer), the owner's dashboard answer and settings, and the page's analytics facts.
 */
import { z } from 'zod';
import { ERROR_REPORTER_MAX_QUEUED, ERROR_REPORTER_MAX_STACK_CHARS, type WebVitalName } from '../constants.js';

export type VitalName = WebVitalName | 'INP' | 'TTFB';
export const VITAL_NAMES: readonly VitalName[] = ['FCP', 'LCP', 'CLS', 'FID', 'INP', 'TTFB'];

export const LIMITS = Object.freeze({
  censusBody: 16 * 1024,
  dataChars: 8 * 1024,
  eventsBody: 256 * 1024,
  eventContentChars: 16 * 1024,
  eventsPerBatch: 50,
  errorsBody: 96 * 1024,
  errorsPerReport: ERROR_REPORTER_MAX_QUEUED,
  performanceBody: 64 * 1024,
  recordsPerReport: 60,
  extraKeys: 60,
});

const s = (max: number) => z.string().max(max);
const id = z
  .string()
  .max(64)
  .regex(/^[A-Za-z0-9_.:-]*$/, 'must be an id');
export const eventName = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'must be an event name');
const dim = z.number().int().min(0).max(100_000);
const when = z.union([z.number().finite().min(0), s(40)]);

/** Analytics data of the census calls. */
export const censusData = z.object({
  userAgent: s(512).optional(),
  clientDate: when.optional(),
  viewportWidth: dim.optional(),
  viewportHeight: dim.optional(),
  screenWidth: dim.optional(),
  screenHeight: dim.optional(),
  websiteId: id.optional(),
  templateId: id.optional(),
  locale: s(35).optional(),
  url: s(2048).optional(),
  title: s(300).optional(),
  referrer: s(2048).optional(),
  itemId: id.optional(),
  collectionId: id.optional(),
  pageType: z.number().int().min(0).max(10_000).optional(),
  formId: id.optional(),
  // form-render's page fields.
  pageTitle: s(300).optional(),
  pageId: id.optional(),
  contentSource: z.enum(['i', 'c']).optional(),
  pagePath: s(2048).optional(),
  pagePermissionTypeValue: z.union([z.number().int().min(0).max(1000), s(20)]).optional(),
  visitorCookie: s(200).optional(),
  sessionId: id.optional(),
  buttonText: s(200).optional(),
  buttonUrl: s(2048).optional(),
  overlayId: id.optional(),
  newVisit: z.boolean().optional(),
  newVisitor: z.boolean().optional(),
});
export type CensusData = z.infer<typeof censusData>;

/** The JSON text of a form field, parsed; a 400 names the field when it is not JSON. */
export function jsonField(field: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new z.ZodError([{ code: 'custom', path: [field], message: 'must be valid JSON', input: text }]);
  }
}

export const recordHitBody = z.object({
  event: eventName,
  data: s(LIMITS.dataChars),
  ss_cvr: s(200).optional(),
  crumb: s(100).optional(),
});

export const recordEventBody = z.object({
  crumb: s(100).optional(),
  event: eventName,
  data: s(LIMITS.dataChars).default('{}'),
});

const scalar = z.union([s(1000), z.number().finite(), z.boolean(), z.null()]);
const scalarList = z.array(z.union([s(200), z.number().finite()])).max(50);

/** Event content of the newer pipeline, shopper and paywall fields included. */
export const eventContent = z
  .object({
    analytics_id: id.optional(),
    browser_language: s(35).optional(),
    browser_locale: s(35).optional(),
    browser_window_height: dim.optional(),
    browser_window_width: dim.optional(),
    client_name: s(64).optional(),
    client_version: s(64).optional(),
    marketing_id: s(64).optional(),
    page_host: s(255).optional(),
    page_path: s(2048).optional(),
    page_query_params: s(2048).optional(),
    page_referrer_url: s(2048).optional(),
    session_id: id.optional(),
    enduser_user_agent: s(512).optional(),
    event_occurrence_timestamp: when.optional(),
    custom_schema_name: s(100).optional(),
    source_environment: z.enum(['dev', 'qa', 'prod']).optional(),
    context_website_id: id.optional(),
    destination_url: s(2048).optional(),
    member_account_id: id.nullable().optional(),
    object_identifier: s(200).optional(),
    resolved_locale: s(35).optional(),
    website_locale: s(35).optional(),
    member_account_locale: s(35).nullable().optional(),
    // shopper fields
    user_id: id.nullable().optional(),
    is_logged_in: z.boolean().optional(),
    visitor_cookie: s(200).nullable().optional(),
    cart_id: id.nullable().optional(),
    num_items_in_cart: z.number().int().min(0).max(1_000_000).optional(),
    cart_value: z.number().int().min(0).max(1e13).optional(),
    currency_code: z
      .string()
      .regex(/^[A-Za-z]{3}$/)
      .optional(),
    product_types_list: scalarList.optional(),
    purchase_type_list: scalarList.optional(),
    item_id: id.nullable().optional(),
    item_type: z
      .union([s(64), z.number().int()])
      .nullable()
      .optional(),
    item_title: s(300).nullable().optional(),
    item_variant_object: z.record(s(100), s(200)).nullable().optional(),
    item_price: z.number().int().min(0).max(1e13).nullable().optional(),
    item_quantity: z.number().int().min(0).max(1_000_000).nullable().optional(),
    order_id: id.nullable().optional(),
    form_id: id.nullable().optional(),
    // paywall fields
    content_collection_id: id.nullable().optional(),
    content_item_id: id.nullable().optional(),
    viewer_access_status: s(64).nullable().optional(),
  })
  .catchall(z.union([scalar, scalarList]))
  .refine((o) => Object.keys(o).length <= 60 + LIMITS.extraKeys, 'too many fields');
export type EventContent = z.infer<typeof eventContent>;

export const eventEnvelope = z.object({
  eventSchemaName: eventName,
  eventContent: z.union([s(LIMITS.eventContentChars), z.record(z.string().max(64), z.unknown())]),
});
export const eventsBody = z.union([
  eventEnvelope,
  z.array(eventEnvelope).min(1).max(LIMITS.eventsPerBatch),
  z.object({ events: z.array(eventEnvelope).min(1).max(LIMITS.eventsPerBatch) }),
]);

export const errorReport = z.object({
  message: z.string().min(1).max(2000),
  stack: s(ERROR_REPORTER_MAX_STACK_CHARS).optional(),
  url: s(2048),
  websiteId: id.optional(),
  templateId: id.optional(),
  browser: s(512).optional(),
  source: s(2048).optional(),
  line: z.number().int().min(0).max(10_000_000).optional(),
  column: z.number().int().min(0).max(10_000_000).optional(),
  kind: z.enum(['error', 'unhandledrejection']).optional(),
  ts: z.number().finite().min(0).optional(),
});
export const errorsBody = z.array(errorReport).min(1).max(LIMITS.errorsPerReport);

export const performanceRecord = z.object({
  app: s(64),
  event: s(64),
  pageLoadId: id,
  ts: z.number().finite().min(0),
  data: z.object({
    name: z.enum(VITAL_NAMES as unknown as [string, ...string[]]),
    value: z.number().finite().min(0).max(3_600_000),
    rating: s(32).optional(),
    id: s(100).optional(),
    navigationType: s(32).optional(),
    path: s(2048).optional(),
  }),
});
export const performanceBody = z.array(performanceRecord).min(1).max(LIMITS.recordsPerReport);

export const rangeQuery = z
  .object({
    from: z.iso.date(),
    to: z.iso.date(),
  })
  .refine((q) => q.from <= q.to, { message: 'from must not be after to', path: ['from'] })
  .refine((q) => Date.parse(q.to) - Date.parse(q.from) <= 800 * 86_400_000, { message: 'the range is at most 800 days', path: ['to'] });

// ---- The owner's dashboard: GET /api/analytics/dashboard ----

export interface DimCount {
  dim: string;
  count: number;
  total: number;
  label?: string;
}

export interface VitalSummary {
  name: VitalName;
  p75: number | null;
  samples: number;
  good: number | null;
  poor: number | null;
  rating: 'good' | 'needs-improvement' | 'poor' | null;
}

export interface Dashboard {
  from: string;
  to: string;
  series: Array<{ day: string; pageviews: number; visitors: number; revenue: number; orders: number }>;
  totals: { pageviews: number; visitors: number; orders: number; formSubmissions: number; restockSignups: number };
  pages: DimCount[];
  referrers: DimCount[];
  devices: DimCount[];
  browsers: DimCount[];
  countries: DimCount[];
  funnel: Array<{ step: string; events: number; visitors: number; conversion: number | null }>;
  /** Per currency: net sales of the orders placed in the range (count is their number). */
  revenue: DimCount[];
  /** Per currency: what was refunded of those orders (count is days with refunded orders). */
  refunds: DimCount[];
  forms: DimCount[];
  restock: DimCount[];
  vitals: VitalSummary[];
  errors: Array<{
    fingerprint: string;
    message: string;
    count: number;
    total: number;
    lastSeen: string;
    lastUrl: string;
    lastBrowser: string;
    lastStack: string;
  }>;
}

export interface VariantFunnel {
  variant: string;
  visitors: number;
  steps: Array<{ step: string; visitors: number; conversion: number | null }>;
}

/** The analytics dashboard's "by variant" view: the site's experiment names and the funnel of one of them. */
export interface DashboardVariants {
  experiments: string[];
  byVariant: { experiment: string; variants: VariantFunnel[] } | null;
}

/** The dashboard's answer: the figures and the funnel split by variant. */
export type DashboardAnswer = Dashboard & DashboardVariants;

// ---- Settings: GET and PUT /api/analytics/settings ----

export const COOKIE_POLICIES = ['implied', 'ask', 'restrictive'] as const;
export type CookiePolicy = (typeof COOKIE_POLICIES)[number];

export interface AnalyticsSettings {
  trackingEnabled: boolean;
  /** Raw events older than this are purged; the per-day roll-ups are kept. */
  retentionDays: number;
  cookiePolicy: CookiePolicy;
}

export const settingsPatch = z
  .object({
    trackingEnabled: z.boolean(),
    retentionDays: z.number().int().min(1).max(3650),
    cookiePolicy: z.enum(COOKIE_POLICIES),
  })
  .partial()
  .strict();

/** The analytics facts of a page (the `tessera-page` data island) the browser's collectors read. */
export interface PageData {
  websiteId: string;
  templateId: string;
  pageType: number | null;
  locale: string;
  track: boolean;
  cookiePolicy: CookiePolicy;
  itemId: string | null;
  collectionId: string | null;
  /** The signed-in site user's chosen language (member_account_locale); such pages are never shared. */
  memberLocale?: string | null;
}

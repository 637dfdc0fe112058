/**
 * The analytics client's options (defaults: fire events on, logging off, beacon on, validate
 * off) and the source environment (dev, QA/staging or prod) that picks the events service URL, with a
 * warning for an invalid one. In validate mode events are posted to the service's schema
 * endpoint, `{events service}/{schema name}`, instead of being recorded.
 */
import { ANALYTICS_DEFAULTS } from './constants';

export const SOURCE_ENVIRONMENTS = ['dev', 'qa', 'prod'] as const;
export type SourceEnvironment = (typeof SOURCE_ENVIRONMENTS)[number];

export interface AnalyticsOptions {
  fireEvents: boolean;
  logging: boolean;
  beacon: boolean;
  validate: boolean;
  sourceEnvironment: SourceEnvironment;
  /** The events service's base URL for the source environment ('' means this site). */
  serviceUrl: string;
}

export const DEFAULT_ANALYTICS_OPTIONS: Readonly<AnalyticsOptions> = Object.freeze({
  ...ANALYTICS_DEFAULTS,
  sourceEnvironment: 'prod',
  serviceUrl: '',
});

/** The warning for a source environment that is none of dev, qa (staging) or prod. */
export const INVALID_SOURCE_ENVIRONMENT = 'Invalid source environment: expected dev, qa (staging) or prod; using prod.';

/** The analytics warnings; nothing is user-facing. */
export const ANALYTICS_WARNINGS = Object.freeze({
  ID_NOT_STORED: 'analytics id cannot be stored',
  FIELDS_OVERWRITTEN: 'auto-populated fields overwritten',
});

/** Path of the events endpoint under the service URL. */
export const EVENTS_PATH = '/api/v1/events';
/** Where this site's own events service takes validate-mode posts (when no service URL is configured). */
export const SCHEMAS_PATH = '/api/v1/schemas';

/** Reads a source environment ('staging' and 'qa-staging' mean qa); an invalid one warns and gives prod. */
export function sourceEnvironmentOf(value: unknown, warn: (message: string) => void = () => {}): SourceEnvironment {
  const v = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (v === '' || v === undefined) return 'prod';
  if (v === 'staging' || v === 'qa-staging' || v === 'qa/staging') return 'qa';
  if ((SOURCE_ENVIRONMENTS as readonly string[]).includes(v)) return v as SourceEnvironment;
  warn(INVALID_SOURCE_ENVIRONMENT);
  return 'prod';
}

/** The service URL for an environment from the configured ones (trailing slashes dropped). */
export function serviceUrlFor(env: SourceEnvironment, urls: Partial<Record<SourceEnvironment, string>>): string {
  return (urls[env] ?? '').replace(/\/+$/, '');
}

export const eventsUrl = (o: Pick<AnalyticsOptions, 'serviceUrl'>): string => `${o.serviceUrl}${EVENTS_PATH}`;
/**
 * Validate mode's URL: `{events service}/{schema name}`. With no service URL
 * configured the events service is this site, whose schema endpoint is under SCHEMAS_PATH.
 */
export const schemaUrl = (o: Pick<AnalyticsOptions, 'serviceUrl'>, schemaName: string): string =>
  `${o.serviceUrl || SCHEMAS_PATH}/${encodeURIComponent(schemaName)}`;

/** Options from untrusted JSON (the page's data island): anything missing or malformed is the default. */
export function analyticsOptionsOf(value: unknown): AnalyticsOptions {
  const o = value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  const b = (k: 'fireEvents' | 'logging' | 'beacon' | 'validate') =>
    typeof o[k] === 'boolean' ? (o[k] as boolean) : DEFAULT_ANALYTICS_OPTIONS[k];
  const url =
    typeof o.serviceUrl === 'string' && /^(https?:\/\/[^\s]+|\/[^\s]*|)$/.test(o.serviceUrl) ? o.serviceUrl.replace(/\/+$/, '') : '';
  return {
    fireEvents: b('fireEvents'),
    logging: b('logging'),
    beacon: b('beacon'),
    validate: b('validate'),
    sourceEnvironment: sourceEnvironmentOf(o.sourceEnvironment),
    serviceUrl: url,
  };
}

/**
 * The one server-side source of truth for feature switches and experiments. Areas (and the templates,
 * through the page context's `features`) ask `isEnabled(site, feature)`; nothing else reads the stored
 * switches. Switches live in the website's settings (`settings.features`), experiments in
 * `settings.experiments`, both written through the platform's audited `changeSettings`.
 */
import type { FastifyInstance } from 'fastify';
import { Feature, blockOn, featureOn, featureStates, instalmentBrand } from '../../core/features.js';
import {
  DEFAULT_EXPERIMENTS,
  DEFAULT_INTERNAL_HOST_PATTERNS,
  isInternalHost,
  parseHostPatterns,
  type Experiment,
} from '../../core/experiments.js';
import type { WebsiteRow } from '../platform/index.js';

export { Feature };

type SiteLike = Pick<WebsiteRow, 'settings'>;

/** Whether a feature is on for this site. */
export function isEnabled(site: SiteLike, feature: Feature): boolean {
  return featureOn(site.settings.features, feature);
}

/** Every feature's state by key (the template context's `features`). */
/** Feature states per settings object (a website row's settings are never changed in place): read-only. */
const featureStatesOf = new WeakMap<object, Record<string, boolean>>();

export function featuresOf(site: SiteLike): Record<string, boolean> {
  const settings = site.settings as object;
  let states = featureStatesOf.get(settings);
  if (!states) featureStatesOf.set(settings, (states = featureStates(site.settings.features)));
  return states;
}

/** Whether a block of this type renders on this site (beta blocks follow their flag). */
export function isBlockEnabled(site: SiteLike, blockType: number): boolean {
  return blockOn(site.settings.features, blockType);
}

/** Whether instalments are offered for a merchant country: the brand of that country must be on. */
export function instalmentsEnabled(site: SiteLike, merchantCountry: string | null | undefined): boolean {
  return isEnabled(site, instalmentBrand(merchantCountry));
}

/** Whether either instalment brand is on (the instalment routes exist). */
export function anyInstalmentsEnabled(site: SiteLike): boolean {
  return isEnabled(site, Feature.INSTALMENTS_AFTERPAY) || isEnabled(site, Feature.INSTALMENTS_CLEARPAY);
}

/** The site's experiments: the stored list, else the defaults. */
export function experimentsOf(site: SiteLike): Experiment[] {
  const stored = site.settings.experiments;
  if (!Array.isArray(stored)) return DEFAULT_EXPERIMENTS.map((e) => ({ name: e.name, variants: e.variants.map((v) => ({ ...v })) }));
  return stored.filter(
    (e): e is Experiment =>
      !!e &&
      typeof e === 'object' &&
      typeof (e as Experiment).name === 'string' &&
      Array.isArray((e as Experiment).variants) &&
      (e as Experiment).variants.every((v) => typeof v?.name === 'string' && typeof v?.weight === 'number'),
  );
}

/** The internal-host patterns of this install (INTERNAL_HOST_PATTERNS, else the defaults). */
export function hostPatterns(app: FastifyInstance): readonly string[] {
  const text = app.config.INTERNAL_HOST_PATTERNS;
  return text ? parseHostPatterns(text) : DEFAULT_INTERNAL_HOST_PATTERNS;
}

/** Hosts already judged, per app (a page asks on every request; the patterns are fixed at start). */
const judgedHosts = new WeakMap<FastifyInstance, Map<string, boolean>>();

export function internalHost(app: FastifyInstance, host: string | undefined): boolean {
  if (!host || host.length > 255) return isInternalHost(host, hostPatterns(app));
  let judged = judgedHosts.get(app);
  if (!judged) judgedHosts.set(app, (judged = new Map()));
  let internal = judged.get(host);
  if (internal === undefined) {
    internal = isInternalHost(host, hostPatterns(app));
    if (judged.size >= 1000) judged.clear();
    judged.set(host, internal);
  }
  return internal;
}

/** The owner's 'internal site' setting (/config/features): the site has internal status whatever its host. */
export function internalSite(site: SiteLike): boolean {
  return site.settings.internalSite === true;
}

/**
 * Whether experiment overrides (and the tooling that goes with them) work for a request: on internal or staging hosts, and on any host of a site the owner marked internal.
 */
export function overridesAllowed(app: FastifyInstance, site: SiteLike, host: string | undefined): boolean {
  return internalSite(site) || internalHost(app, host);
}

/** The website's country: settings.country, else the region of its locale. */
export function siteCountry(site: Pick<WebsiteRow, 'settings' | 'locale'>): string | null {
  const c = site.settings.country;
  if (typeof c === 'string' && /^[A-Za-z]{2}$/.test(c)) return c.toUpperCase();
  const m = /-([A-Za-z]{2})\b/.exec(site.locale);
  return m ? m[1]!.toUpperCase() : null;
}

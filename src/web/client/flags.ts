/**
 * The browser side of the flags area: reads the page's `tessera-flags` data island, settles the visitor's
 * experiment assignments (stable hash of the visitor id; on internal or staging hosts an `?experiment.<name>=`
 * override is stored in local storage under the experiment's key, and `=reset` removes it), and hands the
 * tags to the analytics tracker. Nothing here throws into the page.
 */
import { analyticsOptionsOf, type AnalyticsOptions } from '../../core/analytics-options.js';
import { experimentTags, resolveAssignment, type ExperimentVariant } from '../../core/experiments.js';
import type { KeyValue } from './tracker-cookies.js';

export const FLAGS_DATA_ID = 'tessera-flags';

export interface FlagsData {
  internal: boolean;
  experiments: Array<{ name: string; key: string; variants: ExperimentVariant[]; variant: string | null }>;
  analytics: AnalyticsOptions;
  recording: { country: string | null; timeZone: string | null; toggle: boolean };
}

/** Parses the island's text; null when missing or malformed. */
export function parseFlags(text: string | null | undefined): FlagsData | null {
  if (!text) return null;
  try {
    const o = JSON.parse(text) as Partial<FlagsData>;
    if (!o || typeof o !== 'object') return null;
    const experiments = Array.isArray(o.experiments)
      ? o.experiments.filter((e) => e && typeof e.name === 'string' && typeof e.key === 'string' && Array.isArray(e.variants)).slice(0, 20)
      : [];
    const r = (o.recording ?? {}) as Partial<FlagsData['recording']>;
    return {
      internal: o.internal === true,
      experiments,
      analytics: analyticsOptionsOf(o.analytics),
      recording: {
        country: typeof r.country === 'string' ? r.country : null,
        timeZone: typeof r.timeZone === 'string' ? r.timeZone : null,
        toggle: r.toggle === true,
      },
    };
  } catch {
    return null;
  }
}

export function readFlags(doc: Document = document): FlagsData | null {
  return parseFlags(doc.getElementById(FLAGS_DATA_ID)?.textContent);
}

/**
 * The visitor's variant of every experiment. Applies the overrides to local storage on internal hosts;
 * without a visitor id the server's answer stands.
 */
export function settleExperiments(
  flags: FlagsData,
  input: { visitorId: string | null; search: string; local: KeyValue | null },
): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  const query = new URLSearchParams(input.search);
  for (const e of flags.experiments) {
    let stored: string | null = null;
    try {
      stored = input.local?.getItem(e.key) ?? null;
    } catch {
      stored = null;
    }
    const a = resolveAssignment({ experiment: e, visitorId: input.visitorId, internal: flags.internal, query, stored });
    try {
      if (a.store?.kind === 'set') input.local?.setItem(e.key, a.store.variant);
      else if (a.store?.kind === 'remove') input.local?.removeItem(e.key);
    } catch {
      /* storage may be unavailable */
    }
    out[e.name] = a.variant ?? e.variant ?? null;
  }
  return out;
}

export { experimentTags };

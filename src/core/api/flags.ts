/**
 * The flags area: feature switches, experiments and their funnel, the owner's preview and safe mode, the
 * billing destinations, the events service's schema check, and the `tessera-flags` island of every page.
 */
import { z } from 'zod';
import { EXPERIMENT_NAME, VARIANT_NAME, type Experiment, type ExperimentVariant } from '../experiments.js';
import { THEME_FOLDER_NAME } from '../preview.js';
import type { AnalyticsOptions } from '../analytics-options.js';
import type { VariantFunnel } from './analytics.js';

/** PUT /api/flags/features: switches by feature key (the route refuses unknown keys). */
export const featuresBody = z.object({
  features: z.record(z.string().max(64), z.boolean({ error: 'Each switch is on (true) or off (false).' }), {
    error: 'features must map feature keys to true or false.',
  }),
});
export type FeaturesBody = z.infer<typeof featuresBody>;

const variantIn = z.object({
  name: z.string().regex(VARIANT_NAME, 'A variant name is letters, digits, dashes or underscores (40 at most).'),
  weight: z
    .number({ error: 'Weights are whole numbers from 0 to 1000.' })
    .int('Weights are whole numbers from 0 to 1000.')
    .min(0, 'Weights are whole numbers from 0 to 1000.')
    .max(1000, 'Weights are whole numbers from 0 to 1000.'),
});

/** PUT /api/flags/experiments: the whole list. */
export const experimentsBody = z.object({
  experiments: z
    .array(
      z.object({
        name: z.string().regex(EXPERIMENT_NAME, 'An experiment name is lower-case letters, digits and dashes (40 at most).'),
        variants: z.array(variantIn).min(2, 'An experiment needs at least two variants.').max(10, 'An experiment has at most 10 variants.'),
      }),
    )
    .max(20, 'At most 20 experiments.'),
});
export type ExperimentsBody = z.infer<typeof experimentsBody>;

/** GET /api/flags/experiments/:name/funnel: the experiment's name. */
export const funnelParams = z.object({ name: z.string().regex(EXPERIMENT_NAME, 'No such experiment.') });

/** GET /api/flags/experiments/:name/funnel: the days, at most 400 of them. */
export const funnelQuery = z
  .object({
    from: z.iso.date({ error: 'from must be a date (YYYY-MM-DD).' }),
    to: z.iso.date({ error: 'to must be a date (YYYY-MM-DD).' }),
  })
  .refine((q) => q.from <= q.to, { message: 'from must not be after to', path: ['from'] })
  .refine((q) => Date.parse(q.to) - Date.parse(q.from) <= 400 * 86_400_000, { message: 'the range is at most 400 days', path: ['to'] });

/** POST /api/flags/preview: drafts shown or not, and another theme folder (null for the live one). */
export const previewBody = z.object({
  drafts: z.boolean({ error: 'drafts is true or false.' }).optional().default(true),
  theme: z.string().regex(THEME_FOLDER_NAME, 'Choose a theme folder.').nullish(),
});
export type PreviewInput = z.input<typeof previewBody>;

/** PUT /api/flags/safe-mode. */
export const safeModeBody = z.object({ enabled: z.boolean({ error: 'enabled is true or false.' }) });
/** PUT /api/flags/internal-site. */
export const internalSiteBody = z.object({ internal: z.boolean({ error: 'internal is true or false.' }) });

/** POST /api/v1/schemas/:schemaName: the event's name. */
export const schemaParams = z.object({
  schemaName: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_.:-]+$/, 'must be an event name'),
});

/** A feature switch as the owner's list shows it: stored state and whether it is in effect. */
export interface FeatureRow {
  code: number;
  key: string;
  label: string;
  beta: boolean;
  defaultOn: boolean;
  switchedOn: boolean;
  enabled: boolean;
}
/** GET and PUT /api/flags/features. */
export interface FeaturesAnswer {
  features: FeatureRow[];
}
/** GET and PUT /api/flags/experiments. */
export interface ExperimentsAnswer {
  experiments: Experiment[];
}
/** GET and PUT /api/flags/internal-site. */
export interface InternalSiteAnswer {
  internal: boolean;
}
/** GET /api/flags/experiments/:name/funnel. */
export interface FunnelAnswer {
  experiment: string;
  from: string;
  to: string;
  variants: VariantFunnel[];
}
/** POST and DELETE /api/flags/preview. */
export interface PreviewAnswer {
  drafts: boolean;
  theme: string | null;
  active: boolean;
}
/** GET /api/flags/preview: the preview cookie, safe mode and the themes a preview may show. */
export interface PreviewState extends PreviewAnswer {
  safeMode: boolean;
  themes: string[];
}
/** PUT /api/flags/safe-mode. */
export interface SafeModeAnswer {
  safeMode: boolean;
}
/** GET /api/flags/billing: the self-hosted plan and the upgrade destinations' pages. */
export interface BillingAnswer {
  plan: { name: string; selfHosted: boolean; trial: boolean; description: string };
  billingPath: string;
  destinations: Array<{ key: string; label: string; url: string }>;
}

/** The `tessera-flags` island: the visitor's experiments, the tracker's options and the recorder's switches. */
export interface FlagsData {
  internal: boolean;
  experiments: Array<{ name: string; key: string; variants: ExperimentVariant[]; variant: string | null }>;
  analytics: AnalyticsOptions;
  recording: { country: string | null; timeZone: string | null; toggle: boolean };
}

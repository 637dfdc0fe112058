/**
 * Experiments: named experiments with weighted variants, a stable
 * assignment per visitor (a hash of the visitor id and the experiment's name), and an override by query
 * parameter that works only on internal or staging hosts (detected by host pattern) and on sites the owner
 * marked internal (server/flags `overridesAllowed`; `internal` below is that answer). An override is kept in
 * local storage under a key made of a name plus the experiment's name, and can be reset.
 */
import { platform } from './messages';

export interface ExperimentVariant {
  name: string;
  /** A relative weight (0 means never assigned by the hash; an override can still choose it). */
  weight: number;
}

export interface Experiment {
  name: string;
  variants: ExperimentVariant[];
}

/** The storage key of an experiment's override: a name plus the experiment's name. */
export const EXPERIMENT_STORAGE_PREFIX = 'tessera.experiment.';
export const experimentStorageKey = (name: string): string => `${EXPERIMENT_STORAGE_PREFIX}${name}`;

/** The override query parameter: `?experiment.<name>=<variant>` sets, `?experiment.<name>=reset` resets. */
export const EXPERIMENT_QUERY_PREFIX = 'experiment.';
export const EXPERIMENT_RESET_VALUE = 'reset';

/** The experiment the session-recording rule reads (its variant must be 'true'). */
export const SESSION_RECORDING_EXPERIMENT = 'session-recording';

export const EXPERIMENT_NAME = /^[a-z0-9][a-z0-9-]{0,39}$/;
export const VARIANT_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/;

/**
 * Internal and staging hosts (internal .net domains; stage, qa plus a number, dev
 * variants), where experiment overrides work. Patterns are globs: `*` is any run of characters, `#` one or more digits.
 */
export const DEFAULT_INTERNAL_HOST_PATTERNS: readonly string[] = Object.freeze([
  '*.internal.net',
  'stage.*',
  '*.stage.*',
  '*-stage.*',
  'staging.*',
  '*.staging.*',
  'qa#.*',
  '*.qa#.*',
  '*-qa#.*',
  'dev.*',
  '*.dev.*',
  '*-dev.*',
  'dev#.*',
  '*.dev#.*',
]);

/** Compiled host patterns: every page asks whether its host is internal, with the same few patterns. */
const compiledGlobs = new Map<string, RegExp>();

function globToRegExp(glob: string): RegExp {
  const hit = compiledGlobs.get(glob);
  if (hit) return hit;
  const re = compileGlob(glob);
  if (compiledGlobs.size >= 256) compiledGlobs.clear();
  compiledGlobs.set(glob, re);
  return re;
}

function compileGlob(glob: string): RegExp {
  const body = glob
    .trim()
    .toLowerCase()
    .split('')
    .map((ch) => (ch === '*' ? '.*' : ch === '#' ? '\\d+' : ch.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`);
}

/** Parses a comma-separated list of host patterns (empty entries dropped). */
export function parseHostPatterns(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** Whether a host (port ignored) is internal or staging under the given patterns. */
export function isInternalHost(host: string | null | undefined, patterns: readonly string[] = DEFAULT_INTERNAL_HOST_PATTERNS): boolean {
  if (!host) return false;
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\](:\d+)?$/g, '')
    .replace(/:\d+$/, '');
  if (!h) return false;
  return patterns.some((p) => globToRegExp(p).test(h));
}

/** 32-bit FNV-1a of a string. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  // Final avalanche so neighbouring ids spread evenly.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The stable variant of a visitor: the same id always gets the same variant; weights set the shares. */
export function assignVariant(experiment: Experiment, visitorId: string): string | null {
  const total = experiment.variants.reduce((s, v) => s + Math.max(0, v.weight), 0);
  if (total <= 0) return experiment.variants[0]?.name ?? null;
  const point = (fnv1a(`${experiment.name}:${visitorId}`) / 0x1_0000_0000) * total;
  let acc = 0;
  for (const v of experiment.variants) {
    acc += Math.max(0, v.weight);
    if (point < acc) return v.name;
  }
  return experiment.variants[experiment.variants.length - 1]!.name;
}

export type OverrideAction = { kind: 'set'; variant: string } | { kind: 'reset' } | null;

/** The override an URL's query asks for, or null (unknown variants are ignored). */
export function overrideFromQuery(experiment: Experiment, query: Record<string, unknown> | URLSearchParams): OverrideAction {
  const key = `${EXPERIMENT_QUERY_PREFIX}${experiment.name}`;
  const raw = query instanceof URLSearchParams ? query.get(key) : query[key];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (typeof value !== 'string' || value === '') return null;
  if (value === EXPERIMENT_RESET_VALUE) return { kind: 'reset' };
  return experiment.variants.some((v) => v.name === value) ? { kind: 'set', variant: value } : null;
}

export interface Assignment {
  variant: string | null;
  source: 'override' | 'stored' | 'hash' | 'none';
  /** What to do with the stored override: write it, remove it, or leave it. */
  store: { kind: 'set'; variant: string } | { kind: 'remove' } | null;
}

/**
 * The variant of one experiment for one visitor. On internal or staging hosts a query override sets (and
 * stores) or resets the variant, and a stored override is used; elsewhere both are ignored and the stable
 * hash decides. Without a visitor id there is no hash assignment.
 */
export function resolveAssignment(input: {
  experiment: Experiment;
  visitorId: string | null;
  internal: boolean;
  query?: Record<string, unknown> | URLSearchParams;
  stored?: string | null;
}): Assignment {
  const { experiment, visitorId, internal } = input;
  const hashed = (): Assignment['variant'] => (visitorId ? assignVariant(experiment, visitorId) : null);
  if (internal) {
    const o = input.query ? overrideFromQuery(experiment, input.query) : null;
    if (o?.kind === 'set') return { variant: o.variant, source: 'override', store: { kind: 'set', variant: o.variant } };
    if (o?.kind === 'reset') {
      const v = hashed();
      return { variant: v, source: v ? 'hash' : 'none', store: { kind: 'remove' } };
    }
    if (input.stored && experiment.variants.some((v) => v.name === input.stored))
      return { variant: input.stored, source: 'stored', store: null };
  }
  const v = hashed();
  return { variant: v, source: v ? 'hash' : 'none', store: null };
}

/** The assignments as analytics events carry them: `name:variant` strings (unassigned ones left out). */
export function experimentTags(assignments: Record<string, string | null>): string[] {
  return Object.entries(assignments)
    .filter((e): e is [string, string] => typeof e[1] === 'string')
    .map(([n, v]) => `${n}:${v}`);
}

/** Checks a list of experiments an owner saves; answers the first problem, or null. */
export function experimentProblem(list: Experiment[]): string | null {
  const names = new Set<string>();
  for (const e of list) {
    if (!EXPERIMENT_NAME.test(e.name)) return `"${e.name}" is not a valid experiment name (lower-case letters, digits and dashes).`;
    if (names.has(e.name)) return platform.tagExists('experiment');
    names.add(e.name);
    if (e.variants.length < 2) return `Experiment ${e.name} needs at least two variants.`;
    const vs = new Set<string>();
    for (const v of e.variants) {
      if (!VARIANT_NAME.test(v.name)) return `"${v.name}" is not a valid variant name.`;
      if (vs.has(v.name)) return platform.tagExists('variant');
      vs.add(v.name);
      if (!Number.isInteger(v.weight) || v.weight < 0 || v.weight > 1000) return 'Weights are whole numbers from 0 to 1000.';
    }
    if (e.variants.every((v) => v.weight === 0)) return `Experiment ${e.name} needs a variant with a weight above 0.`;
  }
  return null;
}

/** The experiments a new site starts with: the one the session-recording rule reads (off: 'false' only). */
export const DEFAULT_EXPERIMENTS: readonly Experiment[] = Object.freeze([
  {
    name: SESSION_RECORDING_EXPERIMENT,
    variants: [
      { name: 'true', weight: 0 },
      { name: 'false', weight: 100 },
    ],
  },
]);

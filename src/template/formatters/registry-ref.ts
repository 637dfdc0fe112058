/** Late-bound pointer to the full registry, so built-in templates can use every formatter. */
import type { Registry } from '../parser';
export const REGISTRY_REF: { current: Registry | null } = { current: null };

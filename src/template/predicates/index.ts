/** Every predicate, by name, grouped by domain. */
import type { PredicateFn } from '../types';
import { CORE_PREDICATES } from './core';

export const PREDICATES: Record<string, PredicateFn> = Object.assign(Object.create(null), {
  ...CORE_PREDICATES,
});

/** Every predicate, by name, grouped by domain. */
import type { PredicateFn } from '../types';
import { CORE_PREDICATES } from './core';
import { CONTENT_PREDICATES } from './content';
import { COMMERCE_PREDICATES, MISSING_PREDICATES, SLIDE_PREDICATES, SOCIAL_PREDICATES } from './other';

export const PREDICATES: Record<string, PredicateFn> = Object.assign(
  Object.create(null),
  COMMERCE_PREDICATES,
  CONTENT_PREDICATES,
  CORE_PREDICATES,
  MISSING_PREDICATES,
  SLIDE_PREDICATES,
  SOCIAL_PREDICATES,
);

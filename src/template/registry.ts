/** The table of every formatter and predicate, by name. */
import type { Registry } from './parser';
import { FORMATTERS } from './formatters';
import { PREDICATES } from './predicates';

import { REGISTRY_REF } from './formatters/registry-ref';

export const REGISTRY: Registry = { formatters: FORMATTERS, predicates: PREDICATES };
REGISTRY_REF.current = REGISTRY;

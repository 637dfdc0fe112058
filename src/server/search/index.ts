/** The search area's door: what other areas use of it. */
export { cachedSearch, normaliseQuery, SEARCH_RATE } from './search.js';

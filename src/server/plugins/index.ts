/** The plugins area's door: what other areas use of it. */
export { RateLimiter, type RateLimitRule, type RateLimitStore } from './rate-limit.js';
export type { SiteCache } from './site-cache.js';

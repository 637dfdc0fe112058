import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/index.js';
import { allCollections, type CollectionRow } from '../site-context/index.js';

/**
 * The site's collections: every page needs them (navigation, routing). Kept per content version
 * (plugins/site-cache.ts; collection writes move it), so an owner's edit shows on the next page.
 */
export class CollectionCache {
  constructor(
    private readonly app: FastifyInstance,
    private readonly db: Db,
  ) {}

  get(websiteId: string): Promise<CollectionRow[]> {
    return this.app.siteCache.get('collections', websiteId, () => allCollections(this.db, websiteId));
  }
}

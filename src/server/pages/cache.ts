import type { Db } from '../../db/index.js';
import { allCollections, type CollectionRow } from './context.js';

/**
 * A short-lived cache of the site's collections: every page needs them (navigation, routing), and a
 * burst of requests shares one read. Owner edits show within the time-to-live (1 s by default).
 */
export class CollectionCache {
  private entry: { websiteId: string; at: number; rows: Promise<CollectionRow[]> } | null = null;

  constructor(
    private readonly db: Db,
    private readonly ttlMs = 1000,
  ) {}

  get(websiteId: string): Promise<CollectionRow[]> {
    const now = Date.now();
    const e = this.entry;
    if (e && e.websiteId === websiteId && now - e.at < this.ttlMs) return e.rows;
    const rows = allCollections(this.db, websiteId);
    this.entry = { websiteId, at: now, rows };
    rows.catch(() => {
      if (this.entry?.rows === rows) this.entry = null;
    });
    return rows;
  }

  invalidate(): void {
    this.entry = null;
  }
}

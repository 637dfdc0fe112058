/**
 * Site search: PostgreSQL full-text search over published products, posts, events and pages
 * (the same SQL runs on PGlite). Title words weigh most, then the excerpt, then the body.
 * Excerpts come from ts_headline with private markers, are HTML-escaped, and only then have the
 * markers turned into <mark>, so nothing from the content reaches the page unescaped.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/index.js';
import { rows } from '../db-util.js';
import { CollectionType, RecordType } from '../../core/enums.js';
import { escapeHtml } from '../../core/html.js';

export const SEARCH_MAX_QUERY = 200;
/** Searches per visitor address (a query that is not in the cache costs a database round trip and excerpts). */
export const SEARCH_RATE = { max: 30, windowMs: 60_000 };
export const SEARCH_LIMIT = 30;
const OPEN = '\u27e6';
const CLOSE = '\u27e7';

export interface SearchHit {
  kind: 'product' | 'post' | 'event' | 'page';
  id: string;
  /** The collection the hit belongs to (the page itself for pages), for the access check. */
  collectionId: string;
  title: string;
  fullUrl: string;
  collectionTitle: string;
  assetUrl: string;
  rank: number;
  /** Escaped HTML with the matched words inside <mark>. */
  excerptHtml: string;
}

/** Undoes the few entities stored bodies use, so the excerpt is plain text before it is escaped once. */
function decodeEntities(s: string): string {
  return s
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** Escapes a headline and turns the private markers into <mark> elements. */
export function highlight(headline: string): string {
  const text = decodeEntities(headline).replace(/\s+/g, ' ').trim();
  let out = '';
  let open = false;
  for (const part of text.split(/([\u27e6\u27e7])/)) {
    if (part === OPEN) {
      if (!open) out += '<mark>';
      open = true;
    } else if (part === CLOSE) {
      if (open) out += '</mark>';
      open = false;
    } else out += escapeHtml(part);
  }
  return open ? out + '</mark>' : out;
}

export function normaliseQuery(q: unknown): string {
  return String(Array.isArray(q) ? q[0] : (q ?? ''))
    .replace(/[\u0000-\u001f\u27e6\u27e7]/g, ' ')
    .trim()
    .slice(0, SEARCH_MAX_QUERY);
}

interface Row {
  kind: SearchHit['kind'];
  id: string;
  title: string;
  url_id: string;
  coll_id: string;
  coll_url: string;
  coll_title: string;
  coll_type: number;
  asset_url: string | null;
  rank: number;
  headline: string;
}

/**
 * The published items and pages matching `query`, best first. The documents are the stored, GIN-indexed
 * `search_doc` columns (migration 0016: row triggers keep them current for every writer), so a query reads
 * only the rows that match; the excerpts are worked out for the returned rows alone.
 */
export async function searchSite(db: Db, websiteId: string, query: string, limit = SEARCH_LIMIT): Promise<SearchHit[]> {
  const q = normaliseQuery(query);
  if (q === '') return [];
  const strip = (col: ReturnType<typeof sql>) => sql`translate(regexp_replace(${col}, '<[^>]*>', ' ', 'g'), ${OPEN + CLOSE}, '')`;
  // The query is written out where it is used, not read from a CTE: a constant the planner sees lets it
  // use the GIN index on search_doc (from a materialised CTE it scanned every item of every site).
  const tsquery = sql`websearch_to_tsquery('english', ${q})`;
  const found = await rows<Row>(
    db,
    sql`
    with top as (
      select * from (
        select case i.record_type when ${RecordType.STORE_ITEM} then 'product' when ${RecordType.EVENT} then 'event' else 'post' end as kind,
               i.id, i.title, i.url_id, c.id as coll_id, c.url_id as coll_url, c.title as coll_title, c.type as coll_type,
               i.assets->0->>'assetUrl' as asset_url,
               case when i.body = '' then i.excerpt else i.body end as raw,
               ts_rank(i.search_doc, ${tsquery})::float8 as rank
          from items i join collections c on c.id = i.collection_id
         where i.search_doc @@ ${tsquery}
           and i.website_id = ${websiteId} and i.status = 'published' and c.enabled
           and i.record_type in (${RecordType.TEXT}, ${RecordType.AUDIO}, ${RecordType.VIDEO}, ${RecordType.STORE_ITEM}, ${RecordType.EVENT})
        union all
        select 'page', c.id, c.title, '', c.id, c.url_id, c.title, c.type, null,
               concat_ws(' ', nullif(c.settings->>'body', ''), nullif(c.settings->>'layoutText', '')),
               ts_rank(c.search_doc, ${tsquery})::float8
          from collections c left join page_layouts pl on pl.collection_id = c.id
         where c.search_doc @@ ${tsquery}
           and c.website_id = ${websiteId} and c.enabled and c.type = ${CollectionType.PAGE}
           -- An editor page is found once it is published, and not while it is private.
           and (case when pl.collection_id is null then coalesce(c.settings->>'createdInEditor', '') <> 'true'
                     else pl.published is not null and pl.status <> 'private' end)
      ) hits
      order by rank desc, title asc, id asc
      limit ${limit}
    )
    select kind, id, title, url_id, coll_id, coll_url, coll_title, coll_type, asset_url, rank,
           ts_headline('english', ${strip(sql`raw`)}, ${tsquery}, ${`StartSel=${OPEN}, StopSel=${CLOSE}, MaxWords=28, MinWords=10, MaxFragments=2, FragmentDelimiter=" … "`}) as headline
      from top
     order by rank desc, title asc, id asc`,
  );
  return found.map((r) => ({
    kind: r.kind,
    id: r.id,
    collectionId: r.coll_id,
    title: r.title,
    fullUrl:
      r.kind === 'page'
        ? `/${r.coll_url}`
        : Number(r.coll_type) === CollectionType.PRODUCTS
          ? `/${r.coll_url}/p/${r.url_id}`
          : `/${r.coll_url}/${r.url_id}`,
    collectionTitle: r.coll_title,
    assetUrl: r.asset_url ?? '',
    rank: Number(r.rank),
    excerptHtml: highlight(r.headline ?? ''),
  }));
}

/**
 * The hits of a query, kept per content version (plugins/site-cache.ts: any write to items or collections
 * moves it), so a repeated query costs no database work until the content changes. The hits are the same
 * for every visitor: who may see a locked one is decided per request afterwards (members' visibleHits).
 */
export function cachedSearch(app: FastifyInstance, websiteId: string, query: string): Promise<SearchHit[]> {
  const q = normaliseQuery(query);
  if (q === '') return Promise.resolve([]);
  return app.siteCache.get('search', `${websiteId}\u0000${q}`, () => searchSite(app.database.db, websiteId, q));
}

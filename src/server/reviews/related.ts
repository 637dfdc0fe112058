/**
 * Related products of a product page: the owner's chosen products in their order; without any, published
 * products sharing a category with it; when it has no category, other products of its store page.
 */
import { RELATED_MAX } from '../../core/api/reviews.js';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/index.js';
import { schema } from '../../db/index.js';
import { rows } from '../db-util.js';
import { badRequest, notFound } from '../errors.js';
import { RecordType } from '../../core/enums.js';
import { relatedProducts as text } from '../../core/messages.js';
import type { ItemRow } from '../site-context/index.js';
import { audit } from '../platform/index.js';

export { RELATED_MAX };

export type RelatedSource = 'owner' | 'category' | 'collection';

export class RelatedProducts {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  private visible(websiteId: string) {
    return and(
      eq(schema.items.websiteId, websiteId),
      eq(schema.items.recordType, RecordType.STORE_ITEM),
      eq(schema.items.status, 'published'),
    );
  }

  /** What the product page shows, with where the list came from. */
  /**
   * `group`, when given, keeps the category and collection lists (one more than `limit`, the product itself
   * not left out) under a key, so products of one category share one read; the product is left out after.
   */
  async forProduct(
    row: ItemRow,
    limit: number,
    group?: (key: string, load: () => Promise<ItemRow[]>) => Promise<ItemRow[]>,
    /** The products the owner chose related products for (withChosen), when known: others skip that read. */
    withChosen?: Set<string>,
  ): Promise<{ source: RelatedSource; items: ItemRow[] }> {
    if (limit <= 0) return { source: 'owner', items: [] };
    const chosen =
      withChosen && !withChosen.has(row.id)
        ? []
        : await this.db
            .select({ item: schema.items })
            .from(schema.relatedProducts)
            .innerJoin(schema.items, eq(schema.items.id, schema.relatedProducts.relatedItemId))
            .where(and(eq(schema.relatedProducts.itemId, row.id), this.visible(row.websiteId)))
            .orderBy(asc(schema.relatedProducts.position))
            .limit(limit);
    if (chosen.length > 0) return { source: 'owner', items: chosen.map((c) => c.item) };
    const categories = (row.categories ?? []).filter((c) => typeof c === 'string' && c !== '');
    const others = (items: ItemRow[]) => items.filter((i) => i.id !== row.id).slice(0, limit);
    if (categories.length > 0) {
      const load = (n: number, except: string | null) =>
        this.db
          .select()
          .from(schema.items)
          .where(
            and(
              this.visible(row.websiteId),
              except ? ne(schema.items.id, except) : undefined,
              sql`${schema.items.categories} ?| ${sql`array[${sql.join(
                categories.map((c) => sql`${c}`),
                sql`, `,
              )}]::text[]`}`,
            ),
          )
          .orderBy(asc(schema.items.ordering), asc(schema.items.createdAt))
          .limit(n);
      const same = group
        ? others(await group(`category:${row.websiteId}:${JSON.stringify(categories)}`, () => load(limit + 1, null)))
        : await load(limit, row.id);
      return { source: 'category', items: same };
    }
    const load = (n: number, except: string | null) =>
      this.db
        .select()
        .from(schema.items)
        .where(
          and(
            this.visible(row.websiteId),
            except ? ne(schema.items.id, except) : undefined,
            eq(schema.items.collectionId, row.collectionId),
          ),
        )
        .orderBy(asc(schema.items.ordering), asc(schema.items.createdAt))
        .limit(n);
    const siblings = group
      ? others(await group(`collection:${row.websiteId}:${row.collectionId}`, () => load(limit + 1, null)))
      : await load(limit, row.id);
    return { source: 'collection', items: siblings };
  }

  /** The products of a site that have owner-chosen related products. */
  async withChosen(websiteId: string): Promise<Set<string>> {
    const r = await rows<{ item_id: string }>(
      this.db,
      sql`select distinct r.item_id from related_products r join items i on i.id = r.item_id where i.website_id = ${websiteId}`,
    );
    return new Set(r.map((x) => x.item_id));
  }

  /** The owner's chosen products of a product, in order. */
  async chosen(websiteId: string, itemId: string): Promise<Array<{ id: string; title: string }>> {
    await this.product(websiteId, itemId);
    return rows<{ id: string; title: string }>(
      this.db,
      sql`select i.id, i.title from related_products r join items i on i.id = r.related_item_id where r.item_id = ${itemId} order by r.position`,
    );
  }

  private async product(websiteId: string, itemId: string): Promise<void> {
    if (!/^[0-9a-f]{24}$/.test(itemId)) throw notFound('That product does not exist.');
    const r = await this.db
      .select({ id: schema.items.id })
      .from(schema.items)
      .where(and(eq(schema.items.id, itemId), eq(schema.items.websiteId, websiteId), eq(schema.items.recordType, RecordType.STORE_ITEM)));
    if (!r[0]) throw notFound('That product does not exist.');
  }

  /** Replaces a product's chosen related products (an empty list brings back the category fallback). */
  async set(
    websiteId: string,
    itemId: string,
    relatedIds: string[],
    by: string | null = null,
  ): Promise<Array<{ id: string; title: string }>> {
    await this.product(websiteId, itemId);
    const ids = [...new Set(relatedIds)];
    if (ids.includes(itemId)) throw badRequest(text.SELF, { relatedItemIds: text.SELF });
    if (ids.length > 0) {
      const found = await this.db
        .select({ id: schema.items.id })
        .from(schema.items)
        .where(
          and(inArray(schema.items.id, ids), eq(schema.items.websiteId, websiteId), eq(schema.items.recordType, RecordType.STORE_ITEM)),
        );
      if (found.length !== ids.length) throw badRequest(text.UNKNOWN_PRODUCT, { relatedItemIds: text.UNKNOWN_PRODUCT });
    }
    await this.db.transaction(async (tx) => {
      // Lock the product row so two saves of one product's list apply one after the other.
      await tx.execute(sql`select id from items where id = ${itemId} for update`);
      await tx.execute(sql`delete from related_products where item_id = ${itemId}`);
      if (ids.length > 0)
        await tx.insert(schema.relatedProducts).values(ids.map((id, position) => ({ itemId, relatedItemId: id, position })));
      await audit(tx, {
        websiteId,
        accountId: by,
        action: 'product.related',
        entity: 'item',
        entityId: itemId,
        after: { relatedItemIds: ids },
      });
    });
    return this.chosen(websiteId, itemId);
  }
}

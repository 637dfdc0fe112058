/**
 * The members area's data: member areas and their paywall products, memberships, the site and page
 * passwords, video-course progress and the files of locked content. Each write is one statement or one
 * transaction; reads used on every page go through the short-lived LockState cache of access.ts.
 */
import { randomBytes } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database, Db, Tx } from '../../db/index.js';
import { schema } from '../../db/index.js';
import { newId } from '../../db/ids.js';
import { byteaBuffer, rows } from '../db-util.js';
import { hashPassword, verifyPassword } from '../platform/index.js';
import { CollectionType, ProductType, RecordType } from '../../core/enums.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { members as messages } from '../../core/messages.js';
import { collectionAddError } from '../../core/content.js';
import { memberFileKey, type MediaStore } from '../storage/index.js';
import { saleStatusesSql } from '../sales-sql.js';

/** The bucket key of a member file (storage's rule), re-exported for the member routes. */
export { memberFileKey };

export type AreaAccess = 'free' | 'once' | 'subscription';
export type AreaRow = typeof schema.memberAreas.$inferSelect;

export interface AreaInput {
  name: string;
  description: string;
  access: AreaAccess;
  priceCents: number;
  billingUnit: 'WEEK' | 'MONTH' | 'YEAR';
  billingValue: number;
  collectionIds: string[];
}

/** The hidden products collection that holds the areas' paywall products (never shown as a shop). */
const PRODUCTS_URL_ID = 'member-area-products';

/**
 * Whether a site user belongs to an area: an active membership (free joins), or a pending paid join whose
 * checkout produced an order for the area's paywall product that is paid or fulfilled (a refund ends it).
 */
export const MEMBER_SQL = (siteUserId: string) => sql`
  select m.area_id from member_area_members m join member_areas a on a.id = m.area_id
   where m.site_user_id = ${siteUserId}
     and (m.status = 'active' or (m.status = 'pending' and a.product_item_id is not null and exists (
       select 1 from orders o where o.cart_id = m.cart_id and o.status in ${saleStatusesSql()}
          and o.items @> jsonb_build_array(jsonb_build_object('itemId', a.product_item_id)))))`;

export function slugOf(name: string): string {
  const s = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48);
  return s || 'area';
}

export class MembersService {
  constructor(private readonly database: Database) {}

  private get db(): Db {
    return this.database.db;
  }

  // ---- Areas ------------------------------------------------------------------------------------

  async areas(websiteId: string): Promise<AreaRow[]> {
    return this.db
      .select()
      .from(schema.memberAreas)
      .where(eq(schema.memberAreas.websiteId, websiteId))
      .orderBy(asc(schema.memberAreas.createdAt), asc(schema.memberAreas.id));
  }

  async area(websiteId: string, id: string): Promise<AreaRow | null> {
    const r = await this.db
      .select()
      .from(schema.memberAreas)
      .where(and(eq(schema.memberAreas.websiteId, websiteId), eq(schema.memberAreas.id, id)))
      .limit(1);
    return r[0] ?? null;
  }

  private async checkCollections(tx: Tx, websiteId: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    const found = await rows<{ id: string }>(
      tx,
      sql`select id from collections where website_id = ${websiteId} and id in ${sql.raw(`(${ids.map((x) => `'${x.replace(/'/g, "''")}'`).join(', ')})`)}`,
    );
    if (found.length !== new Set(ids).size) throw badRequest(messages.UNKNOWN_COLLECTION, { collectionIds: messages.UNKNOWN_COLLECTION });
  }

  /** Creates an area; a paid one gets its paywall product (productType 5) in the same transaction. */
  async createArea(websiteId: string, input: AreaInput, id?: string): Promise<AreaRow> {
    return this.db.transaction(async (tx) => {
      await this.checkCollections(tx, websiteId, input.collectionIds);
      let areaId = id ?? slugOf(input.name);
      const taken = await rows<{ id: string }>(tx, sql`select id from member_areas where id = ${areaId} or id like ${areaId + '-%'}`);
      if (taken.some((t) => t.id === areaId)) {
        if (id) throw conflict(messages.AREA_EXISTS);
        areaId = `${areaId}-${randomBytes(3).toString('hex')}`;
      }
      await tx.insert(schema.memberAreas).values({ id: areaId, websiteId, ...input });
      const productItemId = input.access === 'free' ? null : await this.saveProduct(tx, websiteId, areaId, null, input);
      if (productItemId) await tx.update(schema.memberAreas).set({ productItemId }).where(eq(schema.memberAreas.id, areaId));
      await this.syncNavigation(tx, websiteId, areaId, input.collectionIds);
      const r = await tx.select().from(schema.memberAreas).where(eq(schema.memberAreas.id, areaId));
      return r[0]!;
    });
  }

  async updateArea(websiteId: string, id: string, input: AreaInput): Promise<AreaRow> {
    return this.db.transaction(async (tx) => {
      const cur = await tx
        .select()
        .from(schema.memberAreas)
        .where(and(eq(schema.memberAreas.websiteId, websiteId), eq(schema.memberAreas.id, id)))
        .for('update');
      if (!cur[0]) throw notFound(messages.AREA_NOT_FOUND);
      await this.checkCollections(tx, websiteId, input.collectionIds);
      const productItemId =
        input.access === 'free' ? cur[0].productItemId : await this.saveProduct(tx, websiteId, id, cur[0].productItemId, input);
      const r = await tx
        .update(schema.memberAreas)
        .set({ ...input, productItemId, updatedAt: new Date() })
        .where(eq(schema.memberAreas.id, id))
        .returning();
      await this.syncNavigation(tx, websiteId, id, input.collectionIds);
      return r[0]!;
    });
  }

  async deleteArea(websiteId: string, id: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const r = await tx
        .delete(schema.memberAreas)
        .where(and(eq(schema.memberAreas.websiteId, websiteId), eq(schema.memberAreas.id, id)))
        .returning();
      if (!r[0]) throw notFound(messages.AREA_NOT_FOUND);
      await this.syncNavigation(tx, websiteId, id, []);
      // The paywall product stops selling; orders keep their own copy of the line.
      if (r[0].productItemId) await tx.update(schema.items).set({ status: 'draft' }).where(eq(schema.items.id, r[0].productItemId));
    });
  }

  /**
   * The member-area navigation (`_memberareas`, themes' `memberAreas`): one link per collection of the area,
   * marked with its memberAreaId; links of the area to collections it no longer holds are removed, and links
   * the owner wrote by hand are kept.
   */
  private async syncNavigation(tx: Tx, websiteId: string, areaId: string, collectionIds: string[]): Promise<void> {
    const site = await rows<{ settings: unknown }>(tx, sql`select settings from websites where id = ${websiteId} for update`);
    const raw = site[0]?.settings;
    const settings = (typeof raw === 'string' ? JSON.parse(raw) : (raw ?? {})) as Record<string, unknown>;
    const nav = (settings.navigation ?? {}) as Record<string, unknown>;
    const links = (Array.isArray(nav._memberareas) ? nav._memberareas : []) as Array<{
      title?: string;
      collectionId?: string;
      memberAreaId?: string;
    }>;
    const kept = links.filter((l) => l.memberAreaId !== areaId || (l.collectionId && collectionIds.includes(l.collectionId)));
    const missing = collectionIds.filter((cid) => !kept.some((l) => l.collectionId === cid));
    if (missing.length === 0 && kept.length === links.length) return;
    const titles = await tx
      .select({ id: schema.collections.id, title: schema.collections.title })
      .from(schema.collections)
      .where(eq(schema.collections.websiteId, websiteId));
    for (const cid of missing) kept.push({ title: titles.find((t) => t.id === cid)?.title ?? '', collectionId: cid, memberAreaId: areaId });
    await tx.execute(
      sql`update websites set settings = jsonb_set(case when jsonb_typeof(settings->'navigation') = 'object' then settings else settings || '{"navigation":{}}'::jsonb end,
            '{navigation,_memberareas}', ${JSON.stringify(kept)}::jsonb, true), version = version + 1 where id = ${websiteId}`,
    );
  }

  /** The area's paywall product: a store item of productType 5 with one unlimited variant at the area's price. */
  private async saveProduct(tx: Tx, websiteId: string, areaId: string, itemId: string | null, input: AreaInput): Promise<string> {
    const structuredContent = {
      productType: ProductType.PAYWALL,
      memberAreaId: areaId,
      isSubscribable: input.access === 'subscription',
      subscriptionPlan:
        input.access === 'subscription'
          ? { billingPeriod: { value: input.billingValue, unit: input.billingUnit }, numBillingCycles: 0 }
          : null,
    };
    const title = `${input.name} membership`;
    if (itemId) {
      const up = await tx
        .update(schema.items)
        .set({ title, structuredContent, status: 'published', updatedAt: new Date() })
        .where(eq(schema.items.id, itemId))
        .returning({ id: schema.items.id });
      if (up[0]) {
        await tx.update(schema.productVariants).set({ priceCents: input.priceCents }).where(eq(schema.productVariants.itemId, itemId));
        return itemId;
      }
    }
    let coll = await tx
      .select({ id: schema.collections.id })
      .from(schema.collections)
      .where(and(eq(schema.collections.websiteId, websiteId), eq(schema.collections.urlId, PRODUCTS_URL_ID)));
    if (!coll[0]) {
      coll = await tx
        .insert(schema.collections)
        .values({
          id: newId(),
          websiteId,
          urlId: PRODUCTS_URL_ID,
          title: 'Memberships',
          type: CollectionType.PRODUCTS,
          typeName: 'products',
          enabled: false,
          ordering: 1000,
        })
        .returning({ id: schema.collections.id });
    }
    // The memberships store is a store like any other: at most 200 products,
    // counted under its row lock.
    await tx.execute(sql`select id from collections where id = ${coll[0]!.id} for update`);
    const held = await rows<{ n: number | string }>(tx, sql`select count(*) as n from items where collection_id = ${coll[0]!.id}`);
    const full = collectionAddError({ type: CollectionType.PRODUCTS }, Number(held[0]?.n ?? 0));
    if (full) throw badRequest(full);
    const id = newId();
    await tx.insert(schema.items).values({
      id,
      websiteId,
      collectionId: coll[0]!.id,
      urlId: `membership-${areaId}`,
      title,
      recordType: RecordType.STORE_ITEM,
      structuredContent,
    });
    await tx.insert(schema.productVariants).values({
      id: newId(),
      itemId: id,
      sku: `MEMBER-${areaId}`.slice(0, 64).toUpperCase(),
      priceCents: input.priceCents,
      unlimited: true,
    });
    return id;
  }

  // ---- Memberships ------------------------------------------------------------------------------

  /** The areas a site user belongs to now. */
  async memberOf(siteUserId: string): Promise<Set<string>> {
    const r = await rows<{ area_id: string }>(this.db, MEMBER_SQL(siteUserId));
    return new Set(r.map((x) => x.area_id));
  }

  async addMember(areaId: string, siteUserId: string, now = new Date()): Promise<void> {
    await this.db
      .insert(schema.memberAreaMembers)
      .values({ areaId, siteUserId, status: 'active', joinedAt: now })
      .onConflictDoUpdate({
        target: [schema.memberAreaMembers.areaId, schema.memberAreaMembers.siteUserId],
        set: { status: 'active', joinedAt: now, cartId: null },
      });
  }

  /** A free join waiting for its new account's address to be confirmed (index.ts activates it then). */
  async addAwaiting(tx: Tx, areaId: string, siteUserId: string): Promise<void> {
    await tx.insert(schema.memberAreaMembers).values({ areaId, siteUserId, status: 'awaiting' }).onConflictDoNothing();
  }

  /** A paid join waiting for its checkout; an active membership is left as it is. */
  async addPending(areaId: string, siteUserId: string, cartId: string): Promise<void> {
    await this.db
      .insert(schema.memberAreaMembers)
      .values({ areaId, siteUserId, status: 'pending', cartId })
      .onConflictDoUpdate({
        target: [schema.memberAreaMembers.areaId, schema.memberAreaMembers.siteUserId],
        set: { status: sql`case when ${schema.memberAreaMembers.status} = 'active' then 'active' else 'pending' end`, cartId },
      });
  }

  /** Members of an area (or of all areas) as the owner lists them, with the derived state. */
  async members(
    websiteId: string,
    areaId?: string,
  ): Promise<
    Array<{
      areaId: string;
      siteUserId: string;
      email: string;
      displayName: string;
      status: string;
      joinedAt: string | null;
      orderId: string | null;
    }>
  > {
    const r = await rows<Record<string, unknown>>(
      this.db,
      sql`select m.area_id, m.site_user_id, u.email, coalesce(p.display_name, '') as display_name, m.status, m.joined_at,
            (select o.id from orders o where o.cart_id = m.cart_id and o.status in ${saleStatusesSql()}
               and o.items @> jsonb_build_array(jsonb_build_object('itemId', a.product_item_id)) limit 1) as order_id,
            (select o.created from orders o where o.cart_id = m.cart_id and o.status in ${saleStatusesSql()} limit 1) as paid_at
          from member_area_members m join member_areas a on a.id = m.area_id
          join site_users u on u.id = m.site_user_id left join site_user_profiles p on p.site_user_id = u.id
         where a.website_id = ${websiteId} ${areaId ? sql`and a.id = ${areaId}` : sql``}
         order by coalesce(m.joined_at, m.created_at) desc`,
    );
    return r.map((x) => {
      const paid = x.order_id != null;
      const status =
        x.status === 'active' ? 'active' : x.status === 'awaiting' ? 'awaiting confirmation' : paid ? 'active' : 'pending payment';
      const joined = x.joined_at ?? x.paid_at ?? null;
      return {
        areaId: String(x.area_id),
        siteUserId: String(x.site_user_id),
        email: String(x.email),
        displayName: String(x.display_name),
        status,
        joinedAt: joined ? new Date(joined as string).toISOString() : null,
        orderId: x.order_id ? String(x.order_id) : null,
      };
    });
  }

  /** The area a paid order bought, if its lines hold an area's paywall product. */
  async areaOfOrderItems(websiteId: string, itemIds: string[]): Promise<AreaRow | null> {
    if (itemIds.length === 0) return null;
    const areas = await this.areas(websiteId);
    return areas.find((a) => a.productItemId && itemIds.includes(a.productItemId)) ?? null;
  }

  // ---- Passwords ----------------------------------------------------------------------------------

  async passwords(websiteId: string): Promise<Array<{ target: string; nonce: string }>> {
    return this.db
      .select({ target: schema.contentPasswords.target, nonce: schema.contentPasswords.nonce })
      .from(schema.contentPasswords)
      .where(eq(schema.contentPasswords.websiteId, websiteId));
  }

  /** Sets (or with null removes) the password of the site ('site') or of one collection. */
  async setPassword(websiteId: string, target: string, password: string | null): Promise<void> {
    if (password === null) {
      await this.db
        .delete(schema.contentPasswords)
        .where(and(eq(schema.contentPasswords.websiteId, websiteId), eq(schema.contentPasswords.target, target)));
      return;
    }
    const passwordHash = await hashPassword(password);
    const nonce = randomBytes(9).toString('base64url');
    await this.db
      .insert(schema.contentPasswords)
      .values({ websiteId, target, passwordHash, nonce })
      .onConflictDoUpdate({
        target: [schema.contentPasswords.websiteId, schema.contentPasswords.target],
        set: { passwordHash, nonce, updatedAt: new Date() },
      });
  }

  /** The nonce of the target's password when `password` is right, else null (same time either way). */
  async checkPassword(websiteId: string, target: string, password: string): Promise<string | null> {
    const r = await this.db
      .select()
      .from(schema.contentPasswords)
      .where(and(eq(schema.contentPasswords.websiteId, websiteId), eq(schema.contentPasswords.target, target)))
      .limit(1);
    const ok = await verifyPassword(password, r[0]?.passwordHash);
    return ok && r[0] ? r[0].nonce : null;
  }

  // ---- Video progress -----------------------------------------------------------------------------

  async progress(siteUserId: string, collectionId: string): Promise<Map<string, { completed: boolean; positionSeconds: number }>> {
    const r = await this.db
      .select()
      .from(schema.videoProgress)
      .where(and(eq(schema.videoProgress.siteUserId, siteUserId), eq(schema.videoProgress.collectionId, collectionId)));
    return new Map(r.map((x) => [x.itemId, { completed: x.completed, positionSeconds: x.positionSeconds }]));
  }

  /** Records a lesson as started (a visit), or its position, or completed; completion is never undone by a visit. */
  async saveProgress(
    siteUserId: string,
    itemId: string,
    collectionId: string,
    p: { positionSeconds?: number; completed?: boolean },
  ): Promise<void> {
    const t = schema.videoProgress;
    await this.db
      .insert(t)
      .values({ siteUserId, itemId, collectionId, positionSeconds: p.positionSeconds ?? 0, completed: p.completed ?? false })
      .onConflictDoUpdate({
        target: [t.siteUserId, t.itemId],
        set: {
          positionSeconds: p.positionSeconds === undefined ? sql`${t.positionSeconds}` : p.positionSeconds,
          completed: p.completed === undefined ? sql`${t.completed}` : p.completed,
          updatedAt: new Date(),
        },
      });
  }

  // ---- Files --------------------------------------------------------------------------------------

  /**
   * Stores a member file: in the database (the default), or with an S3 media store in the bucket as
   * `private/member-files/<id>`, the row then keeping its name, type and size and no bytes.
   */
  async saveFile(websiteId: string, name: string, contentType: string, bytes: Buffer, store?: MediaStore | null): Promise<string> {
    const id = newId();
    if (store && store.kind !== 'local') {
      await store.put(memberFileKey(id), bytes, contentType);
      await this.db.insert(schema.memberFiles).values({ id, websiteId, name, contentType, size: bytes.length, bytes: Buffer.alloc(0) });
      return id;
    }
    await this.db.insert(schema.memberFiles).values({ id, websiteId, name, contentType, size: bytes.length, bytes });
    return id;
  }

  /** A member file: its bytes when the database holds them, or `inStore` when they are in the bucket (a non-empty size and no bytes). */
  async file(id: string): Promise<{ name: string; contentType: string; bytes: Buffer; size: number; inStore: boolean } | null> {
    if (!/^[0-9a-f]{24}$/.test(id)) return null;
    const r = await rows<{ name: string; content_type: string; bytes: unknown; size: number }>(
      this.db,
      sql`select name, content_type, bytes, size from member_files where id = ${id}`,
    );
    const f = r[0];
    if (!f) return null;
    const b = f.bytes;
    const bytes = byteaBuffer(b) ?? Buffer.alloc(0);
    const size = Number(f.size);
    return { name: f.name, contentType: f.content_type, bytes, size, inStore: size > 0 && bytes.length === 0 };
  }

  async files(websiteId: string): Promise<Array<{ id: string; name: string; contentType: string; size: number; url: string }>> {
    const r = await this.db
      .select({
        id: schema.memberFiles.id,
        name: schema.memberFiles.name,
        contentType: schema.memberFiles.contentType,
        size: schema.memberFiles.size,
      })
      .from(schema.memberFiles)
      .where(eq(schema.memberFiles.websiteId, websiteId))
      .orderBy(asc(schema.memberFiles.createdAt));
    return r.map((f) => ({ ...f, url: `/members/files/${f.id}` }));
  }

  /** Collections whose published content refers to a file path (item images, lesson videos, page bodies). */
  async collectionsUsing(websiteId: string, path: string): Promise<string[]> {
    const like = `%${path.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const r = await rows<{ id: string }>(
      this.db,
      sql`select distinct i.collection_id as id from items i
           where i.website_id = ${websiteId} and i.status = 'published'
             and (i.assets::text like ${like} or i.structured_content::text like ${like} or i.body like ${like})
          union
          select c.id from collections c where c.website_id = ${websiteId} and c.settings::text like ${like}`,
    );
    return r.map((x) => x.id);
  }
}

/** The demo site's member area: the seeded Members page, free to join (seed.ts calls this once). */
export async function seedMembers(tx: Tx, websiteId: string): Promise<void> {
  const page = await tx
    .select({ id: schema.collections.id })
    .from(schema.collections)
    .where(and(eq(schema.collections.websiteId, websiteId), eq(schema.collections.urlId, 'members')));
  await tx.insert(schema.memberAreas).values({
    id: 'fernhill-members',
    websiteId,
    name: 'Fernhill Members',
    description: 'Early access to new makers, member prices and the workshop calendar. Free to join.',
    access: 'free',
    collectionIds: page[0] ? [page[0].id] : [],
  });
}

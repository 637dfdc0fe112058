/**
 * Each site's storage quota (issue 38): the files it stores may not pass UPLOAD_QUOTA_MB (MiB; 0 means no
 * quota). What counts is what the rows say was stored, wherever the bytes live (DATA_DIR or the S3 bucket):
 * the editor's uploads (images and files, also those a product import fetched), the members area's files, and
 * the products' digital files. An upload that would pass the quota is refused with 413 before anything is
 * written. Two uploads checked at the same moment can each pass the check: the quota can be passed by the
 * uploads in flight at once, never by more.
 */
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/index.js';
import { platform as pm } from '../../core/messages.js';
import { formatFileSize } from '../../core/time.js';
import { rows } from '../db-util.js';
import { HttpError } from '../errors.js';

/** Bytes in a MiB, the unit of UPLOAD_QUOTA_MB. */
export const QUOTA_UNIT_BYTES = 1024 * 1024;

/** The quota in bytes, or 0 for none. */
export function quotaBytes(config: { UPLOAD_QUOTA_MB: number }): number {
  return config.UPLOAD_QUOTA_MB * QUOTA_UNIT_BYTES;
}

/** Bytes of files the site stores now (the sizes recorded when they were stored). */
export async function storageUsed(db: Db | Tx, websiteId: string): Promise<number> {
  const [r] = await rows<{ used: string | number | null }>(
    db,
    sql`select (select coalesce(sum(bytes), 0) from uploads where website_id = ${websiteId})
        + (select coalesce(sum(size), 0) from member_files where website_id = ${websiteId})
        + (select coalesce(sum((structured_content -> 'digitalFile' ->> 'size')::numeric), 0) from items
            where website_id = ${websiteId} and jsonb_typeof(structured_content -> 'digitalFile' -> 'size') = 'number') as used`,
  );
  return Number(r?.used ?? 0);
}

/** '10 GB', '9.8 GB', '512 KB': sizes as the owner reads them. */
export const storageText = (bytes: number) => formatFileSize(bytes, 1);

/** Throws 413 when storing `incoming` more bytes would take the site past `quota` (0: no quota). */
export async function checkQuota(db: Db | Tx, websiteId: string, incoming: number, quota: number): Promise<void> {
  if (quota <= 0) return;
  const used = await storageUsed(db, websiteId);
  if (used + incoming > quota)
    throw new HttpError(413, pm.storageQuotaFull(storageText(quota), storageText(used)), undefined, { quotaBytes: quota, usedBytes: used });
}

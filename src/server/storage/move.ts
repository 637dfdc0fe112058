/**
 * Moves media kept on this machine into the bucket (`npm run media:to-bucket`): every upload's original
 * under DATA_DIR/uploads becomes `uploads/<stored name>`, and every member file held in the database
 * becomes `private/member-files/<id>` (its row then keeps no bytes). URLs do not change: `/uploads/…`
 * and `/members/files/…` are answered from the bucket once the servers run with S3_BUCKET set. The
 * move can be run again: objects already in the bucket at the same size are skipped, and local files
 * are left in place (delete DATA_DIR/uploads yourself once the servers use the bucket).
 * Generated widths are not moved: the servers make them again, once, into the bucket.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/index.js';
import { byteaBuffer, rows } from '../db-util.js';
import { memberFileKey, uploadKey, uploadsDir } from './keys.js';
import type { MediaStore } from './media-store.js';

export interface MoveReport {
  uploads: number;
  skipped: number;
  missing: number;
  memberFiles: number;
}

export async function moveMediaToBucket(
  database: Database,
  dataDir: string,
  store: MediaStore,
  log: (line: string) => void = () => {},
): Promise<MoveReport> {
  if (store.kind === 'local') throw new Error('S3_BUCKET is not set: there is no bucket to move media into.');
  const report: MoveReport = { uploads: 0, skipped: 0, missing: 0, memberFiles: 0 };
  const dir = uploadsDir(dataDir);
  const ups = await rows<{ stored_name: string; content_type: string }>(
    database.db,
    sql`select stored_name, content_type from uploads order by created_at`,
  );
  for (const u of ups) {
    const file = join(dir, u.stored_name);
    if (!existsSync(file)) {
      // Written to the bucket by a server already running with S3_BUCKET, or lost.
      if ((await store.size(uploadKey(u.stored_name))) !== null) {
        report.skipped++;
        continue;
      }
      report.missing++;
      log(`missing on disk: uploads/${u.stored_name}`);
      continue;
    }
    const size = statSync(file).size;
    if ((await store.size(uploadKey(u.stored_name))) === size) {
      report.skipped++;
      continue;
    }
    await store.put(uploadKey(u.stored_name), createReadStream(file), u.content_type);
    report.uploads++;
  }
  // Member files, one at a time (each is at most 20 MB): the bytes are cleared only after the bucket has them.
  const ids = await rows<{ id: string }>(database.db, sql`select id from member_files where octet_length(bytes) > 0 order by created_at`);
  for (const { id } of ids) {
    const [f] = await rows<{ content_type: string; bytes: unknown }>(
      database.db,
      sql`select content_type, bytes from member_files where id = ${id}`,
    );
    if (!f) continue;
    const b = f.bytes;
    const bytes = byteaBuffer(b);
    if (!bytes || bytes.length === 0) continue;
    await store.put(memberFileKey(id), bytes, f.content_type);
    await database.db.execute(sql`update member_files set bytes = ${Buffer.alloc(0)} where id = ${id} and size = ${bytes.length}`);
    report.memberFiles++;
  }
  log(
    `moved ${report.uploads} uploads (${report.skipped} already in the bucket, ${report.missing} missing on disk) and ${report.memberFiles} member files`,
  );
  return report;
}

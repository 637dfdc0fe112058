/**
 * Issue 38 item 7e: each site's storage quota (UPLOAD_QUOTA_MB, here 1 MiB), counted from what its rows say
 * was stored (editor uploads, member files, products' digital files), on both databases, with files on local
 * disk and in an S3 bucket (a real local S3 server). An upload that would pass it is refused with 413 and its
 * message, and stores nothing; the owner's dashboard shows the figure; deleting a file makes room again.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { startS3, type S3StandIn } from '../../helpers/s3-server.js';
import { tempDir } from '../../helpers/process.js';
import { rows } from '../../../src/server/db-util.js';
import { platform as pm } from '../../../src/core/messages.js';
import { S3MediaStore, s3OptionsOf } from '../../../src/server/storage/media-store.js';
import { loadConfig } from '../../../src/server/config.js';

const MIB = 1024 * 1024;
const text = (bytes: number) => 'q'.repeat(bytes);

describe.each([
  ['pglite', 'local disk'],
  ['postgres', 'local disk'],
  ['pglite', 'an S3 bucket'],
  ['postgres', 'an S3 bucket'],
] as const)('the storage quota on %s with files on %s', (kind, where) => {
  let t: TestApp;
  let owner: Visitor;
  let s3: S3StandIn | null = null;
  const dataDir = tempDir('tessera-quota-');

  beforeAll(async () => {
    if (where === 'an S3 bucket') s3 = await startS3(`quota-${kind}`);
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory', UPLOAD_QUOTA_MB: '1', DATA_DIR: dataDir, ...(s3?.env ?? {}) });
    owner = new Visitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await s3?.close().catch(() => undefined);
  });

  const upload = (name: string, bytes: number) =>
    owner.send('POST', `/api/editor/uploads?name=${encodeURIComponent(name)}`, text(bytes), {
      headers: { 'content-type': 'application/octet-stream' },
    });
  const uploadCount = async () => Number((await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from uploads`))[0]!.n);
  /** What the store holds of the uploads: files under DATA_DIR/uploads, or objects under uploads/ in the bucket. */
  const storedObjects = async () => {
    if (!s3) return readdirSync(join(dataDir, 'uploads')).filter((f) => !f.endsWith('.tmp')).length;
    const store = new S3MediaStore(s3OptionsOf(loadConfig(s3.env))!);
    try {
      return (await store.list('uploads/')).length;
    } finally {
      await store.close();
    }
  };

  it('refuses an upload that would pass the quota with 413 and a clear message, and stores nothing', async () => {
    const first = await upload('notes.txt', 400_000);
    expect(first.statusCode, first.body).toBe(201);
    const member = await owner.send('POST', '/api/members/files', text(400_000), {
      headers: { 'content-type': 'application/pdf', 'x-file-name': 'worksheet.pdf' },
    });
    expect(member.statusCode, member.body).toBe(201);

    const before = { rows: await uploadCount(), objects: await storedObjects() };
    const over = await upload('more.txt', 300_000);
    expect(over.statusCode).toBe(413);
    expect(over.json().message).toBe(pm.storageQuotaFull('1 MB', '781.3 KB'));
    expect(over.json().message).toBe(
      'This upload would pass the site’s storage quota of 1 MB (781.3 KB used). Delete files the site no longer needs to make room, or ask whoever runs the server for a larger quota.',
    );
    expect({ rows: await uploadCount(), objects: await storedObjects() }).toEqual(before);

    const ebook = t.seed.productIds['houseplant-field-guide']!;
    const digital = await owner.send('POST', `/api/config/catalog/products/${ebook}/digital-file?name=guide.txt`, text(300_000), {
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(digital.statusCode).toBe(413);
    expect(digital.json().message).toBe(pm.storageQuotaFull('1 MB', '781.3 KB'));
    const memberOver = await owner.send('POST', '/api/members/files', text(300_000), {
      headers: { 'content-type': 'application/pdf', 'x-file-name': 'too-much.pdf' },
    });
    expect(memberOver.statusCode).toBe(413);

    // Up to the quota exactly is taken.
    const fits = await upload('fits.txt', MIB - 800_000);
    expect(fits.statusCode, fits.body).toBe(201);
    expect((await upload('one-more-byte.txt', 1)).statusCode).toBe(413);

    // The owner's dashboard shows the figure.
    const home = await owner.get('/api/admin/dashboard');
    expect(home.statusCode, home.body).toBe(200);
    expect(home.json().storage).toEqual({ usedBytes: MIB, quotaBytes: MIB });

    // Deleting a file makes room again.
    expect((await owner.send('DELETE', `/api/editor/uploads/${first.json().upload.id}`)).statusCode).toBe(204);
    const again = await upload('more.txt', 300_000);
    expect(again.statusCode, again.body).toBe(201);
    expect((await owner.get('/api/admin/dashboard')).json().storage.usedBytes).toBe(MIB - 100_000);
  });
});

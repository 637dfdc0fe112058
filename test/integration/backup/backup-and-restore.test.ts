import { describe, it, expect, afterEach } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, createWriteStream } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { rows } from '../../../src/server/db-util.js';
import { restoreBackupFile, writeBackupFile, mediaDir, BackupError } from '../../../src/server/backup/archive.js';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { DB_KINDS, testDatabase } from '../../helpers/db.js';
import { OwnerService } from '../../../src/server/platform/owners.js';
import { Role } from '../../../src/core/enums.js';
import { Readable } from 'node:stream';
import { restoreBackup, MANIFEST } from '../../../src/server/backup/archive.js';
import { TarWriter } from '../../../src/server/backup/tar.js';
import { createGzip, gunzipSync } from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import { confirmed } from '../../helpers/orders.js';

const ADD = '/api/commerce/shopping-cart/entries';
const PLACE = '/api/checkout/place-order';
const CARD = { type: 'card', number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123', name: 'Ada Buyer' };
const ADDRESS = { name: 'Ada Buyer', line1: '1 Main St', city: 'Portland', region: 'OR', postalCode: '97201', country: 'US' };
let seq = 0;
const key = () => `bk-${Date.now()}-${++seq}-${Math.random().toString(36).slice(2, 8)}`;

/** Every table's rows, in a stable order, as text (what the comparison uses). */
async function dump(db: TestApp['database']['db']): Promise<Record<string, string[]>> {
  const tables = await rows<{ t: string }>(db, sql`SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`);
  const out: Record<string, string[]> = {};
  for (const { t } of tables) {
    const r = await rows<{ j: string }>(db, sql.raw(`SELECT row_to_json(x)::text AS j FROM "${t}" x`));
    out[t] = r.map((x) => x.j).sort();
  }
  return out;
}

for (const kind of DB_KINDS) {
  describe(`backup and restore (${kind})`, () => {
    const cleanup: Array<() => Promise<void> | void> = [];
    afterEach(async () => {
      for (const c of cleanup.splice(0).reverse()) await c();
    });
    const tempDir = () => {
      const d = mkdtempSync(join(tmpdir(), 'tessera-bk-'));
      cleanup.push(() => rmSync(d, { recursive: true, force: true }));
      return d;
    };

    it('a backup taken during cart writes and orders restores every acknowledged order, every table and every media file', async () => {
      const dataDir = tempDir();
      const t = await testApp(kind, { DATA_DIR: dataDir, RATE_LIMIT_STORE: 'memory' });
      cleanup.push(() => t.close());
      const owner = new Visitor(t.app);
      expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
      expect(
        (await owner.send('POST', '/api/checkout/admin/shipping-options', { name: 'Standard', kind: 'flat', priceCents: 500 })).statusCode,
      ).toBe(200);
      // Media: originals as the uploads folder holds them, one of them binary and larger than a tar block.
      const media = mediaDir(dataDir);
      mkdirSync(join(media, 'sub'), { recursive: true });
      const files: Record<string, Buffer> = {
        'a1b2c3d4e5f6a1b2c3d4e5f6.jpg': randomBytes(70_000),
        'sub/manual.pdf': Buffer.from('%PDF-1.4 tiny'),
        'empty.txt': Buffer.alloc(0),
      };
      for (const [p, b] of Object.entries(files)) writeFileSync(join(media, p), b);

      const product = t.seed.productIds['ceramic-pour-over-set']!;
      const acknowledged: Array<{ id: string; at: number }> = [];
      // An order is acknowledged when its answer (200 with the order id) has arrived.
      const order = async (n: number): Promise<boolean> => {
        const v = new Visitor(t.app);
        if ((await v.send('POST', ADD, { itemId: product, sku: 'POUR-OVER', quantity: 1 })).statusCode !== 200) return false;
        const r = await v.send(
          'POST',
          PLACE,
          await confirmed(v, { email: `buyer${n}@example.com`, shippingAddress: ADDRESS, payment: CARD, idempotencyKey: key() }),
        );
        if (r.statusCode !== 200) return false;
        acknowledged.push({ id: r.json().purchaseConfirmation.id as string, at: Date.now() });
        return true;
      };
      for (let i = 0; i < 3; i++) expect(await order(i)).toBe(true);

      // A stream of orders and cart writes runs while the backup is taken.
      let stop = false;
      let n = 100;
      const stream = (async () => {
        // Bounded, so the demo product's stock outlasts it.
        while (!stop && n < 130) {
          await order(n++);
          const v = new Visitor(t.app);
          await v.send('POST', ADD, { itemId: product, sku: 'POUR-OVER', quantity: 2 });
        }
      })();
      // The backup starts once the stream's first order and cart write are through and its second is on its way.
      await expect.poll(() => n, { timeout: 60_000, interval: 10 }).toBeGreaterThan(101);
      const archive = join(tempDir(), 'backup.tar.gz');
      const began = Date.now();
      const ackedBefore = acknowledged.filter((a) => a.at <= began).map((a) => a.id);
      const manifest = await writeBackupFile(t.database, dataDir, archive);
      stop = true;
      await stream;
      expect(ackedBefore.length).toBeGreaterThanOrEqual(3);
      // Orders kept arriving while (and after) the backup ran.
      expect(acknowledged.some((a) => a.at > began)).toBe(true);
      expect(manifest.media.map((m) => m.path).sort()).toEqual(Object.keys(files).sort());

      // The source as the snapshot saw it cannot be read back later, so compare the restored copy with
      // the archive's own row counts, every acknowledged order, and then with a second, quiet backup.
      const target = await testDatabase(kind);
      cleanup.push(() => target.close());
      const targetDir = tempDir();
      const restored = await restoreBackupFile(archive, target, targetDir);
      expect(restored.tables).toEqual(manifest.tables);
      const orderIds = new Set((await rows<{ id: string }>(target.db, sql`SELECT id FROM orders`)).map((r) => r.id));
      for (const id of ackedBefore) expect(orderIds.has(id), `order ${id} acknowledged before the backup`).toBe(true);
      for (const [p, b] of Object.entries(files)) expect(readFileSync(join(mediaDir(targetDir), p)).equals(b), p).toBe(true);
      for (const [table, count] of Object.entries(manifest.tables)) {
        const c = await rows<{ n: string | number }>(target.db, sql.raw(`SELECT count(*) AS n FROM "${table}"`));
        expect(Number(c[0]!.n), table).toBe(count);
      }

      // Quiet now: a second backup of the source restores to a database equal to it in every table.
      const archive2 = join(tempDir(), 'quiet.tar.gz');
      await writeBackupFile(t.database, dataDir, archive2);
      const target2 = await testDatabase(kind);
      cleanup.push(() => target2.close());
      const targetDir2 = tempDir();
      await restoreBackupFile(archive2, target2, targetDir2);
      const [a, b] = [await dump(t.database.db), await dump(target2.db)];
      expect(Object.keys(b)).toEqual(Object.keys(a));
      for (const table of Object.keys(a)) expect(b[table], table).toEqual(a[table]);
      for (const [p, buf] of Object.entries(files)) expect(readFileSync(join(mediaDir(targetDir2), p)).equals(buf), p).toBe(true);
      // Sequences continue after the restored ids: a new order on the restored copy gets a fresh number.
      const jobs = await rows<{ id: number }>(target2.db, sql`INSERT INTO jobs (kind) VALUES ('after-restore') RETURNING id`);
      const maxBefore = await rows<{ m: number | null }>(t.database.db, sql`SELECT max(id) AS m FROM jobs`);
      expect(Number(jobs[0]!.id)).toBeGreaterThan(Number(maxBefore[0]!.m ?? 0));
    });

    it('an administrator downloads a backup from /config Settings; other roles and visitors cannot', async () => {
      const dataDir = tempDir();
      const t = await testApp(kind, { DATA_DIR: dataDir, RATE_LIMIT_STORE: 'memory' });
      cleanup.push(() => t.close());
      mkdirSync(mediaDir(dataDir), { recursive: true });
      writeFileSync(join(mediaDir(dataDir), 'ffeeddccbbaa998877665544.png'), randomBytes(1234));
      expect((await t.app.inject({ method: 'GET', url: '/api/admin/backup' })).statusCode).toBe(401);
      const owners = new OwnerService(t.database);
      const editor = await owners.create({
        websiteId: t.seed.websiteId,
        email: 'editor@example.com',
        password: 'a long enough password',
        role: Role.EDITOR,
      });
      const editorToken = (await owners.startSession(editor.id)).token;
      const refused = await t.app.inject({ method: 'GET', url: '/api/admin/backup', headers: { cookie: `tessera_owner=${editorToken}` } });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toBe('Only an administrator can download a backup.');

      const owner = new Visitor(t.app);
      expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
      const res = await owner.get('/api/admin/backup');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/gzip');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="tessera-backup-[0-9TZ-]+\.tar\.gz"$/);
      // The download restores.
      const target = await testDatabase(kind);
      cleanup.push(() => target.close());
      const targetDir = tempDir();
      const m = await restoreBackup(Readable.from([res.rawPayload]), target, targetDir);
      expect(m.media.map((x) => x.path)).toEqual(['ffeeddccbbaa998877665544.png']);
      const sites = await rows<{ title: string }>(target.db, sql`SELECT title FROM websites`);
      expect(sites.map((x) => x.title)).toEqual(
        (await rows<{ title: string }>(t.database.db, sql`SELECT title FROM websites`)).map((x) => x.title),
      );
      // A few an hour.
      const codes: number[] = [];
      for (let i = 0; i < 6; i++) codes.push((await owner.get('/api/admin/backup')).statusCode);
      expect(codes.slice(0, 5).every((c) => c === 200)).toBe(true);
      expect(codes[5]).toBe(429);
    });

    it('backs up no media file that links out of the media folder, and restores no table whose name is a path (issue 38)', async () => {
      const dataDir = tempDir();
      const t = await testApp(kind, { DATA_DIR: dataDir });
      cleanup.push(() => t.close());
      const outside = tempDir();
      writeFileSync(join(outside, 'secret.txt'), 'SECRET-OUTSIDE-THE-MEDIA');
      const media = mediaDir(dataDir);
      mkdirSync(media, { recursive: true });
      writeFileSync(join(media, 'own.txt'), 'OWN');
      symlinkSync(join(outside, 'secret.txt'), join(media, 'leak.txt'));
      symlinkSync('/proc/self/environ', join(media, 'env.txt'));
      symlinkSync(outside, join(media, 'leak-dir'));
      const archive = join(tempDir(), 'b.tar.gz');
      const manifest = await writeBackupFile(t.database, dataDir, archive);
      const paths = manifest.media.map((m) => m.path);
      expect(paths).toContain('own.txt');
      expect(paths.filter((p) => p.startsWith('leak') || p === 'env.txt')).toEqual([]);
      expect(gunzipSync(readFileSync(archive)).toString('latin1')).not.toContain('SECRET-OUTSIDE-THE-MEDIA');

      // An archive whose table name is a path: refused before anything is written outside the work folder.
      const target = await testDatabase(kind);
      cleanup.push(() => target.close());
      const at = await rows<{ at: string | number | null }>(target.db, sql`SELECT max(created_at) AS at FROM drizzle.__drizzle_migrations`);
      const escape = `tessera-escape-${randomBytes(4).toString('hex')}`;
      const evil = join(tempDir(), 'evil.tar.gz');
      const gzip = createGzip();
      const written = pipeline(gzip, createWriteStream(evil));
      const tar = new TarWriter(gzip);
      const name = `../${escape}`;
      await tar.addBuffer(
        MANIFEST,
        Buffer.from(
          JSON.stringify({
            format: 'tessera-backup',
            version: 1,
            createdAt: new Date().toISOString(),
            database: kind,
            migration: Number(at[0]!.at),
            tables: { [name]: 1 },
            media: [],
          }),
        ),
      );
      await tar.addBuffer(`db/${name}.jsonl`, Buffer.from('{"x":1}\n'));
      await tar.finish();
      await written;
      // The manifest already names no such table (a table name, never a path): the archive is refused whole.
      await expect(restoreBackupFile(evil, target, tempDir())).rejects.toThrow('This is not a Tessera backup archive');
      expect(existsSync(join(tmpdir(), `${escape}.jsonl`))).toBe(false);
    });

    it('refuses a target that is not empty and a damaged archive', async () => {
      const dataDir = tempDir();
      const t = await testApp(kind, { DATA_DIR: dataDir });
      cleanup.push(() => t.close());
      const archive = join(tempDir(), 'b.tar.gz');
      await writeBackupFile(t.database, dataDir, archive);
      // The source itself holds a website.
      await expect(restoreBackupFile(archive, t.database, tempDir())).rejects.toThrow(
        'The target database is not empty: restore into an empty DATA_DIR or database.',
      );
      // A truncated archive changes nothing.
      const bytes = readFileSync(archive);
      const cut = join(tempDir(), 'cut.tar.gz');
      writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
      const target = await testDatabase(kind);
      cleanup.push(() => target.close());
      await expect(restoreBackupFile(cut, target, tempDir())).rejects.toThrow();
      const sites = await rows<{ n: string | number }>(target.db, sql`SELECT count(*) AS n FROM websites`);
      expect(Number(sites[0]!.n)).toBe(0);
      // Not an archive at all.
      const junk = join(tempDir(), 'junk.tar.gz');
      const out = createWriteStream(junk);
      await new Promise<void>((r) => out.end('not a backup', () => r()));
      await expect(restoreBackupFile(junk, target, tempDir())).rejects.toThrow();
      await expect(restoreBackupFile(join(tempDir(), 'missing.tar.gz'), target, tempDir())).rejects.toBeInstanceOf(BackupError);
    });
  });
}

/**
 * Issue 38, item 8: restoring an untrusted backup archive, on both databases. From a real backup, hostile
 * archives are made (entries that climb out with ../ or an absolute name, links and devices, decompression
 * bombs, rows that are SQL, a half-bad archive) and each is refused in words; nothing is written outside the
 * data folder, the database stays empty and the media folder untouched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { rows } from '../../../src/server/db-util.js';
import {
  BackupError,
  MANIFEST,
  RESTORE_LIMITS,
  mediaDir,
  restoreBackup,
  writeBackupFile,
  type BackupManifest,
} from '../../../src/server/backup/archive.js';
import { entriesOf, tarOf, tree, type RawEntry } from '../../helpers/tar.js';
import { testApp, type TestApp } from '../../helpers/app.js';
import { DB_KINDS, testDatabase } from '../../helpers/db.js';
import { createHash } from 'node:crypto';

for (const kind of DB_KINDS) {
  describe(`restoring an untrusted archive (${kind})`, () => {
    let source: TestApp;
    let entries: RawEntry[];
    let manifest: BackupManifest;
    let sandbox: string;
    let target: Awaited<ReturnType<typeof testDatabase>>;
    beforeAll(async () => {
      sandbox = mkdtempSync(join(tmpdir(), 'tessera-rs-'));
      const srcDir = join(sandbox, 'source');
      source = await testApp(kind, { DATA_DIR: srcDir, RATE_LIMIT_STORE: 'memory' });
      mkdirSync(mediaDir(srcDir), { recursive: true });
      writeFileSync(join(mediaDir(srcDir), 'photo.jpg'), Buffer.alloc(3000, 7));
      const file = join(sandbox, 'good.tar.gz');
      await writeBackupFile(source.database, srcDir, file);
      entries = await entriesOf(readFileSync(file));
      manifest = JSON.parse(entries.find((e) => e.name === MANIFEST)!.data!.toString()) as BackupManifest;
      target = await testDatabase(kind);
    }, 120_000);
    afterAll(async () => {
      await source?.close();
      await target?.close();
      rmSync(sandbox, { recursive: true, force: true });
    });

    /** Restores `archive` into the (empty) target and a fresh data folder; answers the refusal and what was left. */
    const attempt = async (archive: Buffer, limits = RESTORE_LIMITS) => {
      const dataDir = mkdtempSync(join(sandbox, 'data-'));
      const before = tree(sandbox).filter((p) => !p.startsWith(dataDir.slice(sandbox.length + 1)));
      let error: unknown = null;
      try {
        await restoreBackup(Readable.from([archive]), target, dataDir, limits);
      } catch (e) {
        error = e;
      }
      const after = tree(sandbox).filter((p) => !p.startsWith(dataDir.slice(sandbox.length + 1)));
      expect(after, 'nothing is written outside the data folder').toEqual(before);
      expect(tree(dataDir), 'a refused restore leaves the data folder empty').toEqual([]);
      const [n] = await rows<{ n: string }>(target.db, sql`SELECT (SELECT count(*) FROM websites) + (SELECT count(*) FROM accounts) AS n`);
      expect(Number(n!.n), 'a refused restore leaves the database empty').toBe(0);
      expect(error).toBeInstanceOf(BackupError);
      return (error as Error).message;
    };
    const withManifest = (m: unknown, rest: RawEntry[]) => [{ name: MANIFEST, data: Buffer.from(JSON.stringify(m)) }, ...rest];
    const others = () => entries.filter((e) => e.name !== MANIFEST);
    const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

    it('refuses entry names that climb out of the folders, absolute names and unexpected names', async () => {
      const escape = join(sandbox, 'escape');
      const evilTable = { ...manifest, tables: { ...manifest.tables, '../../escape': 0 } };
      expect(await attempt(tarOf(withManifest(evilTable, [{ name: 'db/../../escape.jsonl', data: Buffer.from('{}\n') }])))).toBe(
        'This is not a Tessera backup archive (its manifest cannot be read).',
      );
      expect(await attempt(tarOf([...withManifest(manifest, []), { name: 'db/../../escape.jsonl', data: Buffer.from('{}\n') }]))).toMatch(
        /^The archive holds a table its manifest does not list/,
      );
      expect(await attempt(tarOf([...withManifest(manifest, []), { name: 'media/../../escape', data: Buffer.from('x') }]))).toBe(
        'The archive holds a media file with an unsafe name.',
      );
      expect(await attempt(tarOf([...withManifest(manifest, []), { name: `/${escape}`, data: Buffer.from('x') }]))).toMatch(
        /^The archive holds an entry a Tessera backup does not have/,
      );
      expect(await attempt(tarOf([...withManifest(manifest, []), { name: 'media/unlisted.jpg', data: Buffer.from('x') }]))).toMatch(
        /^The archive holds a media file its manifest does not list/,
      );
      const badPathManifest = { ...manifest, media: [{ path: '../escape', bytes: 1, sha256: sha(Buffer.from('x')) }] };
      expect(await attempt(tarOf(withManifest(badPathManifest, [])))).toBe(
        'This is not a Tessera backup archive (its manifest cannot be read).',
      );
      expect(existsSync(escape)).toBe(false);
    });

    it('refuses symlinks, hard links, devices, FIFOs and extended headers', async () => {
      for (const [type, link] of [
        ['2', '/etc/passwd'],
        ['1', 'tessera-backup.json'],
        ['3', ''],
        ['4', ''],
        ['6', ''],
        ['x', ''],
        ['L', ''],
      ] as const) {
        const message = await attempt(
          tarOf([
            ...withManifest(manifest, []),
            { name: 'media/photo.jpg', type, link, data: type === 'x' || type === 'L' ? Buffer.from('30 path=../../escape\n') : undefined },
          ]),
        );
        expect(message, type).toBe(
          'The archive holds a link, device or other special entry ("media/photo.jpg"): a Tessera backup holds only files and folders.',
        );
      }
    });

    it('caps each entry, the whole archive and a row (decompression bombs)', async () => {
      const zeros = Buffer.alloc(2 * 2 ** 20, 0x20);
      const small = { ...RESTORE_LIMITS, entryBytes: 2 ** 20, totalBytes: 1.5 * 2 ** 20, rowBytes: 2 ** 20 };
      const bigMedia = { ...manifest, media: [{ path: 'bomb.bin', bytes: zeros.length, sha256: sha(zeros) }] };
      expect(await attempt(tarOf(withManifest(bigMedia, [{ name: 'media/bomb.bin', data: zeros }])), small)).toBe(
        'The archive entry "media/bomb.bin" is larger than the restore allows (1 MiB).',
      );
      expect(
        await attempt(tarOf(withManifest(bigMedia, [{ name: 'media/bomb.bin', data: zeros }])), { ...small, entryBytes: 4 * 2 ** 20 }),
      ).toBe('The archive unpacks to more than the restore allows (2 MiB in all).');
      const t = Object.keys(manifest.tables)[0]!;
      const longRow = Buffer.concat([Buffer.from('{"a":"'), Buffer.alloc(2 ** 20 + 10, 0x61), Buffer.from('"}\n')]);
      expect(
        await attempt(tarOf(withManifest(manifest, [{ name: `db/${t}.jsonl`, data: longRow }])), {
          ...small,
          entryBytes: 4 * 2 ** 20,
          totalBytes: 8 * 2 ** 20,
        }),
      ).toBe(`The archive is damaged: a row of table ${t} is longer than 1 MiB.`);
      // A manifest over its own cap.
      expect(
        await attempt(tarOf([{ name: MANIFEST, data: zeros }]), {
          ...small,
          entryBytes: 4 * 2 ** 20,
          totalBytes: 8 * 2 ** 20,
          manifestBytes: 2 ** 20,
        }),
      ).toBe(`The archive entry ${MANIFEST} is larger than the restore allows (1 MiB).`);
    });

    it('loads rows as data: SQL in a value is stored as text, SQL as a row is refused, nothing is run', async () => {
      const websites = entries.find((e) => e.name === 'db/websites.jsonl')!;
      const site = JSON.parse(websites.data!.toString().split('\n')[0]!) as Record<string, unknown>;
      const injected = `x'); DROP TABLE accounts; --`;
      const sqlRow = Buffer.from('DROP TABLE accounts;\n');
      const replaced = (name: string, data: Buffer) => others().map((e) => (e.name === name ? { ...e, data } : e));
      expect(await attempt(tarOf(withManifest(manifest, replaced('db/websites.jsonl', sqlRow))))).toBe(
        'The archive is damaged: row 1 of table websites is not a JSON object.',
      );
      // A value of the wrong type for its column: the database refuses it, in words, and rolls back.
      expect(
        await attempt(
          tarOf(
            withManifest(
              manifest,
              replaced('db/websites.jsonl', Buffer.from(`${JSON.stringify({ ...site, created_at: 'not a date' })}\n`)),
            ),
          ),
        ),
      ).toMatch(/^The archive's rows could not be loaded \(nothing was restored\): /);
      expect((await rows<{ t: string }>(target.db, sql`SELECT tablename AS t FROM pg_tables WHERE tablename = 'accounts'`)).length).toBe(1);
      // The same archive with SQL inside a value restores, the text kept as it was.
      const dataDir = mkdtempSync(join(sandbox, 'ok-'));
      const fresh = await testDatabase(kind);
      try {
        await restoreBackup(
          Readable.from([
            tarOf(withManifest(manifest, replaced('db/websites.jsonl', Buffer.from(`${JSON.stringify({ ...site, title: injected })}\n`)))),
          ]),
          fresh,
          dataDir,
        );
        const [w] = await rows<{ title: string }>(fresh.db, sql`SELECT title FROM websites`);
        expect(w!.title).toBe(injected);
        expect((await rows<{ n: string }>(fresh.db, sql`SELECT count(*) AS n FROM accounts`))[0]!.n).not.toBe('0');
      } finally {
        await fresh.close();
      }
    });

    it('a half-bad archive writes nothing: a damaged media file, a missing table, a row count that differs, a truncated file', async () => {
      const media = others().map((e) => (e.name === 'media/photo.jpg' ? { ...e, data: Buffer.alloc(3000, 8) } : e));
      expect(await attempt(tarOf(withManifest(manifest, media)))).toBe(
        'The archive is damaged: media file photo.jpg is missing or differs.',
      );
      const last = Object.keys(manifest.tables).at(-1)!;
      expect(
        await attempt(
          tarOf(
            withManifest(
              manifest,
              others().filter((e) => e.name !== `db/${last}.jsonl`),
            ),
          ),
        ),
      ).toBe(`The archive is damaged: table ${last} is missing.`);
      const counted = Object.entries(manifest.tables).find(([, n]) => n > 0)![0];
      expect(
        await attempt(
          tarOf(withManifest({ ...manifest, tables: { ...manifest.tables, [counted]: manifest.tables[counted]! + 1 } }, others())),
        ),
      ).toMatch(/^The archive is damaged: table \w+ has \d+ rows, its manifest says \d+\.$/);
      const whole = tarOf(withManifest(manifest, others()));
      expect(await attempt(whole.subarray(0, Math.floor(whole.length / 2)))).toMatch(/^The archive is (truncated|damaged)/);
    });
  });
}

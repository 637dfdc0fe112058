import { describe, it, expect, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { rmSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { open } from '../../src/db/index.js';
import { rows } from '../../src/server/db-util.js';
import { freePort, startServer, tempDir, waitFor, type Started } from '../helpers/process.js';

const dirs: string[] = [];
let server: Started | null = null;
afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const cli = (args: string[], env: Record<string, string>) =>
  spawnSync(process.execPath, ['scripts/cli.mjs', ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });

describe('npm run backup / npm run restore', () => {
  it('backs up a PGlite folder its server holds while serving, and restores it into a new DATA_DIR', { timeout: 300_000 }, async () => {
    const data = tempDir('tessera-cli-');
    const restored = tempDir('tessera-cli-restored-');
    const out = join(tempDir('tessera-cli-out-'), 'site.tar.gz');
    dirs.push(data, restored, join(out, '..'));
    const port = await freePort();
    server = startServer({ PORT: String(port), DATA_DIR: data });
    await waitFor(() => server!.output().includes('Tessera is serving'), 90_000, 'the server');

    const backup = cli(['backup-cli', '--out', out], { DATA_DIR: data });
    expect(backup.status, backup.stderr + backup.stdout).toBe(0);
    expect(backup.stdout).toContain(`Asked the running server (pid ${server.child.pid}) for a backup`);
    expect(backup.stdout).toMatch(/Backup written: .*site\.tar\.gz \(\d+ rows, 0 media files\)/);
    expect(existsSync(out)).toBe(true);
    // The server kept serving.
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
    server.child.kill('SIGTERM');
    await server.exited;

    // A non-empty target is refused: the original folder itself.
    const refused = cli(['restore-cli', out], { DATA_DIR: data });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('The target database is not empty: restore into an empty DATA_DIR or database.');
    expect(cli(['restore-cli'], { DATA_DIR: restored }).stderr).toContain('usage: npm run restore ARCHIVE');

    const restore = cli(['restore-cli', out], { DATA_DIR: restored });
    expect(restore.status, restore.stderr).toBe(0);
    expect(restore.stdout).toMatch(/^Restored .*site\.tar\.gz: \d+ rows in \d+ tables, 0 media files/m);
    const [a, b] = [await open({ dataDir: data, migrate: false }), await open({ dataDir: restored, migrate: false })];
    try {
      const q = sql`SELECT (SELECT count(*) FROM websites) AS w, (SELECT count(*) FROM items) AS i, (SELECT count(*) FROM accounts) AS acc, (SELECT string_agg(title, ',' ORDER BY title) FROM items) AS titles`;
      expect(await rows(b.db, q)).toEqual(await rows(a.db, q));
    } finally {
      await a.close();
      await b.close();
    }
  });
});

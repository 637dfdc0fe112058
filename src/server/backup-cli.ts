// npm run backup [-- --out FILE]: writes a backup archive of the database and the local media (backup/archive.ts).
// PostgreSQL: a snapshot over its own connection while the servers keep running. PGlite: when no server holds
// DATA_DIR, the folder is opened directly; when a running server holds it, that server is asked (SIGUSR2
// and a request file in DATA_DIR) to write the archive itself, while it keeps serving.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { configOrFail, fail } from './cli.js';
import { open, DataDirLockedError } from '../db/index.js';
import { writeBackupFile } from './backup/archive.js';
import { BACKUP_REQUEST, backupResultFile } from './backup/signal.js';

const config = configOrFail();
const args = process.argv.slice(2);
const at = args.indexOf('--out');
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const out = resolve(at !== -1 && args[at + 1] ? args[at + 1]! : join('backups', `tessera-${stamp}.tar.gz`));
if (existsSync(out)) fail(`${out} already exists`);

try {
  const database = await open({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, migrate: false });
  try {
    const m = await writeBackupFile(database, config.DATA_DIR, out);
    process.stdout.write(
      `Backup written: ${out} (${Object.values(m.tables).reduce((a, b) => a + b, 0)} rows in ${Object.keys(m.tables).length} tables, ${m.media.length} media files)\n`,
    );
  } finally {
    await database.close();
  }
} catch (e) {
  if (!(e instanceof DataDirLockedError)) fail(`the backup failed: ${(e as Error).message}`);
  // A server is running on this PGlite folder: it writes the backup.
  const id = randomUUID();
  const dir = resolve(config.DATA_DIR);
  writeFileSync(join(dir, BACKUP_REQUEST), JSON.stringify({ id, out }));
  process.kill(e.pid, 'SIGUSR2');
  process.stdout.write(`Asked the running server (pid ${e.pid}) for a backup…\n`);
  const result = backupResultFile(dir, id);
  const end = Date.now() + 30 * 60_000;
  while (!existsSync(result)) {
    if (Date.now() > end) fail('the running server did not answer within 30 minutes');
    await new Promise((r) => setTimeout(r, 200));
  }
  const r = JSON.parse(readFileSync(result, 'utf8')) as { ok: boolean; error?: string; rows?: number; media?: number };
  rmSync(result, { force: true });
  if (!r.ok) fail(`the backup failed: ${r.error}`);
  process.stdout.write(`Backup written: ${out} (${r.rows} rows, ${r.media} media files)\n`);
}

/**
 * `npm run backup` against a PGlite folder a running server holds (backup-cli.ts): the command writes
 * DATA_DIR/backup-request.json ({ id, out }) and sends the server SIGUSR2; the server writes the archive to
 * `out` while serving and then DATA_DIR/backup-result-<id>.json. Only a user allowed to signal the server's
 * process and write its data folder can ask.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { writeBackupFile } from './archive.js';

export const BACKUP_REQUEST = 'backup-request.json';
export const backupResultFile = (dataDir: string, id: string) => join(dataDir, `backup-result-${id.replace(/[^A-Za-z0-9-]/g, '')}.json`);

/** main.ts: answers backup requests (PGlite on a data folder only). */
export function answerBackupRequests(app: FastifyInstance): void {
  const { database, config } = app;
  if (database.kind !== 'pglite' || !database.dataDir) return;
  const dir = resolve(config.DATA_DIR);
  let busy = false;
  process.on('SIGUSR2', () => {
    const file = join(dir, BACKUP_REQUEST);
    if (busy || !existsSync(file)) return;
    busy = true;
    void (async () => {
      let id = '';
      try {
        const req = JSON.parse(readFileSync(file, 'utf8')) as { id: string; out: string };
        rmSync(file, { force: true });
        id = String(req.id);
        if (!isAbsolute(req.out)) throw new Error('the output path must be absolute');
        app.log.info({ out: req.out }, 'backup requested');
        const m = await writeBackupFile(database, config.DATA_DIR, req.out);
        writeFileSync(
          backupResultFile(dir, id),
          JSON.stringify({ ok: true, rows: Object.values(m.tables).reduce((a, b) => a + b, 0), media: m.media.length }),
        );
      } catch (err) {
        app.log.error({ err }, 'backup failed');
        if (id) writeFileSync(backupResultFile(dir, id), JSON.stringify({ ok: false, error: (err as Error).message }));
      } finally {
        busy = false;
      }
    })();
  });
}

// npm run restore ARCHIVE: restores a backup (npm run backup, or the download in /config Settings) into the
// database and DATA_DIR the environment names, which must be empty (a new DATA_DIR, or a new PostgreSQL
// database). The schema is made by the migrations first; then rows and media come from the archive.
import { configOrFail, fail } from './cli.js';
import { open } from '../db/index.js';
import { restoreBackupFile } from './backup/archive.js';

const config = configOrFail();
const file = process.argv.slice(2).find((a) => !a.startsWith('--'));
if (!file) fail('usage: npm run restore ARCHIVE');
let database;
try {
  database = await open({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
} catch (e) {
  fail(`could not open the database: ${(e as Error).message}`);
}
try {
  const m = await restoreBackupFile(file, database, config.DATA_DIR);
  process.stdout.write(
    `Restored ${file}: ${Object.values(m.tables).reduce((a, b) => a + b, 0)} rows in ${Object.keys(m.tables).length} tables, ${m.media.length} media files (backup of ${m.createdAt}).\n`,
  );
} catch (e) {
  await database.close();
  fail(`the restore failed: ${(e as Error).message}`);
}
await database.close();

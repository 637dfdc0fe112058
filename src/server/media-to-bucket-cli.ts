// npm run media:to-bucket: moves the media of DATA_DIR (uploads) and the database (member files) into the
// bucket S3_BUCKET names (storage/move.ts). Run it once with the servers' own environment, then start them.
import { loadConfig } from './config.js';
import { open } from '../db/index.js';
import { mediaStoreFor } from './storage/media-store.js';
import { moveMediaToBucket } from './storage/move.js';

const config = loadConfig();
if (!config.S3_BUCKET) {
  process.stderr.write('S3_BUCKET is not set: set the S3_* variables (docs/DEPLOY.md) to name the bucket to move media into.\n');
  process.exit(2);
}
const database = await open({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
const store = mediaStoreFor(config);
try {
  await store.check();
  await moveMediaToBucket(database, config.DATA_DIR, store, (line) => process.stdout.write(`${line}\n`));
} catch (err) {
  // The SDK's errors name the bucket and the failure, never the credentials.
  process.stderr.write(`Moving media failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
} finally {
  store.close();
  await database.close();
}

// npm run seed [-- --reset]: seeds the demo store into an empty database, or wipes and reseeds with --reset.
import { loadConfig } from './config.js';
import { open } from '../db/index.js';
import { hasWebsite, resetData, seedDemo } from './seed.js';

const config = loadConfig();
const database = await open({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
try {
  const reset = process.argv.includes('--reset');
  if (reset) await resetData(database);
  if (!reset && (await hasWebsite(database.db))) {
    process.stdout.write('The database already holds a website; use `npm run seed -- --reset` to wipe it and reseed.\n');
  } else {
    await seedDemo(database);
    process.stdout.write('Demo store seeded. The next `npm start` prints a one-time owner sign-in link.\n');
  }
} finally {
  await database.close();
}

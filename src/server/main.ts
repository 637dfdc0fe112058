import { loadConfig, ConfigError, type Config } from './config.js';
import { open, DataDirLockedError, type Database } from '../db/index.js';
import { buildApp } from './app.js';
import { hasWebsite, seedDemo } from './seed.js';
import { OwnerService } from './platform/owners.js';
import { schema } from '../db/index.js';

function fail(message: string): never {
  process.stderr.write(`tessera: ${message}\n`);
  process.exit(1);
}

/** First start: the demo store and an admin account (with OWNER_EMAIL/OWNER_PASSWORD, or a one-time link). */
async function prepare(database: Database, config: Config, origin: string): Promise<string | null> {
  if (!(await hasWebsite(database))) {
    if (config.SEED_DEMO) await seedDemo(database);
    else {
      const { newId } = await import('../db/ids.js');
      await database.db.insert(schema.websites).values({ id: newId(), title: 'My Site' });
    }
  }
  const site = (await database.db.select().from(schema.websites).limit(1))[0]!;
  const owners = new OwnerService(database);
  const { owner, created } = await owners.ensureAdmin(site.id, config.OWNER_EMAIL, config.OWNER_PASSWORD);
  if (created && !config.OWNER_PASSWORD) {
    const token = await owners.createSignInLink(owner.id);
    return `${origin}/config/login/link?token=${token}`;
  }
  return null;
}

export async function main(env = process.env): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) fail(e.message);
    throw e;
  }
  let database: Database;
  try {
    database = await open({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  } catch (e) {
    if (e instanceof DataDirLockedError) fail(e.message);
    fail(`could not open the database: ${(e as Error).message}`);
  }
  const origin = config.PUBLIC_URL?.replace(/\/$/, '') ?? `http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${config.PORT}`;
  const link = await prepare(database, config, origin);
  const app = await buildApp({ config, database });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const timer = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    try {
      await app.close();
      await database.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  try {
    await app.listen({ port: config.PORT, host: config.HOST });
  } catch (e) {
    await database.close();
    fail(`could not listen on ${config.HOST}:${config.PORT}: ${(e as Error).message}`);
  }
  if (!app.services.assets.built) app.log.warn('client bundle not built: run `npm run build` (npm start does it for you)');
  process.stdout.write(`\nTessera is serving ${origin} (${database.kind === 'pglite' ? `PGlite in ${config.DATA_DIR}` : 'PostgreSQL'})\n`);
  if (link) process.stdout.write(`Sign in as the owner with this one-time link (valid 60 minutes):\n  ${link}\n\n`);
}

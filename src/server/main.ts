import { loadConfig, ConfigError, publicOrigin, type Config } from './config.js';
import { emailOriginWarning } from './email-origin.js';
import { open, DataDirLockedError, type Database } from '../db/index.js';
import { buildApp } from './app.js';
import { prepare } from './first-start.js';
import { answerBackupRequests } from './backup/signal.js';

function fail(message: string): never {
  process.stderr.write(`tessera: ${message}\n`);
  process.exit(1);
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
  const origin = publicOrigin(config);
  const linkPath = await prepare(database, config);
  const link = linkPath ? `${origin}${linkPath}` : null;
  const app = await buildApp({ config, database });
  const originWarning = await emailOriginWarning(config, database.db, env);
  if (originWarning) app.log.warn(originWarning);

  // Graceful shutdown. Closing the listening socket at once would reset the connections already waiting
  // in the kernel's accept queue, and closing "idle" connections would drop those whose request has not
  // been read yet. So the server first keeps accepting (answering with Connection: close) until nothing is
  // in flight and no connection has arrived for a moment; only then does it stop listening.
  let closing = false;
  let lastConnection = Date.now();
  let inFlight = 0;
  app.server.on('connection', () => (lastConnection = Date.now()));
  app.server.on('request', (_req, res) => {
    inFlight++;
    if (closing) res.setHeader('connection', 'close');
    res.once('close', () => inFlight--);
  });
  const drain = async (quietMs: number, maxMs: number) => {
    const end = Date.now() + maxMs;
    const busy = () => inFlight > 0 || Date.now() - lastConnection < quietMs;
    while (Date.now() < end) {
      await new Promise((r) => setTimeout(r, 20));
      if (busy()) continue;
      // Timers run before I/O in each turn of the event loop: after a stall, connections may be waiting to
      // be accepted. Let one I/O phase pass (setImmediate runs after it) and look again before deciding.
      await new Promise((r) => setImmediate(r));
      if (!busy()) return;
    }
  };
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    await drain(300, config.SHUTDOWN_TIMEOUT_MS / 2);
    const timer = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    try {
      // Connections accepted but not yet read are served (forceCloseConnections is off); ones that stay
      // idle after a second are keep-alive leftovers and are closed.
      const idle = setTimeout(() => app.server.closeIdleConnections(), 1000);
      idle.unref();
      await app.close();
      clearTimeout(idle);
      await database.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  // `npm run backup` on a PGlite folder this process holds (backup/signal.ts).
  answerBackupRequests(app);
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  try {
    await app.listen({ port: config.PORT, host: config.HOST });
  } catch (e) {
    await database.close();
    fail(`could not listen on ${config.HOST}:${config.PORT}: ${(e as Error).message}`);
  }
  if (!app.services.assets.built) app.log.warn('client bundle not built: run `npm run build` (npm start does it for you)');
  // One write, so whoever reads the output sees the link with the line that says the server is up.
  const serving = `\nTessera is serving ${origin} (${database.kind === 'pglite' ? `PGlite in ${config.DATA_DIR}` : 'PostgreSQL'})\n`;
  process.stdout.write(link ? `${serving}Sign in as the owner with this one-time link (valid 60 minutes):\n  ${link}\n\n` : serving);
}

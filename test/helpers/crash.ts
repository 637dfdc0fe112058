import { afterAll, expect } from 'vitest';
import pg from 'pg';
import { startServer, waitFor, type Started } from './process.js';
import { PG_URL } from './db.js';

/**
 * The server processes of one test file: `serve` starts one (`npm start`'s script) and waits until it says it
 * is serving; whatever is still running when the file ends is killed (SIGKILL: a crash test's leftovers need
 * no clean stop).
 */
export function serverProcesses() {
  const started: Started[] = [];
  afterAll(() => {
    for (const s of started) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  });
  return {
    /** Started without waiting (a test that expects it to fail to start, or waits itself). */
    start(env: Record<string, string>): Started {
      const s = startServer(env);
      started.push(s);
      return s;
    },
    async serve(env: Record<string, string>, ms = 90_000): Promise<Started> {
      const s = this.start(env);
      await waitFor(() => s.output().includes('Tessera is serving') || s.child.exitCode !== null, ms, 'the server');
      expect(s.output()).toContain('Tessera is serving');
      return s;
    },
  };
}

/** Runs `fn` on a new, empty PostgreSQL database (its URL), dropped afterwards whatever happened. */
export async function withScratchPostgres<T>(prefix: string, fn: (url: string) => Promise<T>): Promise<T> {
  const name = `${prefix}_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    const u = new URL(PG_URL);
    u.pathname = `/${name}`;
    return await fn(u.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

// npm run owner-link -- you@example.com: prints a fresh one-time sign-in link for an existing admin account, for
// an operator with shell access whose owner can no longer sign in (forgotten email or password, no mail relay).
// Earlier sign-in links of the account stop working; the link works once, for 60 minutes, and when the account
// still has no password (or the first start's placeholder email) it leads to the screen that sets them.
// Without an email it lists the admin accounts. PostgreSQL: works while the servers run. PGlite: the embedded
// database is one process's, so stop the server holding DATA_DIR first (this says so and changes nothing).
import { publicOrigin, type Config } from './config.js';
import { configOrFail, fail } from './cli.js';
import { open, DataDirLockedError, schema, type Database } from '../db/index.js';
import { eq } from 'drizzle-orm';
import { Role } from '../core/enums.js';
import { linkBase, savedSiteAddress } from './email-origin.js';
import { OwnerService } from './platform/owners.js';
import { signInLinkPath } from './first-start.js';

const config: Config = configOrFail();
const email = process.argv.slice(2).find((a) => !a.startsWith('--'));

let database: Database;
try {
  database = await open({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
} catch (e) {
  if (e instanceof DataDirLockedError) {
    fail(
      `the server (pid ${e.pid}) holds the PGlite folder ${e.dir}. Stop it, run \`npm run owner-link -- ${email ?? 'you@example.com'}\` again, ` +
        `then start the server and open the link within 60 minutes.`,
    );
  }
  fail(`could not open the database: ${(e as Error).message}`);
}

/** The link's text, or the refusal and exit code; the database is closed before the process ends either way. */
async function run(db: Database): Promise<{ out: string } | { error: string; code: number }> {
  const admins = await db.db.select({ email: schema.accounts.email }).from(schema.accounts).where(eq(schema.accounts.role, Role.ADMIN));
  const list = admins.map((a) => `  ${a.email}`).join('\n') || '  (none)';
  if (!email) return { error: `usage: npm run owner-link -- <admin email>\nAdmin accounts:\n${list}`, code: 2 };
  const owners = new OwnerService(db);
  const owner = await owners.byEmail(email);
  if (!owner || owner.role !== Role.ADMIN) return { error: `no admin account signs in with ${email}. Admin accounts:\n${list}`, code: 1 };
  const token = await owners.createSignInLink(owner.id);
  const origin = linkBase(config.PUBLIC_URL) ?? (await savedSiteAddress(db.db)) ?? publicOrigin(config);
  return { out: `One-time sign-in link for ${owner.email} (works once, for 60 minutes):\n  ${origin}${signInLinkPath(token)}\n` };
}

let result: Awaited<ReturnType<typeof run>>;
try {
  result = await run(database);
} finally {
  await database.close();
}
if ('error' in result) fail(result.error, result.code);
process.stdout.write(result.out);

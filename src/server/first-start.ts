/**
 * What a start does to a database before serving: on the first start, the demo store (or an empty site) and
 * an admin account, with OWNER_EMAIL/OWNER_PASSWORD or else the placeholder email and no password.
 *
 * While the admin has not chosen an email and password (owners.needsSetup), every start makes a fresh
 * one-time sign-in link (earlier ones stop working) for main.ts to print, so a restart is a way back in.
 */
import type { Config } from './config.js';
import { schema, type Database } from '../db/index.js';
import { newId } from '../db/ids.js';
import { hasWebsite, seedInto } from './seed.js';
import { OwnerService } from './platform/owners.js';

/** The path of a one-time sign-in link (`/config/login/link?token=…`). */
export function signInLinkPath(token: string): string {
  return `/config/login/link?token=${encodeURIComponent(token)}`;
}

/** Seeds a new database and makes sure of an admin; answers the path of a sign-in link to print, or null. */
export async function prepare(
  database: Database,
  config: Pick<Config, 'SEED_DEMO' | 'OWNER_EMAIL' | 'OWNER_PASSWORD'>,
): Promise<string | null> {
  // Several instances may start together on a new database: the first to insert the marker seeds,
  // the others wait on its row and then find the work done.
  await database.db.transaction(async (tx) => {
    const first = await tx
      .insert(schema.systemValues)
      .values({ key: 'initialised', value: new Date().toISOString() })
      .onConflictDoNothing()
      .returning();
    if (first.length === 0 || (await hasWebsite(tx))) return;
    if (config.SEED_DEMO) await seedInto(tx);
    else await tx.insert(schema.websites).values({ id: newId(), title: 'My Site' });
  });
  const site = (await database.db.select().from(schema.websites).limit(1))[0]!;
  const owners = new OwnerService(database);
  const { owner } = await owners.ensureAdmin(site.id, config.OWNER_EMAIL, config.OWNER_PASSWORD);
  if (config.OWNER_PASSWORD || !(await owners.needsSetup(owner.id))) return null;
  return signInLinkPath(await owners.createSignInLink(owner.id));
}

/** Bench and comparison scripts: a signed-in site user without going through sign-up mail. */
/** A confirmed site user with a session; answers the session cookie's value. */
export async function createSiteUser(database: import('../src/db/index.js').Database, websiteId: string, email: string): Promise<string> {
  const { schema } = await import('../src/db/index.js');
  const { newId } = await import('../src/db/ids.js');
  const { SiteUserService } = await import('../src/server/platform/site-users.js');
  const id = newId();
  await database.db.insert(schema.siteUsers).values({ id, websiteId, email, passwordHash: 'not-a-password' });
  const users = new SiteUserService(database, { send: async () => undefined } as never);
  return (await users.startSession(id, true)).token;
}

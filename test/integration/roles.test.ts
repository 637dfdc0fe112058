import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { OwnerService } from '../../src/server/platform/owners.js';
import { Role } from '../../src/core/enums.js';

/**
 * Every owner route, found through the route table, against every role of the enumeration: no session
 * answers 401, a role the route does not allow answers 403, an allowed role gets past the check.
 */
describe('role checks on every owner route', () => {
  let t: TestApp;
  const sessions = new Map<number, string>();
  beforeAll(async () => {
    t = await testApp('pglite', { RATE_LIMIT_STORE: 'memory' });
    const owners = new OwnerService(t.database);
    for (const role of Object.values(Role)) {
      const o = await owners.create({ websiteId: t.seed.websiteId, email: `role${role}@example.com`, password: 'a long enough password', role });
      sessions.set(role, (await owners.startSession(o.id)).token);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses and admits by role', async () => {
    const routes = t.app.routeTable.filter((r) => r.ownerRoles !== undefined);
    expect(routes.length).toBeGreaterThan(20);
    const crumb = 'rolecheckcrumbvalue12345';
    const problems: string[] = [];
    for (const r of routes) {
      const url = r.url.replace(/:[A-Za-z_]+/g, 'no-such-id').replace(/\*$/, 'x');
      const call = (token?: string) =>
        t.app.inject({
          method: r.method as 'GET',
          url,
          headers: { cookie: `crumb=${crumb}${token ? `; tessera_owner=${token}` : ''}`, 'x-csrf-token': crumb, ...(r.method === 'GET' || r.method === 'DELETE' ? {} : { 'content-type': 'application/json' }) },
          payload: r.method === 'GET' || r.method === 'DELETE' ? undefined : '{}',
        });
      const anonymous = await call();
      if (anonymous.statusCode !== 401) problems.push(`${r.method} ${r.url} without a session: ${anonymous.statusCode}`);
      for (const [role, token] of sessions) {
        const res = await call(token);
        const allowed = r.ownerRoles === null || r.ownerRoles!.includes(role);
        if (allowed && (res.statusCode === 401 || res.statusCode === 403)) problems.push(`${r.method} ${r.url} role ${role} allowed but got ${res.statusCode}`);
        if (!allowed && res.statusCode !== 403) problems.push(`${r.method} ${r.url} role ${role} refused but got ${res.statusCode}`);
        if (res.statusCode >= 500) problems.push(`${r.method} ${r.url} role ${role}: ${res.statusCode}`);
      }
    }
    expect(problems).toEqual([]);
  }, 240_000);

  it('keeps the roles the specs name for restock owner calls: admin and store manager only', () => {
    const restock = t.app.routeTable.filter((r) => r.url.startsWith('/api/site-users/account/notifications/restock') && r.ownerRoles !== undefined);
    expect(restock.length).toBeGreaterThanOrEqual(4);
    for (const r of restock) expect([...(r.ownerRoles ?? [])].sort((a, b) => a - b)).toEqual([Role.ADMIN, Role.STORE_MANAGER]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { OwnerService } from '../../../src/server/platform/owners.js';
import { Role } from '../../../src/core/enums.js';
import { ACCESS, allows, can, roleName } from '../../../src/core/roles.js';
import { ROLE_REFUSED } from '../../../src/server/platform/owner-auth.js';

/** Paths only staff use: a route here without an owner guard would be open to anyone. */
const OWNER_ONLY_PATH = /^\/api\/(config|admin|editor)\/|^\/api\/[a-z-]+\/admin\//;

/**
 * Every owner route, found through the route table, against every role of the enumeration and the roles table
 * (core/roles.ts): each route names its area and access (GET reads, other methods write), no session answers
 * 401, a role the table does not give that access answers 403 naming the roles that may, an allowed role gets
 * past the check.
 */
describe('role checks on every owner route', () => {
  let t: TestApp;
  const sessions = new Map<number, string>();
  beforeAll(async () => {
    t = await testApp('pglite', { RATE_LIMIT_STORE: 'memory' });
    const owners = new OwnerService(t.database);
    for (const role of Object.values(Role)) {
      const o = await owners.create({
        websiteId: t.seed.websiteId,
        email: `role${role}@example.com`,
        password: 'a long enough password',
        role,
      });
      sessions.set(role, (await owners.startSession(o.id)).token);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('takes every owner route’s roles from the table, by its area and the access its method needs', () => {
    const problems: string[] = [];
    for (const r of t.app.routeTable) {
      const name = `${r.method} ${r.url}`;
      if (r.ownerRoles === undefined) {
        if (OWNER_ONLY_PATH.test(r.url)) problems.push(`${name}: no owner guard`);
        continue;
      }
      const a = r.ownerAccess;
      if (!a || !(a.area in ACCESS)) {
        problems.push(`${name}: not in the roles table`);
        continue;
      }
      const wanted = r.method === 'GET' ? 'read' : 'write';
      if (a.access !== wanted) problems.push(`${name}: ${a.area} ${a.access}, but a ${r.method} ${wanted}s`);
      if (r.ownerRoles.join() !== ACCESS[a.area][a.access].join())
        problems.push(`${name}: roles ${r.ownerRoles.join()} are not the table's`);
    }
    expect(problems).toEqual([]);
  });

  it('refuses and admits by role as the table says', async () => {
    const routes = t.app.routeTable.filter((r) => r.ownerRoles !== undefined);
    expect(routes.length).toBeGreaterThan(150);
    const crumb = 'rolecheckcrumbvalue12345';
    const problems: string[] = [];
    for (const r of routes) {
      const url = r.url.replace(/:[A-Za-z_]+/g, 'no-such-id').replace(/\*$/, 'x');
      const call = (token?: string) =>
        t.app.inject({
          method: r.method as 'GET',
          url,
          headers: {
            cookie: `crumb=${crumb}${token ? `; tessera_owner=${token}` : ''}`,
            'x-csrf-token': crumb,
            ...(r.method === 'GET' || r.method === 'DELETE' ? {} : { 'content-type': 'application/json' }),
          },
          payload: r.method === 'GET' || r.method === 'DELETE' ? undefined : '{}',
        });
      const anonymous = await call();
      if (anonymous.statusCode !== 401) problems.push(`${r.method} ${r.url} without a session: ${anonymous.statusCode}`);
      const { area, access } = r.ownerAccess!;
      const mayNames = can(area, access).roles.map(roleName);
      for (const [role, token] of sessions) {
        const res = await call(token);
        const allowed = allows(role, area, access);
        if (allowed && (res.statusCode === 401 || res.statusCode === 403))
          problems.push(`${r.method} ${r.url} role ${role} allowed (${area} ${access}) but got ${res.statusCode}`);
        if (!allowed && res.statusCode !== 403)
          problems.push(`${r.method} ${r.url} role ${role} refused (${area} ${access}) but got ${res.statusCode}`);
        if (!allowed && res.statusCode === 403 && JSON.stringify(res.json().roles) !== JSON.stringify(mayNames))
          problems.push(`${r.method} ${r.url} role ${role}: the 403 does not name the roles that may`);
        if (res.statusCode >= 500) problems.push(`${r.method} ${r.url} role ${role}: ${res.statusCode}`);
      }
    }
    expect(problems).toEqual([]);
  }, 240_000);

  it('keeps the roles the specs name for restock owner calls: admin and store manager only', () => {
    const restock = t.app.routeTable.filter(
      (r) => r.url.startsWith('/api/site-users/account/notifications/restock') && r.ownerRoles !== undefined,
    );
    expect(restock.length).toBeGreaterThanOrEqual(4);
    for (const r of restock) expect([...(r.ownerRoles ?? [])].sort((a, b) => a - b)).toEqual([Role.ADMIN, Role.STORE_MANAGER]);
  });

  it('gives the campaigns editor (11) no subscriber list, export, list change or email template; admins and website managers export', async () => {
    const as = (role: number) => {
      const v = new Visitor(t.app);
      v.cookies.set('tessera_owner', sessions.get(role)!);
      return v;
    };
    const admin = new Visitor(t.app);
    expect((await admin.send('POST', '/api/auth/login', OWNER)).statusCode).toBe(200);
    const made = await admin.send('POST', '/api/config/engagement/lists', { name: 'Studio news' });
    expect(made.statusCode).toBe(201);
    const id = made.json().list.id as string;
    const api = '/api/config/engagement';
    for (const role of [Role.CAMPAIGNS_EDITOR, Role.VIEWER, Role.EDITOR, Role.REPORTING]) {
      const v = as(role);
      for (const url of [`${api}/lists`, `${api}/lists/${id}/members`, `${api}/lists/${id}/export.csv`]) {
        const res = await v.get(url);
        expect(res.statusCode, `${url} as ${role}`).toBe(403);
        expect(res.json()).toMatchObject({
          message: `${ROLE_REFUSED} It needs one of these roles: Admin, Website manager.`,
          roles: ['Admin', 'Website manager'],
        });
      }
    }
    const campaigns = as(Role.CAMPAIGNS_EDITOR);
    expect((await campaigns.send('POST', `${api}/lists`, { name: 'Mine' })).statusCode).toBe(403);
    expect((await campaigns.send('PUT', `${api}/lists/${id}`, { name: 'Renamed' })).statusCode).toBe(403);
    expect((await campaigns.get(`${api}/emails`)).statusCode).toBe(403);
    expect((await campaigns.get(`${api}/list-names`)).statusCode).toBe(403);
    expect((await admin.get(`${api}/lists/${id}/export.csv`)).statusCode).toBe(200);
    expect((await as(Role.WEBSITE_MANAGER).get(`${api}/lists/${id}/export.csv`)).statusCode).toBe(200);
  });
});

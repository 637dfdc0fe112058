/**
 * Experiment overrides for sites the owner marks internal (they work only on internal hosts or sites
 * marked internal), on both databases: on a production host
 * an `?experiment.<name>=` override is ignored until the owner marks the site internal in /config/features;
 * then it sets (and tells the page to store) the variant; unmarked, it is ignored again. Owners only, CSRF.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { createVisitorCookie } from '../../../src/core/cookies.js';
import { FLAGS_DATA_ID } from '../../../src/server/flags/page.js';

function island(html: string): {
  internal: boolean;
  experiments: Array<{ name: string; variant: string | null; source: string; store: unknown }>;
} {
  const m = new RegExp(`<script type="application/json" id="${FLAGS_DATA_ID}">([^<]*)</script>`).exec(html);
  expect(m, 'the page carries the flags island').not.toBeNull();
  return JSON.parse(m![1]!);
}

describe.each(APP_KINDS)('internal site on %s', (kind) => {
  let t: TestApp;
  let owner: Visitor;
  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    owner = new Visitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lets experiment overrides work on a production host once the owner marks the site internal', async () => {
    const saved = await owner.send('PUT', '/api/flags/experiments', {
      experiments: [
        {
          name: 'hero',
          variants: [
            { name: 'control', weight: 100 },
            { name: 'bold', weight: 0 },
          ],
        },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const cookie = `ss_cvr=${encodeURIComponent(createVisitorCookie(Date.now(), Math.random))}`;
    const visit = async (url: string) => t.app.inject({ method: 'GET', url, headers: { host: 'www.fernhill.example', cookie } });
    const hero = (html: string) => island(html).experiments.find((e) => e.name === 'hero');

    expect((await owner.get('/api/flags/internal-site')).json()).toEqual({ internal: false });
    const before = await visit('/shop?experiment.hero=bold');
    expect(island(before.body).internal).toBe(false);
    expect(hero(before.body)).toMatchObject({ variant: 'control', source: 'hash', store: null });

    const marked = await owner.send('PUT', '/api/flags/internal-site', { internal: true });
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json()).toEqual({ internal: true });
    const after = await visit('/shop?experiment.hero=bold');
    expect(island(after.body).internal).toBe(true);
    expect(hero(after.body)).toMatchObject({ variant: 'bold', source: 'override', store: { kind: 'set', variant: 'bold' } });
    expect((await visit('/shop?format=json&experiment.hero=bold')).json().experiments.hero).toBe('bold');
    expect(hero((await visit('/shop?experiment.hero=reset')).body)).toMatchObject({ variant: 'control', store: { kind: 'remove' } });

    expect((await owner.send('PUT', '/api/flags/internal-site', { internal: false })).json()).toEqual({ internal: false });
    expect(hero((await visit('/shop?experiment.hero=bold')).body)).toMatchObject({ variant: 'control', source: 'hash', store: null });
  });

  it('takes the mark from owners only, with the crumb, as true or false', async () => {
    expect((await owner.send('PUT', '/api/flags/internal-site', { internal: 'yes' })).statusCode).toBe(400);
    expect((await owner.send('PUT', '/api/flags/internal-site', { internal: true }, { crumb: false })).statusCode).toBe(403);
    expect((await new Visitor(t.app).send('PUT', '/api/flags/internal-site', { internal: true })).statusCode).toBe(401);
    expect((await owner.get('/api/flags/internal-site')).json()).toEqual({ internal: false });
  });
});

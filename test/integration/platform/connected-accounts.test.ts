/**
 * The connected-account link service for online food ordering (default link title
 * Order Now), on both databases: the owner connects a restaurant's online ordering address in
 * /config/connected-accounts and the site's main menu links to it as 'Order Now', or under the owner's own
 * title; disconnecting removes the link. Owner-only, with CSRF, and only https addresses are taken.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { commerce } from '../../../src/core/messages.js';

const URL_PATH = '/api/config/connected-accounts/online-ordering';
const ORDER = 'https://order.example.com/fernhill-kitchen?ref=site';

function orderLinks(html: string): string[] {
  return [...html.matchAll(/<a class="site-nav__order-link" href="([^"]*)" rel="noopener">([^<]*)<\/a>/g)].map((m) => `${m[1]} ${m[2]}`);
}

describe.each(APP_KINDS)('online ordering link on %s', (kind) => {
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

  it('shows the connected ordering link in the menu, titled Order Now by default', async () => {
    expect(orderLinks((await new Visitor(t.app).get('/')).body)).toEqual([]);
    const before = (await owner.get('/api/config/connected-accounts')).json();
    expect(before.onlineOrdering).toMatchObject({ connected: false, url: '', defaultTitle: 'Order Now' });

    const r = await owner.send('PUT', URL_PATH, { url: ORDER });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().onlineOrdering).toMatchObject({ connected: true, url: ORDER, shownTitle: commerce.ORDER_NOW });
    const html = (await new Visitor(t.app).get('/')).body;
    // The menu is drawn twice (the phone toggle and the desktop bar): the link is in both.
    expect(orderLinks(html)).toEqual([`${ORDER} Order Now`, `${ORDER} Order Now`]);

    expect((await owner.send('PUT', URL_PATH, { url: ORDER, title: 'Order online' })).statusCode).toBe(200);
    expect(orderLinks((await new Visitor(t.app).get('/shop')).body)).toEqual([`${ORDER} Order online`, `${ORDER} Order online`]);

    expect((await owner.send('PUT', URL_PATH, { url: '' })).json().onlineOrdering.connected).toBe(false);
    expect(orderLinks((await new Visitor(t.app).get('/')).body)).toEqual([]);
  });

  it('takes only https addresses, from owners, with the crumb', async () => {
    for (const url of [
      'javascript:alert(1)',
      'http://order.example.com/x',
      'https://',
      'order.example.com',
      `https://a.example/${'x'.repeat(2000)}`,
    ]) {
      const r = await owner.send('PUT', URL_PATH, { url });
      expect(r.statusCode, url).toBe(400);
      expect(r.json().message).toContain('Links must be formatted as');
    }
    expect((await owner.send('PUT', URL_PATH, { url: ORDER, title: 'x'.repeat(61) })).statusCode).toBe(400);
    expect((await owner.send('PUT', URL_PATH, { url: ORDER }, { crumb: false })).statusCode).toBe(403);
    const visitor = new Visitor(t.app);
    expect((await visitor.send('PUT', URL_PATH, { url: ORDER })).statusCode).toBe(401);
    expect((await visitor.get('/api/config/connected-accounts')).statusCode).toBe(401);
    expect(orderLinks((await new Visitor(t.app).get('/')).body)).toEqual([]);
  });
});

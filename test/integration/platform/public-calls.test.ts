/** Issue 30: the calls, on both databases. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_KINDS } from '../../helpers/db.js';
import { OWNER, testApp, Visitor, type TestApp } from '../../helpers/app.js';

for (const kind of APP_KINDS) {
  describe(`issue 30 calls on ${kind}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('the captcha challenge endpoint accepts only the four action types', async () => {
      const v = new Visitor(t.app);
      for (const action of ['form-block', 'newsletter-block', 'product-waitlist', 'promo-popup']) {
        const res = await v.get(`/api/captcha/challenge?action=${action}`);
        expect(res.statusCode, action).toBe(200);
        expect(res.json()).toMatchObject({ algorithm: expect.any(String), challenge: expect.any(String), signature: expect.any(String) });
        expect(decodeURIComponent(res.json().salt as string)).toContain(`action=${action}`);
      }
      for (const [query, shown] of [
        ['?action=checkout', 'checkout'],
        ['?action=FORM-BLOCK', 'FORM-BLOCK'],
        ['', 'action'],
        ['?action=', 'action'],
      ] as const) {
        const res = await v.get(`/api/captcha/challenge${query}`);
        expect(res.statusCode, query).toBe(400);
        expect(res.json().message).toBe(`${shown} is not one of the expected options`);
      }
      // Array-shaped input is refused too, never a 500.
      expect((await v.get('/api/captcha/challenge?action=form-block&action=promo-popup')).statusCode).toBe(400);
    });

    it('an unknown /api/... path answers a JSON 404 for every method, never the HTML page', async () => {
      const v = new Visitor(t.app);
      for (const [method, url] of [
        ['GET', '/api/no-such-thing'],
        ['GET', '/api/commerce/no/such/path?x=1'],
        ['GET', '/api/'],
        ['HEAD', '/api/nothing-here'],
      ] as const) {
        const res = await t.app.inject({ method, url, headers: { accept: 'text/html' } });
        expect(res.statusCode, url).toBe(404);
        expect(res.headers['content-type'], url).toMatch(/^application\/json/);
        if (method === 'GET') expect(res.json(), url).toMatchObject({ message: expect.any(String) });
      }
      const post = await v.send('POST', '/api/no-such-thing', { a: 1 });
      expect(post.statusCode).toBe(404);
      expect(post.headers['content-type']).toMatch(/^application\/json/);
    });

    it("a commerce preference named 'written' is answered as stored; the header tells whether the PUT wrote", async () => {
      const owner = new Visitor(t.app);
      const login = await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password });
      expect(login.statusCode).toBe(200);
      const put = await owner.send('PUT', '/api/v1/commerce-preferences/checkout', { written: 'by hand', note: 'x' });
      expect(put.statusCode).toBe(200);
      expect(put.json()).toEqual({ written: 'by hand', note: 'x' });
      expect(put.headers['x-preferences-written']).toBe('true');
      const again = await owner.send('PUT', '/api/v1/commerce-preferences/checkout', { written: 'by hand' });
      expect(again.json()).toEqual({ written: 'by hand', note: 'x' });
      expect(again.headers['x-preferences-written']).toBe('false');
      expect((await owner.get('/api/v1/commerce-preferences/checkout')).json()).toEqual({ written: 'by hand', note: 'x' });
    });
  });
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, Visitor, type TestApp } from '../../helpers/app.js';

/** The areas meet on the demo site: forms on the contact page, instalments on products. */
describe('demo site wiring', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp('pglite');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('shows the contact form on the Contact page, server-rendered as a real form', async () => {
    const res = await new Visitor(t.app).get('/contact');
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/data-island="Form"/);
    expect(res.body).toMatch(/<form[^>]*method="post"/);
    expect(res.body).toContain('page-form');
  });

  it('leaks no template instruction into any demo page, and links the member area from the footer', async () => {
    const v = new Visitor(t.app);
    for (const url of [
      '/',
      '/shop',
      '/shop/p/linen-camp-shirt',
      '/journal',
      '/journal/a-better-morning-cup',
      '/gallery',
      '/about',
      '/contact',
      '/cart',
      '/search?q=linen',
      '/no-such-page',
    ]) {
      const res = await v.get(url);
      expect(res.body, url).not.toMatch(/\{\.(section|end|repeated|or|if|var)\b/);
    }
    const home = await v.get('/');
    expect(home.body).toMatch(/<nav class="site-footer__nav" aria-label="Members">[\s\S]*?href="\/members"/);
  });
});

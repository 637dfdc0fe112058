import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, Visitor, type TestApp } from '../helpers/app.js';

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
});

/**
 * Issue 21, item 2 in Chromium: a page on the site's own origin (as a staff member's injected script
 * would be) posts to percent-encoded API paths with the admin's cookies but without the crumb. Both a
 * plain HTML form submission and a fetch are refused; the admin stays signed in and no admin is created.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, liveSite, signInAsOwner, type BrowserSession, type LiveSite } from '../../helpers/browser.js';

describe('same-site posts to encoded API paths in Chromium', () => {
  let site: LiveSite;
  let b: BrowserSession;

  beforeAll(async () => {
    site = await liveSite('pglite');
    b = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  it('refuses a crumb-less form post and fetch to /%61pi/... from a page of the site', async () => {
    const page = await (await b.browser.newContext()).newPage();
    await signInAsOwner(page, site);
    await page.goto(`${site.url}/`);

    // A fetch with the admin's cookies: create an admin through the encoded path.
    const created = await page.evaluate(async () => {
      const res = await fetch('/%61pi/config/team', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'intruder@example.com', displayName: 'Intruder', role: 1, password: 'intruder-password' }),
      });
      return { status: res.status, body: await res.text() };
    });
    expect(created.status, created.body).toBe(403);
    expect(JSON.parse(created.body)).toEqual({ crumbFail: true });

    // A plain HTML form on the page, submitted: sign the admin out through an encoded path.
    await page.evaluate(() => {
      const f = document.createElement('form');
      f.method = 'POST';
      f.action = '/%61pi/%61uth/logout';
      const i = document.createElement('input');
      i.type = 'hidden';
      i.name = 'x';
      i.value = '1';
      f.appendChild(i);
      document.body.appendChild(f);
      f.submit();
    });
    await page.waitForLoadState('load');
    // A refused plain form post gets a short page in words (not JSON); only the storefront's shared-page forms
    // (add to cart, restock, newsletter, site forms) may post without the crumb, and never an owner call.
    await page.getByRole('heading', { name: 'Please try again' }).waitFor();

    // The admin is still signed in, and the team has no intruder.
    const team = await page.evaluate(async () => {
      const me = await fetch('/api/auth/me');
      const t = await fetch('/api/config/team');
      return { me: me.status, team: await t.text() };
    });
    expect(team.me).toBe(200);
    expect(team.team).not.toContain('intruder@example.com');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_KINDS } from '../../helpers/db.js';
import { OWNER, testApp, Visitor, type TestApp } from '../../helpers/app.js';
import { FONT_LIBRARY } from '../../../src/core/font-library.js';
import { platform as pm } from '../../../src/core/messages.js';
import { emailLookFor } from '../../../src/server/mail/index.js';
import { DEFAULT_EMAIL_LOOK } from '../../../src/core/site-styles.js';

const API = '/api/editor';
const PRODUCT = '/shop/p/linen-camp-shirt';
const lora = FONT_LIBRARY.find((f) => f.id === 'lora')!;
const inter = FONT_LIBRARY.find((f) => f.id === 'inter')!;

/**
 * Site styles everywhere (issue #27): one set of design tokens from Site styles in the <head> of every
 * page the site serves (theme pages, shop, cart, checkout, account, form results, newsletter pages),
 * @font-face rules only for the library families the styles use, with files served by the site itself;
 * a save shows on the next page even where whole pages are cached.
 */
describe.each(APP_KINDS)('site styles everywhere on %s', (kind) => {
  let t: TestApp;
  let owner: Visitor;

  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    owner = new Visitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const page = async (url: string) => (await new Visitor(t.app).get(url, { accept: 'text/html' })).body;

  it('a save reaches the shop, cart, checkout, account, newsletter and form-result pages, through the page cache; only chosen families are loaded, from the site', async () => {
    // The product page is kept whole for visitors: the second visit is a cache hit.
    await page(PRODUCT);
    await t.app.pageCache.idle();
    const hitsBefore = t.app.pageCache.stats.hits;
    const before = await page(PRODUCT);
    expect(t.app.pageCache.stats.hits).toBe(hitsBefore + 1);
    expect(before).not.toContain('ts-site-styles');

    const siteId = (await t.app.services.websites.get()).id;
    expect(await emailLookFor(t.database.db, siteId)).toEqual(DEFAULT_EMAIL_LOOK);
    const { styles, version } = (await owner.get(`${API}/styles`)).json();
    // Styles saved before issue #27 read back with the default button style and spacing.
    expect(styles.buttons).toEqual({ primary: { shape: 'pill', fill: 'solid', uppercase: false } });
    expect(styles.spacing).toEqual({ scale: 'comfortable' });
    const usage = styles.fonts.usageCategories;
    const r = await owner.send('PUT', `${API}/styles`, {
      version,
      changes: {
        'colors.palette': { ...styles.colors.palette, accent: '#aa3300' },
        'fonts.usageCategories': {
          ...usage,
          buttons: { ...usage.buttons, family: lora.stack, weight: 700 },
          body: { ...usage.body, family: inter.stack, weight: 400 },
        },
        'buttons.primary': { shape: 'square', fill: 'solid', uppercase: true },
        'spacing.scale': 'spacious',
      },
    });
    expect(r.statusCode, r.body).toBe(200);
    // The site's emails take the saved look (accent button, square, the buttons font).
    expect((await emailLookFor(t.database.db, siteId)).button).toContain(
      'font-weight:700;background:#aa3300;color:#ffffff;border:2px solid #aa3300;text-decoration:none;border-radius:0;text-transform:uppercase',
    );
    const preview = await owner.get('/api/config/engagement/emails/newsletter-confirmation');
    expect(preview.statusCode).toBe(200);
    expect(preview.json().email.html).toContain('background:#aa3300;color:#ffffff;');

    const formResult = await new Visitor(t.app).send('POST', '/api/form/submit/no-such-form', 'name=x', {
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
    });
    expect(formResult.headers['content-type']).toMatch(/^text\/html/);
    const pages: Record<string, string> = {
      product: await page(PRODUCT),
      cart: await page('/cart'),
      checkout: await page('/checkout'),
      signIn: await page('/account/login'),
      newsletter: await page('/newsletter/confirm/not-a-token'),
      notFound: await page('/no-such-page-here'),
      formResult: formResult.body,
    };
    for (const [name, html] of Object.entries(pages)) {
      const head = /<style id="ts-site-styles">([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
      expect(head, name).toContain(':root:root{--accent:#aa3300;--accent-text:#ffffff;');
      expect(head, name).toContain('--btn-radius:0;');
      expect(head, name).toContain('--btn-transform:uppercase;');
      expect(head, name).toContain('--ts-space:1.35');
      expect(head, name).toContain(`--ts-font-buttons:${lora.stack};--ts-weight-buttons:700;`);
      // Only the chosen families, at the chosen weights (body text also bold), from this site.
      expect(head, name).toMatch(
        /@font-face\{font-family:'Lora';font-style:normal;font-display:swap;font-weight:700;[^}]*src:url\(\/site-fonts\/lora\/[\d.]+\/lora-latin-700-normal\.woff2\)/,
      );
      expect(head, name).toContain("font-family:'Inter';font-style:normal;font-display:swap;font-weight:400;");
      expect(head, name).toContain("font-family:'Inter';font-style:normal;font-display:swap;font-weight:700;");
      expect(head, name).not.toContain('font-weight:600;');
      expect(head, name).not.toMatch(/Playfair|Roboto'|Montserrat/);
      expect(
        [...head.matchAll(/url\(([^)]*)\)/g)].every((m) => m[1]!.startsWith('/site-fonts/')),
        name,
      ).toBe(true);
      expect(html, name).not.toMatch(/fonts\.googleapis|fonts\.gstatic|use\.typekit|fonts\.bunny/);
    }

    // The font files come from the site, cached for a year under their package version.
    const url = /url\((\/site-fonts\/lora\/[\d.]+\/lora-latin-700-normal\.woff2)\)/.exec(pages.product!)![1]!;
    const font = await t.app.inject({ method: 'GET', url });
    expect(font.statusCode).toBe(200);
    expect(font.headers['content-type']).toBe('font/woff2');
    expect(font.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(font.rawPayload.subarray(0, 4).toString('latin1')).toBe('wOF2');
    const pkgVersion = url.split('/')[3]!;
    for (const bad of [
      `/site-fonts/lora/0.0.1/lora-latin-700-normal.woff2`,
      `/site-fonts/not-a-font/${pkgVersion}/lora-latin-700-normal.woff2`,
      `/site-fonts/lora/${pkgVersion}/inter-latin-700-normal.woff2`,
      `/site-fonts/lora/${pkgVersion}/lora-latin-700-normal.woff`,
      `/site-fonts/lora/${pkgVersion}/..%2F..%2Fpackage.json`,
      `/site-fonts/lora/${pkgVersion}/lora-latin-950-normal.woff2`,
    ]) {
      const res = await t.app.inject({ method: 'GET', url: bad });
      // 404, or 400 where the hardening refuses an encoded slash before routing: never a file.
      expect([400, 404], bad).toContain(res.statusCode);
      expect(res.headers['content-type'], bad).not.toBe('font/woff2');
    }
    // The preview faces of Site styles: every family at 400 and 700, plus weights asked for.
    const lib = await t.app.inject({ method: 'GET', url: '/site-fonts/library.css?w=montserrat-300,nope-400' });
    expect(lib.statusCode).toBe(200);
    for (const f of FONT_LIBRARY) expect(lib.body).toContain(`font-family:'${f.name}'`);
    expect(lib.body).toContain("font-family:'Montserrat';font-style:normal;font-display:swap;font-weight:300;");
    expect(lib.body).not.toContain('nope');
  });

  it('button and spacing values that are not offered are refused, and nothing is applied', async () => {
    const { styles, version } = (await owner.get(`${API}/styles`)).json();
    const shape = await owner.send('PUT', `${API}/styles`, {
      version,
      changes: { 'buttons.primary': { shape: 'blob', fill: 'solid', uppercase: false }, 'spacing.scale': 'compact' },
    });
    expect(shape.statusCode).toBe(400);
    expect(shape.json().message).toBe(pm.notExpectedOption('blob'));
    const spacing = await owner.send('PUT', `${API}/styles`, { version, changes: { 'spacing.scale': 'huge' } });
    expect(spacing.statusCode).toBe(400);
    expect(spacing.json().message).toBe(pm.notExpectedOption('huge'));
    const upper = await owner.send('PUT', `${API}/styles`, {
      version,
      changes: { 'buttons.primary': { shape: 'pill', fill: 'solid', uppercase: 'yes' } },
    });
    expect(upper.statusCode).toBe(400);
    const after = (await owner.get(`${API}/styles`)).json();
    expect(after.version).toBe(version);
    expect(after.styles).toEqual(styles);
  });
});

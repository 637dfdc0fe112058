/**
 * Screenshots of the /config admin for the README (docs/screenshots/): the dashboard, the products list and the
 * site settings at 1280 px and 390 px, on a fresh seeded site. Run: npx tsx scripts/admin-screenshots.ts
 * (builds nothing itself: run `npm run build` first when the browser bundle is stale).
 */
import { launchBrowser, liveSite, signInAsOwner } from '../test/helpers/browser.js';

const SHOTS = [
  { name: 'dashboard', path: '/config', ready: 'Set-up checklist' },
  { name: 'product-list', path: '/config/products', ready: 'Products' },
  { name: 'settings', path: '/config/settings', ready: 'Identity' },
];

const site = await liveSite('pglite', { RATE_LIMIT_STORE: 'memory' });
const b = await launchBrowser();
try {
  for (const width of [1280, 390]) {
    const ctx = await b.browser.newContext({ viewport: { width, height: width > 500 ? 900 : 844 }, colorScheme: 'light' });
    const page = await ctx.newPage();
    await signInAsOwner(page, site);
    for (const s of SHOTS) {
      await page.goto(`${site.url}${s.path}`);
      await page.getByRole('heading', { name: s.ready }).first().waitFor();
      await page.waitForTimeout(300);
      await page.screenshot({ path: `docs/screenshots/${s.name}-${width}.png`, fullPage: width > 500 });
      process.stdout.write(`docs/screenshots/${s.name}-${width}.png\n`);
    }
    await ctx.close();
  }
} finally {
  await b.close();
  await site.close();
}

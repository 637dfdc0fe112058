import { launchBrowser, liveSite, signInAsOwner } from '../test/helpers/browser.js';
const SHOTS = [
  { name: 'coupons', path: '/config/coupons', ready: 'Coupons' },
  { name: 'shipping', path: '/config/shipping', ready: 'Shipping' },
  { name: 'tax', path: '/config/tax', ready: 'Tax' },
  { name: 'settings', path: '/config/settings', ready: 'Region' },
  { name: 'features', path: '/config/features', ready: 'Features' },
  { name: 'analytics', path: '/config/analytics', ready: 'Analytics settings' },
  { name: 'orders', path: '/config/orders', ready: 'Orders' },
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
      if (s.name === 'shipping' || s.name === 'coupons' || s.name === 'tax') {
        const form = page.locator('form.admin-form').last();
        await form.getByRole('button').first().click();
        await page.waitForTimeout(300);
      }
      const wide = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
      await page.screenshot({ path: `/tmp/admin-shots/${s.name}-${width}.png`, fullPage: true });
      process.stdout.write(`${s.name}-${width} sideways=${wide}\n`);
    }
    await ctx.close();
  }
} finally {
  await b.close();
  await site.close();
}

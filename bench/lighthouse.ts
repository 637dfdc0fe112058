/**
 * Lighthouse-style budget for the product page, measured in Chromium over loopback:
 * largest contentful paint, cumulative layout shift (PerformanceObserver in the page, buffered from
 * the first byte) and the JavaScript the page loads (every script response until the network is quiet,
 * so the island chunks loaded after the first paint count too; gzipped here with level 9 so the figure
 * does not depend on the server's compression settings).
 *
 * Budget: LCP under 1 s, CLS 0, JavaScript under 80 KB gzipped. Prints figures; asserts nothing.
 *
 * Then the SEO basics of Lighthouse's SEO audit for the home, product and journal pages, read from the
 * rendered page in Chromium: title, meta description, canonical (absolute, without the query's tracking
 * parameters), hreflang alternates, robots (meta and X-Robots-Tag), plus og:image, JSON-LD types and the
 * RSS link; and whether /robots.txt and /sitemap.xml answer.
 *
 * Run: npx tsx bench/lighthouse.ts   (BENCH_RUNS=5, BENCH_PATH=/shop/p/linen-camp-shirt, BENCH_DB=pglite,
 * BENCH_SEO_ONLY=1 for the SEO report alone, BENCH_LANGUAGES=fr,de to make the demo site multilingual first)
 */
import { gzipSync } from 'node:zlib';

process.env.NODE_ENV ??= 'production';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PATHS = (process.env.BENCH_PATH ?? '/shop/p/linen-camp-shirt,/,/journal/how-we-choose-our-linen,/gallery').split(',');
const KIND = (process.env.BENCH_DB ?? 'pglite') as 'pglite' | 'postgres';

interface Vitals {
  lcp: number;
  cls: number;
  fcp: number;
  lcpElement: string;
}

const OBSERVE = () => {
  const w = window as unknown as { __vitals: { lcp: number; cls: number; fcp: number; lcpElement: string } };
  w.__vitals = { lcp: 0, cls: 0, fcp: 0, lcpElement: '' };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as Array<PerformanceEntry & { element?: Element }>) {
      w.__vitals.lcp = e.startTime;
      w.__vitals.lcpElement = e.element
        ? `${e.element.tagName.toLowerCase()}${e.element.className ? '.' + String(e.element.className).split(' ')[0] : ''}`
        : '';
    }
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>)
      if (!e.hadRecentInput) w.__vitals.cls += e.value;
  }).observe({ type: 'layout-shift', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') w.__vitals.fcp = e.startTime;
  }).observe({ type: 'paint', buffered: true });
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function main() {
  const { liveSite, launchBrowser } = await import('../test/helpers/browser.js');
  const [site, b] = await Promise.all([liveSite(KIND, { LOG_LEVEL: 'silent', WORKERS: 'false' }), launchBrowser()]);
  try {
    console.log(`Lighthouse-style budget (${KIND}, Chromium, loopback, ${RUNS} cold loads per page, median)\n`);
    // Warm up: the first request of a fresh server compiles code paths and makes the image variants.
    const warm = await b.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const wp = await warm.newPage();
    for (const path of PATHS) await wp.goto(site.url + path, { waitUntil: 'load' });
    await warm.close();
    for (const path of process.env.BENCH_SEO_ONLY ? [] : PATHS) {
      const runs: Vitals[] = [];
      let jsRaw = 0;
      let jsGzip = 0;
      const scripts = new Set<string>();
      for (let i = 0; i < RUNS; i++) {
        // A fresh context each run: nothing cached, like a first visit.
        const context = await b.browser.newContext({ viewport: { width: 1280, height: 900 } });
        const page = await context.newPage();
        await page.addInitScript(OBSERVE);
        const bodies: Array<Promise<Buffer | null>> = [];
        if (i === 0) {
          page.on('response', (res) => {
            const type = res.headers()['content-type'] ?? '';
            if (res.request().resourceType() === 'script' || type.includes('javascript')) {
              scripts.add(new URL(res.url()).pathname);
              bodies.push(res.body().catch(() => null));
            }
          });
        }
        await page.goto(site.url + path, { waitUntil: 'load' });
        await page.waitForTimeout(400);
        // Islands load their chunks after the first paint: count every script once the network is quiet.
        if (i === 0) await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => {});
        // LCP is final once the visitor interacts; a key press ends it like Lighthouse does.
        await page.keyboard.press('Shift');
        runs.push(await page.evaluate(() => (window as unknown as { __vitals: Vitals }).__vitals));
        if (i === 0) {
          for (const body of await Promise.all(bodies)) {
            if (!body) continue;
            jsRaw += body.length;
            jsGzip += gzipSync(body, { level: 9 }).length;
          }
        }
        await context.close();
      }
      const lcp = median(runs.map((r) => r.lcp));
      const cls = Math.max(...runs.map((r) => r.cls));
      const fcp = median(runs.map((r) => r.fcp));
      console.log(path);
      console.log(`  FCP ${fcp.toFixed(0)} ms   LCP ${lcp.toFixed(0)} ms (${runs[0]?.lcpElement || 'n/a'})   CLS ${cls.toFixed(3)}`);
      console.log(`  JavaScript: ${scripts.size} files, ${(jsRaw / 1024).toFixed(1)} KB raw, ${(jsGzip / 1024).toFixed(1)} KB gzipped`);
      console.log(
        `  budget (LCP < 1000 ms, CLS 0, JS < 80 KB gzipped): LCP ${lcp < 1000 ? 'ok' : 'OVER'}, CLS ${cls === 0 ? 'ok' : 'OVER'}, JS ${jsGzip / 1024 < 80 ? 'ok' : 'OVER'}\n`,
      );
    }
    // BENCH_LANGUAGES=fr,de: the site's translation languages, so hreflang alternates show in the report.
    const langs = (process.env.BENCH_LANGUAGES ?? '').split(',').filter((x) => /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/.test(x));
    if (langs.length) {
      const m = JSON.stringify({ languages: langs.map((code) => ({ code, customCoded: false })), connected: true });
      await site.database.exec(`UPDATE websites SET settings = settings || jsonb_build_object('multilingual', '${m}'::jsonb)`);
    }
    await seoReport(site.url, b.browser);
  } finally {
    await b.close();
    await site.close();
  }
}

const SEO_PATHS = ['/', '/shop/p/linen-camp-shirt', '/journal', '/journal/how-we-choose-our-linen'];

interface SeoBasics {
  title: string;
  description: string;
  canonical: string;
  hreflang: string[];
  robotsMeta: string;
  ogImage: string;
  jsonLd: string[];
  rss: string;
}

async function seoReport(base: string, browser: import('playwright-core').Browser) {
  console.log('SEO basics (Lighthouse SEO audit items, from the rendered page)\n');
  const context = await browser.newContext();
  const page = await context.newPage();
  for (const path of SEO_PATHS) {
    // A tracking parameter on the way in: the canonical address must not keep it.
    const res = await page.goto(`${base}${path}${path.includes('?') ? '&' : '?'}utm_source=bench`, { waitUntil: 'load' });
    // A string, not a function: tsx names inner functions with a helper the page does not have.
    const s = (await page.evaluate(`(() => {
      const attr = (sel, a) => document.querySelector(sel)?.getAttribute(a) ?? '';
      return {
        title: document.title,
        description: attr('meta[name="description"]', 'content'),
        canonical: attr('link[rel="canonical"]', 'href'),
        hreflang: [...document.querySelectorAll('link[rel="alternate"][hreflang]')].map((l) => l.getAttribute('hreflang') ?? ''),
        robotsMeta: attr('meta[name="robots"]', 'content'),
        ogImage: attr('meta[property="og:image"]', 'content'),
        jsonLd: [...document.querySelectorAll('script[type="application/ld+json"]')].map((x) => {
          try { return String(JSON.parse(x.textContent ?? '')['@type']); } catch { return 'invalid JSON'; }
        }),
        rss: attr('link[rel="alternate"][type="application/rss+xml"]', 'href'),
      };
    })()`)) as SeoBasics;
    const xRobots = res?.headers()['x-robots-tag'] ?? '';
    const indexable = !/noindex/.test(s.robotsMeta + xRobots);
    const canonicalOk = /^https?:\/\//.test(s.canonical) && !s.canonical.includes('utm_');
    console.log(path);
    console.log(`  title: ${s.title ? `"${s.title}" (${s.title.length} chars)` : 'MISSING'}`);
    console.log(`  description: ${s.description ? `${s.description.length} chars` : 'MISSING'}`);
    console.log(`  canonical: ${s.canonical || 'MISSING'} ${canonicalOk ? '(absolute, no tracking parameters)' : '(NOT OK)'}`);
    console.log(`  hreflang: ${s.hreflang.length ? s.hreflang.join(', ') : 'none (the site has one language)'}`);
    console.log(`  robots: ${indexable ? 'indexable' : `noindex (${s.robotsMeta || xRobots})`}`);
    console.log(
      `  og:image: ${s.ogImage ? (/^https?:\/\//.test(s.ogImage) ? 'absolute' : 'RELATIVE') : 'none'}   JSON-LD: ${s.jsonLd.join(', ') || 'none'}   RSS link: ${s.rss || 'none'}\n`,
    );
  }
  for (const path of ['/robots.txt', '/sitemap.xml', '/journal?format=rss', '/products.xml', '/search?q=linen']) {
    const res = await page.goto(base + path);
    const body = (await res?.text()) ?? '';
    const extra =
      path === '/sitemap.xml'
        ? `, ${body.split('<url>').length - 1} addresses`
        : path === '/products.xml'
          ? `, ${body.split('<item>').length - 1} entries`
          : path.includes('rss')
            ? `, ${body.split('<item>').length - 1} posts`
            : '';
    const robots = path.startsWith('/search')
      ? `, robots: ${
          (await page
            .locator('meta[name="robots"]')
            .getAttribute('content')
            .catch(() => null)) ?? 'indexable'
        }`
      : '';
    console.log(`${path}: ${res?.status()} ${res?.headers()['content-type'] ?? ''}${extra}${robots}`);
  }
  await context.close();
}

await main();
process.exit(0);

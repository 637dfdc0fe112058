/**
 * Template engine benchmark: compile once, render many, on three realistic
 * templates, side by side with the reference package (@squarespace/template-engine,
 * a devDependency used only here). Prints ops/s, the ratio and output identity.
 * Run: npx tsx bench/template.ts
 */
import { createRequire } from 'node:module';
import { compile, render } from '../src/template';
import '../src/server/cldr-packs';
import { cldrFor } from '../src/template/cldr';

const require = createRequire(import.meta.url);

const { Compiler } = require('@squarespace/template-engine');

const NOW = 1700000000000;

function products(n: number) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const variants = [];
    const vc = 1 + (i % 3);
    for (let v = 0; v < vc; v++) {
      const price = 1000 + i * 37 + v * 250;
      variants.push({
        price,
        priceMoney: { value: (price / 100).toFixed(2), currency: 'USD' },
        salePrice: price - 200,
        salePriceMoney: { value: ((price - 200) / 100).toFixed(2), currency: 'USD' },
        onSale: i % 5 === 0,
        qtyInStock: i % 7 === 0 ? 0 : 10 + v,
        unlimited: i % 11 === 0,
        attributes: vc > 1 ? { Size: ['S', 'M', 'L'][v] } : {},
        optionValues: vc > 1 ? [{ optionName: 'Size', value: ['S', 'M', 'L'][v] }] : [],
      });
    }
    out.push({
      id: `p${i}`,
      collectionId: 'shop',
      recordType: 11,
      title: `Product <${i}> with a "long" title that goes on & on for a while`,
      fullUrl: `/shop/p/product-${i}`,
      excerpt: `<p>Excerpt for product ${i}. It has some <b>bold</b> text.</p>`,
      assetUrl: `https://images.example.com/p${i}.jpg`,
      originalSize: '1600x1200',
      mediaFocalPoint: { x: 0.3, y: 0.6 },
      tags: ['summer', 'New Arrivals'],
      structuredContent: {
        productType: i % 4 === 3 ? 2 : 1,
        variants,
        variantOptionOrdering: ['Size'],
        priceMoney: variants[0].priceMoney,
      },
    });
  }
  return out;
}

function posts(n: number) {
  const out = [];
  for (let i = 0; i < n; i++) {
    out.push({
      id: `post${i}`,
      title: `Journal entry number ${i}: thoughts on "things" & stuff`,
      urlId: `entry-${i}`,
      fullUrl: `/journal/entry-${i}`,
      publishOn: NOW - i * 86400000 * 3,
      addedOn: NOW - i * 86400000 * 3 - 3600000,
      author: { displayName: `Author ${i % 4}`, id: `a${i % 4}` },
      categories: ['Travel', 'Food & Drink'],
      tags: ['one', 'two', 'three'],
      publicCommentCount: i % 3,
      commentState: 1,
      starred: i % 10 === 0,
      recordTypeLabel: 'text',
      body: `<p>Body of post ${i}. ${'Lorem ipsum dolor sit amet. '.repeat(8)}</p>`,
    });
  }
  return out;
}

function catalogue(depth: number, breadth: number, prefix = 'c'): unknown {
  const node: Record<string, unknown> = { name: `Category ${prefix}`, slug: prefix, count: depth * breadth };
  if (depth > 0) {
    node.children = Array.from({ length: breadth }, (_, k) => catalogue(depth - 1, breadth, `${prefix}-${k}`));
  }
  return node;
}

const PRODUCT_LIST = `<div class="products">{.repeated section items}
<article class="{@|item-classes}" id="{id}">
  {.var @url fullUrl}
  <a href="{@url}" class="title">{title|html}</a>
  <span class="slug">{title|slugify}</span>
  <p>{excerpt|safe|truncate 60}</p>
  <img {@|image-meta}/>
  {.sold-out?}<span class="sold">{@|product-status}</span>{.or on-sale?}{@|product-status}<span class="sale">{@|sale-price}</span>{.end}
  <span class="price">{.varied-prices?}from {@|from-price}{.or}{@|normal-price}{.end}</span>
  {.has-variants?}<span class="variants">{structuredContent.variants|count} options</span>{.end}
  {.equal? structuredContent.productType 2}<span>digital</span>{.or}{@|quantity-input}{.end}
  {@|product-quick-view}
  {@|add-to-cart-btn}
  {.repeated section tags}<a href="/tag/{@|url-encode}">{@|html}</a>{.alternates with}, {.end}
  {.if @index}#{@index}{.end} {@index0|mod 2} {.even? @index}even{.or}odd{.end}
</article>{.end}
</div>`;

const JOURNAL = `<section class="journal">{.repeated section items}
{.var @date publishOn|date %B %d, %Y}
{.var @author author.displayName}
<article class="{@|item-classes}">
  <h2><a href="{fullUrl}">{title|html}</a></h2>
  <time datetime="{publishOn|date %F}">{@date}</time> at {publishOn|date %I:%M %p %Z}
  <span class="by">by {@author|html}</span>
  {.section categories}<ul>{.repeated section @}<li>{@|html}</li>{.end}</ul>{.end}
  <div class="body">{body|safe|truncate 140}</div>
  {@|comment-count} {.comments?}{@|comment-link}{.end}
  {.if starred}<span class="featured">featured</span>{.end}
  {.greaterThan? publicCommentCount 1}many{.or equal? publicCommentCount 1}one{.or}none{.end}
  {.var @tagList tags|json}<script type="application/json">{@tagList}</script>
</article>{.alternates with}<hr/>{.end}
</section>`;

const CATALOGUE = `{.macro tree}<li><a href="/shop/{slug}">{name|html}</a> <span>({count})</span>{.section children}<ul>{.repeated section @}{@|apply tree}{.end}</ul>{.end}</li>{.end}<nav><ul>{@|apply tree}</ul></nav>`;

const MONEY_LIST = `<ul class="grid">{.repeated section items}
<li class="card" data-id="{id}">
  <a href="{fullUrl}">{title|html}</a>
  <span class="money">{structuredContent.priceMoney|money}</span>
  {@|product-price}
  <span class="from" data-from="{@|from-price}">{.varied-prices?}varied{.end}</span>
</li>{.end}
</ul>`;

const MONEY_CATALOGUE = `{.macro tree}<li><a href="/shop/{slug}">{name|html}</a> <span class="total">{total|money}</span> <span class="avg">{average|money}</span>{.section children}<ul>{.repeated section @}{@|apply tree}{.end}</ul>{.end}</li>{.end}<nav><ul>{@|apply tree}</ul></nav>`;

function pricedCatalogue(depth: number, breadth: number, prefix = 'c'): Record<string, unknown> {
  const node = catalogue(depth, breadth, prefix) as Record<string, unknown>;
  const seed = prefix.length * 7919 + prefix.split('').reduce((a, c) => a + c.charCodeAt(0), 0);
  node.total = { decimalValue: (seed * 13.37).toFixed(2), currencyCode: 'USD' };
  node.average = { value: ((seed % 997) + 0.5).toFixed(2), currency: 'USD' };
  if (Array.isArray(node.children)) node.children = node.children.map((_, k) => pricedCatalogue(depth - 1, breadth, `${prefix}-${k}`));
  return node;
}

const cases = [
  { name: '200-product list', template: PRODUCT_LIST, json: { items: products(200), website: { timeZone: 'America/New_York' } } },
  {
    name: '200-post journal',
    template: JOURNAL,
    json: { items: posts(200), websiteSettings: { commentsEnabled: true }, website: { timeZone: 'America/New_York' } },
  },
  { name: 'nested catalogue (recursive macro)', template: CATALOGUE, json: catalogue(5, 4) },
  { name: '200-product list with money', template: MONEY_LIST, json: { items: products(200) } },
  { name: 'catalogue with money in a macro', template: MONEY_CATALOGUE, json: pricedCatalogue(5, 4) },
];

/** Total measuring time per engine per template (ms); BENCH_MS overrides. */
const TOTAL_MS = Number(process.env.BENCH_MS) || 2000;
/** Slice length: the engines alternate in slices this long, so machine noise hits both alike. */
const SLICE_MS = 100;
/** BENCH_ONLY=tessera or =reference runs one side only (for profiling). */
const ONLY = process.env.BENCH_ONLY ?? '';

/**
 * BENCH_CLOCK=cpu measures process CPU time instead of wall time, which is
 * steadier on a loaded shared machine (time spent descheduled is not counted).
 */
const CPU_CLOCK = process.env.BENCH_CLOCK === 'cpu';
function clock(): number {
  if (!CPU_CLOCK) return performance.now();
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Run fn repeatedly for about ms; returns [runs, elapsed ms]. */
function slice(fn: () => void, ms: number): [number, number] {
  let n = 0;
  const start = clock();
  let now = start;
  do {
    fn();
    n++;
    now = clock();
  } while (now - start < ms);
  return [n, now - start];
}

/** Warm both engines up, then alternate slices until each has run TOTAL_MS; ops/s for each. */
function race(a: () => void, b: () => void): [number, number] {
  const sides = [a, b].map((fn, i) => ({ fn, on: ONLY === '' || ONLY === (i === 0 ? 'tessera' : 'reference'), runs: 0, ms: 0 }));
  for (const s of sides) if (s.on) slice(s.fn, Math.min(500, TOTAL_MS / 4));
  while (sides.some((s) => s.on && s.ms < TOTAL_MS)) {
    for (const s of sides) {
      if (!s.on || s.ms >= TOTAL_MS) continue;
      const [n, ms] = slice(s.fn, SLICE_MS);
      s.runs += n;
      s.ms += ms;
    }
  }
  return sides.map((s) => (s.ms > 0 ? (s.runs * 1000) / s.ms : NaN)) as [number, number];
}

const reference = new Compiler();
/** The reference formats i18n through the CLDR instance it is given; both engines use en-US. */
const cldr = cldrFor('en-US');
console.log(`${TOTAL_MS} ms${CPU_CLOCK ? ' (CPU time)' : ''} per engine per template, interleaved in ${SLICE_MS} ms slices after warm-up`);
console.log('template'.padEnd(38), 'tessera ops/s'.padStart(14), 'reference ops/s'.padStart(16), 'ratio'.padStart(7), ' identical');
const PICK = process.env.BENCH_CASE ?? '';
for (const c of cases.filter((x) => PICK === '' || x.name.startsWith(PICK))) {
  const mine = compile(c.template);
  if (mine.errors.length) throw new Error(`${c.name}: ${mine.errors[0].message}`);
  const ref = reference.parse(c.template);
  const opts = { now: NOW };
  const a = render(mine.code, c.json, opts).output;
  const b = reference.execute({ code: ref.code, json: c.json, now: NOW, cldr }).ctx.render();
  const identical = a === b;
  const [ours, theirs] = race(
    () => render(mine.code, c.json, opts),
    () => reference.execute({ code: ref.code, json: c.json, now: NOW, cldr }).ctx.render(),
  );
  console.log(
    c.name.padEnd(38),
    ours.toFixed(0).padStart(14),
    theirs.toFixed(0).padStart(16),
    (ours / theirs).toFixed(2).padStart(6) + 'x',
    ' ' + (identical ? 'yes' : 'NO'),
    `(${a.length} bytes)`,
  );
  if (!identical) {
    let i = 0;
    while (a[i] === b[i]) i++;
    console.log('  first difference at', i, JSON.stringify(a.slice(i - 40, i + 40)), 'vs', JSON.stringify(b.slice(i - 40, i + 40)));
  }
}

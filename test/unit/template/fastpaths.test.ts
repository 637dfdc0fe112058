/**
 * Differential tests for the executor's fast paths: formatted variables that
 * skip the frame push, frame variables, the root-only macro lookup, the
 * per-render product memo, cached escapes, tag stripping, truncation,
 * url-encoding and focal points. Each case must agree with the reference.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { compile, render } from '../../../src/template';

const require = createRequire(import.meta.url);

const { Compiler } = require('@squarespace/template-engine');
const reference = new Compiler();

const NOW = 1700000000000;

function both(tpl: string, json: unknown, partials: Record<string, string> = {}): { mine: string; ref: string } {
  const opts = { partials, now: NOW };
  const ref = reference.execute({ code: tpl, json, ...opts });
  const mine = render(tpl, json, opts);
  expect(mine.errors.map((e) => e.message)).toEqual(ref.errors.map((e: { message: string }) => e.message));
  return { mine: mine.output, ref: ref.ctx.render() };
}

const product = (qty: number, extra: Record<string, unknown> = {}) => ({
  id: 'p1',
  recordType: 11,
  title: 'T <1> "q" & more',
  tags: ['Summer Sale', 'x'],
  categories: ['A & B'],
  mediaFocalPoint: { x: 0.1 + 0.2, y: 1 / 3 },
  assetUrl: 'https://x/y.jpg',
  originalSize: '10x20',
  structuredContent: {
    productType: 1,
    variants: [
      { price: 100, priceMoney: { value: '1.00', currency: 'USD' }, onSale: false, qtyInStock: qty, salePrice: 0 },
      {
        price: 200,
        priceMoney: { value: '2.00', currency: 'USD' },
        onSale: true,
        qtyInStock: 0,
        salePrice: 150,
        salePriceMoney: { value: '1.50', currency: 'USD' },
      },
    ],
  },
  ...extra,
});

const cases: Array<[string, string, unknown, Record<string, string>?]> = [
  // Push skipped when the value is the current node, kept when it is another object.
  [
    'item-classes on @',
    '{.repeated section items}{@|item-classes}|{.end}',
    { items: [product(1), product(0, { starred: true })], tags: ['root'] },
  ],
  [
    'item-classes on another object',
    '{obj|item-classes}',
    { obj: { tags: ['inner'], recordTypeLabel: 'text' }, tags: ['outer'], starred: true },
  ],
  ['item-classes on a primitive', '{n|item-classes}', { n: 5, tags: ['outer'], author: { displayName: 'Ann Lee' } }],
  [
    'date on a primitive and on an object',
    '{t|date %Y-%m-%d %H:%M %Z} {o.t|date %F} {o|date %F}',
    { t: NOW, o: { t: NOW, website: { timeZone: 'UTC' } }, website: { timeZone: 'America/Los_Angeles' } },
  ],
  [
    'apply on @, on a primitive, private',
    '{.macro m}[{@}|{name}|{n}]{.end}{.repeated section a}{@|apply m}{n|apply m}{@|apply m private}{.end}',
    {
      a: [
        { name: 'x', n: 1 },
        { name: 'y', n: 2 },
      ],
      name: 'root',
      n: 9,
    },
  ],
  ['get with @ as an argument', '{.section s}{k|get @}/{@|get k}/{s2|get k}{.end}', { s: { k: 'name', name: 'N', s2: { name: 'M' } } }],
  [
    'format reads the parent frame',
    '{.section s}{pattern|format a b}|{@|format a}{.end}',
    { s: { pattern: '{0}-{1}', a: 'A' }, a: 'rootA', b: 'rootB' },
  ],
  ['iter in a repeated section', '{.repeated section a}{@|iter}{name|iter}{.end}', { a: [{ name: 'q' }, { name: 'r' }] }],
  [
    'lookup and find-first',
    '{.section s}{@|lookup k}{list|find-first on}{.end}',
    {
      s: {
        k: 'name',
        name: 'N',
        list: [
          { on: false, v: 1 },
          { on: true, v: 2 },
        ],
      },
    },
  ],
  // {.var} never pushes; variables are overwritten and scoped per frame and per item.
  [
    'var binding and overwrite',
    '{.var @a x|html}{.var @a y}{@a}{.section s}{.var @a z}{@a}{.end}{@a}',
    { x: '<', y: 'Y', z: 'Z', s: { z: 'SZ' } },
  ],
  ['vars reset per item', '{.repeated section a}{.if @index0}{@v}{.end}{.var @v n}{@v},{.end}', { a: [{ n: 1 }, { n: 2 }, { n: 3 }] }],
  ['ctx and index vars', '{.repeated section a}{.ctx @c k=n}{@c.k}{@index}{@index0}{.end}', { a: [{ n: 'a' }, { n: 'b' }] }],
  // Sections with and without alternates.
  [
    'false sections',
    '{.section missing}A{.end}|{.section missing}A{.or}B{@}{.end}|{.section e}E{.or}F{.end}|{.section z}{.or}Z{.end}',
    { e: [], z: 0 },
  ],
  // Macros: root-level, scoped in a section, redefined.
  ['scoped macro', '{.section s}{.macro m}in{.end}{@|apply m}{.end}{@|apply m}', { s: { a: 1 } }],
  ['macro in a repeated item', '{.repeated section a}{.macro m}<{@}>{.end}{@|apply m}{.end}{x|apply m}', { a: [1, 2], x: 3 }],
  ['root macro redefined', '{.macro m}1{.end}{@|apply m}{.macro m}2{.end}{@|apply m}', {}],
  ['partial and macro of the same name', '{.macro p}macro{.end}{@|apply p}', {}, { p: 'partial' }],
  // Escaping: the same string through different escapes, repeated.
  [
    'escape caches',
    '{s|html}{s|htmlattr}{s|html}{t|html}{t|htmltag}{long|html}',
    { s: 'a < b & "c" > d', t: '"q"', long: '<&>'.repeat(300) },
  ],
  // Tag stripping and truncation.
  ['safe', '{a|safe}|{b|safe}|{c|safe}|{d|safe}|{e|safe}', { a: 'x <b>y</b> z', b: 'no > tags <here', c: 'x<a<b>y>z', d: '<>', e: 0 }],
  ['truncate', '{a|truncate 10}|{b|truncate 5 ~}|{c|truncate 4}', { a: 'one two\tthree four', b: 'ab\ncdefgh', c: 'abcdefgh' }],
  ['url-encode', '{a|url-encode}', { a: 'A z/._-*@+ ~!é😀\u0001' }],
  [
    'image-meta focal points',
    '{.repeated section a}{@|image-meta}{.end}',
    { a: [product(1), { assetUrl: 'u', mediaFocalPoint: { x: 1, y: -0 } }, { assetUrl: 'v' }] },
  ],
  // Product predicates and prices for several items in a row.
  [
    'product facts',
    '{.repeated section items}{.sold-out?}S{.or on-sale?}O{.end}{.varied-prices?}V{@|from-price}{.or}{@|normal-price}{.end}{@|product-status}{@|sale-price}{@|quantity-input}|{.end}',
    { items: [product(0), product(3), product(0), { structuredContent: { productType: 2, priceMoney: { value: '5.00' } } }, 7] },
  ],
];

describe('fast paths agree with the reference', () => {
  for (const [name, tpl, json, partials] of cases) {
    it(name, () => {
      const { mine, ref } = both(tpl, json, partials);
      expect(mine).toBe(ref);
    });
  }
});

describe('frame-reading formatters keep the push', () => {
  it('message resolves its arguments from the frame under the pushed value', () => {
    // The reference does not render this form; the expected text is this engine's behaviour before the fast path.
    const json = { s: { pattern: 'hi {0}', x: 'X', o: { pattern: 'o {0}', x: 'OX' } }, x: 'rootX' };
    expect(render('{.section s}{pattern|message x}|{o.pattern|message x}{.end}', json).output).toBe('hi X|o X');
  });
});

describe('later variables reading @ see the pushed value', () => {
  it('relative-time between a value and itself', () => {
    // The reference renders nothing here; the expected text is this engine's behaviour before the fast path.
    const json = { s: { t: NOW, n: NOW - 86400000 * 3 } };
    expect(render('{.section s}{t,@|relative-time}|{n,@|relative-time}|{@,@|relative-time}{.end}', json, { now: NOW }).output).toBe(
      'now|now|now',
    );
  });
});

describe('per-render memo', () => {
  it('recomputes product facts when the data changes between renders', () => {
    const tpl = '{.repeated section items}{.sold-out?}sold{.or}in stock{.end} {@|item-classes}{.end}';
    const { code } = compile(tpl);
    const item = product(0);
    const json = { items: [item] };
    const first = render(code, json).output;
    (item.structuredContent.variants[0] as { qtyInStock: number }).qtyInStock = 4;
    const second = render(code, json).output;
    expect(first).toMatch(/^sold hentry/);
    expect(first).toContain('sold-out');
    expect(second).toContain('in stock');
    expect(second).not.toContain('sold-out');
    expect(second).toBe(reference.execute({ code: tpl, json }).ctx.render());
  });
});

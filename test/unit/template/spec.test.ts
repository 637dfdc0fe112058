/**
 * Spec suite: hand-written cases in test/data/template/spec/*.spec (template,
 * JSON, options, expected output, expected errors). Covers every instruction,
 * formatter and predicate, every error message, and the i18n formatters in
 * en, fr, de, es and ja. See spec-format.ts for the file format.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { render } from '../../../src/template';
import { FORMATTERS } from '../../../src/template/formatters';
import { PREDICATES } from '../../../src/template/predicates';
import { parseSpec, type SpecCase } from './spec-format';

const dir = join(__dirname, '../../data/template/spec');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.spec'))
  .sort();
const BASE = { now: 1700000000000, enableExpr: true, enableInclude: true };
const all: SpecCase[] = [];

for (const file of files) {
  const cases = parseSpec(readFileSync(join(dir, file), 'utf8'));
  all.push(...cases);
  describe(`spec: ${file}`, () => {
    for (const c of cases) {
      it(c.name, () => {
        const r = render(c.template, c.json, { ...BASE, ...c.opts });
        expect(r.output).toBe(c.output);
        expect(r.errors.map((e) => `${e.type}: ${e.message}`)).toEqual(c.errors);
      });
    }
  });
}

describe('spec coverage', () => {
  const templates = all.map((c) => c.template).join('\n');
  // Aliases the issue does not list are covered by the parity suite instead.
  const aliases = new Set(['datetimefield', 'i18n-money-format', 'money-format', 'money-string', 'moneyFormat', 'unit']);

  it('every formatter appears in a spec template', () => {
    const missing = Object.keys(FORMATTERS).filter((n) => !aliases.has(n) && !templates.includes(`|${n}`));
    expect(missing).toEqual([]);
  });

  it('every predicate appears in a spec template (generated families by at least one member)', () => {
    const used = (n: string) => templates.includes(`.${n}`) || templates.includes(`or ${n}`);
    const family = (n: string) => /^(gallery|background-source|promoted)/.exec(n)?.[1] ?? null;
    const recordTypes = ['text?', 'image?', 'video?', 'event?', 'store-item?', 'link?', 'quote?', 'gallery?'];
    expect(recordTypes.filter(used).length).toBe(recordTypes.length);
    const generated = new Set([
      'undefined?',
      'audio?',
      'binary?',
      'css-asset?',
      'tweak-asset?',
      'digital-good?',
      'attachment?',
      'wordpress-export?',
      'json-export?',
      'site-search?',
      'active-time?',
      'tweet?',
      'checkin?',
      'kbarticle?',
      'external-video?',
    ]);
    const names = Object.keys(PREDICATES);
    expect(names.filter((n) => family(n) === null && !generated.has(n) && !used(n))).toEqual([]);
    const families = new Set(names.map(family).filter((f) => f !== null));
    expect([...families].filter((f) => !names.some((n) => family(n) === f && used(n)))).toEqual([]);
  });

  it('i18n formatters are checked in five locales', () => {
    for (const f of ['date', 'datetime', 'datetime-interval', 'decimal', 'money', 'message', 'plural', 'relative-time', 'timesince']) {
      const locales = new Set(
        all.filter((c) => c.template.includes(`|${f}`) && c.opts.locale).map((c) => String(c.opts.locale).slice(0, 2)),
      );
      expect([...locales].sort(), f).toEqual(['de', 'en', 'es', 'fr', 'ja']);
    }
  });
});

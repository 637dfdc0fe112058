/**
 * Differential tests: every case is rendered by this engine and by the
 * published reference package, and output and error messages must agree.
 */
import { createRequire } from 'node:module';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { render } from '../../../src/template';

const require = createRequire(import.meta.url);

const { Compiler } = require('@squarespace/template-engine');
const reference = new Compiler();

type Case = [string, unknown, Record<string, string>?];

const dir = join(__dirname, '../../data/template/reference');
const files = readdirSync(dir).filter((f) => f.endsWith('.json'));

for (const file of files) {
  const cases = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Case[];
  describe(`reference parity: ${file}`, () => {
    cases.forEach(([tpl, json, partials], i) => {
      it(`#${i} ${tpl.slice(0, 60)}`, () => {
        const opts = { partials: partials ?? {}, enableExpr: true, enableInclude: true, now: 1700000000000 };
        const ref = reference.execute({ code: tpl, json, ...opts });
        const mine = render(tpl, json, opts);
        expect(mine.output).toBe(ref.ctx.render());
        expect(mine.errors.map((e) => e.message)).toEqual(ref.errors.map((e: { message: string }) => e.message));
      });
    });
  });
}

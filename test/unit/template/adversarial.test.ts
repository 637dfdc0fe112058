/** Adversarial templates: each ends with output or an error quickly, never a hang or a crash. */
import { describe, expect, it } from 'vitest';
import { compile, render } from '../../../src/template';

// Work that grows faster than the input would not finish on these inputs: a hang fails through the test's
// timeout. No wall-clock assertion (timings never go into tests; bench:template measures speed).
const finishes = (fn: () => void) => fn();

describe('adversarial templates', () => {
  it('unclosed blocks report EOF inside the block and still render', () => {
    const r = render('{.section a}x{.repeated section b}y', { a: { b: [1] } });
    expect(r.output).toBe('xy');
    expect(r.errors.map((e) => e.message)).toEqual(['SyntaxError: Reached EOF in the middle of REPEATED']);
    expect(r.errors[0]).toMatchObject({ type: 'assembler', line: 1 });
  });

  it('10,000 nested sections', () => {
    const n = 10000;
    const src = '{.section a}'.repeat(n) + 'deep' + '{.end}'.repeat(n);
    let json: unknown = 'leaf';
    for (let i = 0; i < n; i++) json = { a: json };
    finishes(() => {
      const r = render(src, json);
      // Either rendered fully or stopped with an engine error; never throws.
      expect(r.output === 'deep' || r.errors.length > 0).toBe(true);
    });
  });

  it('a repeated section over 100,000 items', () => {
    const items = Array.from({ length: 100000 }, (_, i) => i);
    finishes(() => {
      const r = render('{.repeated section items}{@}{.alternates with},{.end}', { items });
      expect(r.output.length).toBeGreaterThan(100000);
      expect(r.output.endsWith('99998,99999')).toBe(true);
    });
  });

  it('self-recursive partials stop at depth 16 with an engine error', () => {
    finishes(() => {
      const r = render('{@|apply p}', {}, { partials: { p: 'x{@|apply p}' } });
      expect(r.output).toBe('x'.repeat(16));
      expect(r.errors[0].message).toBe("RuntimeError: Attempt to apply partial 'p' exceeded maximum recursion depth of 16");
      expect(r.errors[0].type).toBe('engine');
    });
  });

  it('self-recursive macros stop at depth 16', () => {
    finishes(() => {
      const r = render('{.macro m}y{@|apply m}{.end}{@|apply m}', {});
      expect(r.output).toBe('y'.repeat(16));
      expect(r.errors).toHaveLength(1);
    });
  });

  it('mutually recursive partials', () => {
    const r = render('{@|apply a}', {}, { partials: { a: 'a{@|apply b}', b: 'b{@|apply a}' } });
    expect(r.output).toBe('ab'.repeat(8));
    expect(r.errors[0].message).toContain('exceeded maximum recursion depth of 16');
  });

  it('a 1 MB expression does not hang', () => {
    // A fixed wall-clock bound alone failed once with the machine's 2 cores saturated (the work takes
    // ~100 ms when quiet). So the bound also scales with a same-run baseline: the same expression at a
    // tenth of the size, timed just before and just after. Linear work costs ~10x the baseline; a
    // quadratic evaluator ~100x (and minutes in absolute terms), so 40x still catches it.
    const evalTimed = (terms: number) => {
      const expr = '1' + ' + 1'.repeat(terms);
      const t = performance.now();
      const r = render(`{.eval ${expr}}`, {}, { enableExpr: true });
      const ms = performance.now() - t;
      expect(r.output).toBe(String(terms + 1));
      return ms;
    };
    const before = evalTimed(25000);
    const big = evalTimed(250000);
    const baseline = Math.max(before, evalTimed(25000));
    expect(big).toBeLessThan(Math.max(1000, 40 * baseline));
  });

  it('a 1 MB template of unmatched braces compiles quickly', () => {
    finishes(() => {
      const { errors } = compile('{'.repeat(500000) + '}'.repeat(500000));
      expect(Array.isArray(errors)).toBe(true);
    });
  });

  it('errors carry line and column', () => {
    const r = render('line one\n  {a|nope}\n{.end}', {});
    expect(r.errors[0]).toEqual({ type: 'parser', message: "SyntaxError: Formatter 'nope' is unknown", line: 2, column: 3 });
    expect(r.errors[1]).toEqual({ type: 'assembler', message: 'SyntaxError: Instruction END not allowed at root', line: 3, column: 1 });
  });
});

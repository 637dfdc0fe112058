/** The expression evaluator behind `{.eval ...}`: hand-written expectations for every feature and error. */
import { describe, expect, it } from 'vitest';
import { render } from '../../../src/template';

const JSON_ = { a: 1, b: 2, s: 'str', n: '12', o: { x: 1 }, arr: [1, 2], t: true, z: null, PI: 'apple', items: [{ v: 3 }, { v: 4 }] };

function ev(expr: string, opts: Record<string, unknown> = {}, json: unknown = JSON_) {
  const r = render(`{.eval ${expr}}`, json, { enableExpr: true, ...opts });
  return { out: r.output, errors: r.errors.map((e) => e.message), raw: r.errors };
}
const out = (expr: string) => {
  const r = ev(expr);
  expect(r.errors).toEqual([]);
  return r.out;
};
const parseErr = (expr: string, msg: string) => `RuntimeError: Error parsing expression: ${JSON.stringify(expr)}: ${msg}`;
const reduceErr = (expr: string, msg: string) => `RuntimeError: Error reducing expression: ${expr}: ${msg}`;

describe('expressions: values and operators', () => {
  it.each([
    ['1 + 2 * 3 - 4 / 2', '5'],
    ['(1 + 2) * 3', '9'],
    ['7 % 4', '3'],
    ['2 ** 3 ** 2', '512'],
    ['2 ** -1', '0.5'],
    ['-2 ** 2', '4'],
    ['1 - -2', '3'],
    ['+"3"', '3'],
    ['1/3', '0.3333333333333333'],
    ['1e21', '1e+21'],
    ['0x1F + 0X01', '32'],
    ['1.5e2', '150'],
    ['-0', '0'],
    ['1 / 0', 'Infinity'],
    ['0 / 0', 'NaN'],
    ['1 << 4', '16'],
    ['-16 >> 2', '-4'],
    ['5 & 3', '1'],
    ['5 | 3', '7'],
    ['5 ^ 3', '6'],
    ['~5', '-6'],
    ['1 < 2', 'true'],
    ['2 <= 1', 'false'],
    ['"b" > "a"', 'true'],
    ['2 >= 2', 'true'],
    ['"1" == 1', 'true'],
    ['"1" === 1', 'false'],
    ['1 != "1"', 'false'],
    ['1 !== "1"', 'true'],
    ['null == 0', 'false'],
    ['NaN == NaN', 'false'],
    ['!0', 'true'],
    ['!!"x"', 'true'],
    ['1 && 0', 'false'],
    ['0 || "x"', 'true'],
    ['"a" + 1', 'a1'],
    ['1 + "a"', '1a'],
    ['"a" + true + null', 'atruenull'],
    ['true + true', '2'],
    ['null + 1', '1'],
    ['"3" * "4"', '12'],
    ['"x" * 2', 'NaN'],
    ['"1e3" * 1', '1000'],
    ['"0x10" * 1', '16'],
    ['" 1" * 1', 'NaN'],
    ['"" * 1', '0'],
    ['1, 2', '2'],
    ['1 2 3', '3'],
  ])('%s = %s', (expr, expected) => {
    expect(out(expr)).toBe(expected);
  });

  it('null and missing values print nothing', () => {
    expect(out('null')).toBe('');
    expect(out('missing')).toBe('');
    expect(out('missing.deep')).toBe('');
    expect(out('z')).toBe('');
  });

  it('constants', () => {
    expect(out('PI')).toBe(String(Math.PI));
    expect(out('E')).toBe(String(Math.E));
    expect(out('Infinity')).toBe('Infinity');
    expect(out('-Infinity')).toBe('-Infinity');
    expect(out('NaN')).toBe('NaN');
    expect(out('true')).toBe('true');
    expect(out('false')).toBe('false');
    // The JSON's own PI is reachable through @.
    expect(out('@.PI')).toBe('apple');
  });

  it('functions', () => {
    expect(out('max(1, 7, 3)')).toBe('7');
    expect(out('min(4, -1, 2)')).toBe('-1');
    expect(out('max(min(1, 2), abs(-3))')).toBe('3');
    expect(out('max("5", 2)')).toBe('5');
    expect(out('abs(-5)')).toBe('5');
    expect(out('num("12") + 1')).toBe('13');
    expect(out('num("-0x1F")')).toBe('-31');
    expect(out('num(true)')).toBe('1');
    expect(out('num(null)')).toBe('0');
    expect(out('str(1.5) + 1')).toBe('1.51');
    expect(out('str(null)')).toBe('null');
    expect(out('bool("")')).toBe('false');
    expect(out('bool("x")')).toBe('true');
    // Arguments that are objects or arrays are ignored.
    expect(out('max(o, 1)')).toBe('1');
  });

  it('strings and escapes', () => {
    expect(out(`'single' + "double"`)).toBe('singledouble');
    expect(out(`"\\x41\\u00e9\\U0001F600"`)).toBe('Aé😀');
    expect(out(`'a\\nb\\tc'`)).toBe('a\nb\tc');
    expect(out(`"\\"q\\" \\'s\\' \\\\"`)).toBe(`"q" 's' \\`);
    // Control characters from escapes become spaces; unknown escapes are the character.
    expect(out(`"[\\x00][\\u0007][\\U00110000]"`)).toBe('[ ][ ][ ]');
    expect(out(`"\\b\\v\\z"`)).toBe('bvz');
  });

  it('variable references into the JSON', () => {
    expect(out('a + b')).toBe('3');
    expect(out('n * 2')).toBe('24');
    expect(out('s + a')).toBe('str1');
    expect(out('items.0.v + items.1.v')).toBe('7');
    expect(out('arr.0 + arr.1')).toBe('3');
    expect(out('o.x * 10')).toBe('10');
    expect(out('t + 1')).toBe('2');
  });

  it('statements and assignment to @variables', () => {
    const r = render('{.eval @x = 3; @y = @x * 2; @x + @y}|{@x}|{@y}', {}, { enableExpr: true });
    expect(r.output).toBe('9|3|6');
    expect(r.errors).toEqual([]);
    // An assignment prints nothing; assigning to a non-@ name or a path does nothing.
    expect(render('{.eval x = 1; @q.r = 2; @ok = "yes"}{x}{@ok}', {}, { enableExpr: true }).output).toBe('yes');
    // An object cannot be assigned.
    expect(render('{.eval @v = o}[{@v}]', JSON_, { enableExpr: true }).output).toBe('[]');
  });

  it('variables live in the current scope (as {.var} does) and see loop indexes', () => {
    const r = render('{.eval @t = 0}{.repeated section items}{.eval @t = @t + v * @index}{@t},{.end}[{@t}]', JSON_, {
      enableExpr: true,
    });
    expect(r.output).toBe('3,8,[0]');
  });

  it('a failing expression keeps none of its assignments and prints nothing', () => {
    const r = render('{.eval @x = 1}{.eval @x = 5; @y = 2; 1 +}[{@x}{@y}]', {}, { enableExpr: true });
    expect(r.output).toBe('[1]');
    expect(r.errors.map((e) => e.message)).toEqual([reduceErr('@x = 5; @y = 2; 1 +', 'Invalid arguments to operator add')]);
  });

  it('is off unless enableExpr is set', () => {
    expect(render('{.eval 1 + 1}', {}).output).toBe('');
    expect(render('{.eval 1 + 1}', {}, { enableExpr: false }).output).toBe('');
    expect(render('{.eval 1 + 1}', {}, { enableExpr: true }).output).toBe('2');
  });

  it('a leading # prints the assembled expression', () => {
    expect(out('#1 + 2 * 3')).toBe('EVAL=[[1 2 3 <multiply> <add>]] -> 7');
    expect(out('#@x = max(1, "a"); -b')).toBe('EVAL=[[@x <args> 1 "a" max() <assign>], [b <unary minus>]] -> -2');
  });

  it('.if does not take expressions (as on the platform): the tag stays text', () => {
    const r = render('{.if 1 + 1 == 2}Y{.end}', {}, { enableExpr: true });
    expect(r.output).toBe('{.if 1 + 1 == 2}Y');
  });
});

describe('expressions: errors', () => {
  it.each([
    ['"abc', 'Unterminated string'],
    ['"a\nb"', 'Illegal bare line feed character in string literal'],
    ['"\\x4"', 'Invalid 2-char hex escape found'],
    ['"\\xZZ"', 'Invalid 2-char hex escape found'],
    ['"\\u12"', 'Invalid unicode escape found'],
    ['"\\U0001F60"', 'Invalid unicode escape found'],
    ['1.2.3', 'Duplicate decimal point in number'],
    ['1e', 'Expected a digit after exponent in decimal number'],
    ['1e+', 'Expected a digit after exponent in decimal number'],
    ['1e5.0', 'Unexpected decimal point in exponent'],
    ['0x', 'Expected digits after start of hex number'],
    ['foo(1)', 'Invalid function foo'],
    ['pi(1)', 'Invalid function pi'],
    ['(1 + 2', 'Mismatched operator found: left paren'],
    ['1 + 2)', 'Mismatched operator found: right paren'],
    ['1 ? 2', 'Unexpected character at 2: "?"'],
    ['1 \f 2', 'Unexpected form feed at 2: "\\f"'],
    ['$', 'Unexpected character at 0: "$"'],
  ])('parse error: %j', (expr, msg) => {
    const r = ev(expr);
    expect(r.out).toBe('');
    expect(r.errors).toEqual([parseErr(expr, msg)]);
    expect(r.raw[0].type).toBe('engine');
    expect(r.raw[0].line).toBe(1);
  });

  it('several parse errors are all reported', () => {
    expect(ev('(1;2)').errors).toEqual([
      parseErr('(1;2)', 'Mismatched operator found: left paren'),
      parseErr('(1;2)', 'Mismatched operator found: right paren'),
    ]);
    expect(ev('foo("x').errors).toEqual([parseErr('foo("x', 'Invalid function foo'), parseErr('foo("x', 'Unterminated string')]);
  });

  it.each([
    ['1 +', 'Invalid arguments to operator add'],
    ['* 2', 'Invalid arguments to operator multiply'],
    ['o + 1', 'Invalid arguments to operator add'],
    ['1 == arr', 'Invalid arguments to operator equality'],
    ['max()', 'Error calling function max'],
    ['abs()', 'Error calling function abs'],
    ['num(o)', 'Error calling function num'],
    ['o', 'Reduce error: unexpected token on stack'],
    ['arr', 'Reduce error: unexpected token on stack'],
  ])('reduce error: %j', (expr, msg) => {
    const r = ev(expr);
    expect(r.out).toBe('');
    expect(r.errors).toEqual([reduceErr(expr, msg)]);
    expect(r.raw[0].type).toBe('engine');
  });

  it('errors carry the position of the instruction', () => {
    const r = render('line\n  {.eval 1 +}', {}, { enableExpr: true });
    expect(r.errors[0]).toMatchObject({ type: 'engine', line: 2, column: 3 });
  });
});

describe('expressions: limits (exprOpts)', () => {
  it('maxTokens', () => {
    expect(ev('1 + 2 + 3', { exprOpts: { maxTokens: 5 } }).out).toBe('6');
    const r = ev('1 + 2 + 3 + 4', { exprOpts: { maxTokens: 5 } });
    expect(r.out).toBe('');
    expect(r.errors).toEqual([parseErr('1 + 2 + 3 + 4', 'Expression exceeds the maximum number of allowed tokens: 5')]);
    // No limit by default, as on the platform.
    expect(ev('1' + ' + 1'.repeat(5000)).out).toBe('5001');
  });

  it('maxStringLen', () => {
    expect(ev('"aaaa" + "bbbbbb"', { exprOpts: { maxStringLen: 10 } }).out).toBe('aaaabbbbbb');
    const r = ev('"aaaa" + "bbbbbbb"', { exprOpts: { maxStringLen: 10 } });
    expect(r.out).toBe('');
    expect(r.errors).toEqual([reduceErr('"aaaa" + "bbbbbbb"', 'Concatenation would exceed maximum string length 10')]);
  });

  it('without a limit, doubling a string stops at the runtime maximum instead of crashing', () => {
    const expr = "@a = 'xx';" + '@a = @a + @a;'.repeat(40) + '@a';
    const r = ev(expr);
    expect(r.out).toBe('');
    expect(r.errors.length).toBeGreaterThan(0);
    expect(r.errors.length).toBeLessThanOrEqual(10);
    expect(r.errors[0]).toMatch(/Concatenation would exceed maximum string length \d+$/);
  });

  it('a limit set on one render does not leak into the next', () => {
    const { code } = { code: '{.eval 1 + 2 + 3}' };
    expect(render(code, {}, { enableExpr: true, exprOpts: { maxTokens: 3 } }).errors).toHaveLength(1);
    expect(render(code, {}, { enableExpr: true }).output).toBe('6');
  });
});

describe('expressions: size', () => {
  // Work that grows faster than the input would not finish on these inputs: a hang fails through the test's
  // timeout. No wall-clock assertion (timings never go into tests; bench:template measures speed).
  const finishes = (fn: () => void) => fn();
  const M = 1 << 20;
  it.each([
    ['a long sum', '1' + ' + 1'.repeat(M / 4), '262145'],
    ['deep parentheses', '('.repeat(M / 2) + '1' + ')'.repeat(M / 2), '1'],
    ['a long string', "'" + 'x'.repeat(M) + "'", 'x'.repeat(M)],
    ['many statements', '@x = 1;'.repeat(M / 7) + '@x', '1'],
    ['nested calls', 'max('.repeat(M / 8) + '1' + ')'.repeat(M / 8), '1'],
    ['unary chain', '-'.repeat(M - 2) + '1', '1'],
  ])('1 MB expression: %s', (_name, expr, expected) => {
    finishes(() => {
      expect(ev(expr).out).toBe(expected);
    });
  });

  it('1 MB of unbalanced parentheses fails fast', () => {
    finishes(() => {
      expect(ev('('.repeat(M)).errors).toHaveLength(1);
    });
  });
});

/**
 * Expression evaluator for `{.eval ...}`: JavaScript-like arithmetic,
 * comparison, logical, bitwise and string operators, the functions max, min,
 * abs, num, str and bool, the constants PI, E, Infinity, NaN, null, true and
 * false, `;`-separated statements and assignment to @variables.
 *
 *   source --lexer--> tokens --build--> postfix programs --reduce--> value
 *
 * Parsing happens once per instruction and limit settings; every step is
 * linear in the length of the expression, so a megabyte of expression takes
 * milliseconds. Errors are values reported on the context, never thrown.
 */
import type { Context } from '../context';
import { Msg } from '../errors';
import type { EvalInst, Inst } from '../types';
import { Lexer, build, reduce, tokenText, type Code, type ReduceHost } from './machine';
import type { Lit } from './values';

export { FUNCTIONS } from './values';

export interface ExprOptions {
  /** Most tokens an expression may hold; 0 or absent means no limit (the platform's default). */
  maxTokens?: number;
  /** Longest string `+` may build; 0 or absent means no limit beyond the runtime's own. */
  maxStringLen?: number;
}

/** Reduce errors reported per evaluation; the rest of the statements are skipped after this many. */
export const MAX_REDUCE_ERRORS = 10;

export const DEFAULT_EXPR_OPTS: Required<ExprOptions> = { maxTokens: 0, maxStringLen: 0 };

/** A parsed expression, ready to evaluate any number of times. */
export class Expr {
  readonly code: Code | null = null;
  readonly errors: string[];
  readonly maxTokens: number;

  constructor(
    readonly raw: string,
    opts: ExprOptions = DEFAULT_EXPR_OPTS,
  ) {
    this.maxTokens = limit(opts.maxTokens);
    const lexer = new Lexer(raw, this.maxTokens).run();
    this.errors = lexer.errors;
    // A partial token list is not worth building.
    if (this.errors.length === 0) this.code = build(lexer.codes, lexer.vals, lexer.n, this.errors);
  }

  /** The assembled postfix form, as `{.eval #...}` prints it: one bracketed list per statement. */
  debug(): string {
    const parts: string[] = [];
    const c = this.code;
    if (c !== null) {
      let from = 0;
      for (const to of c.ends) {
        const toks: string[] = [];
        for (let i = from; i < to; i++) toks.push(tokenText(c.codes[i], c.vals[i]));
        parts.push('[' + toks.join(' ') + ']');
        from = to;
      }
    }
    return `EVAL=[${parts.join(', ')}]`;
  }

  /**
   * Evaluate every statement in order against the context; the value of the
   * last one is the result. Reduce errors go to `fail`.
   */
  evaluate(ctx: Context, maxStringLen: number, fail: (msg: string) => void): Lit | undefined {
    const c = this.code;
    if (c === null) return undefined;
    let failures = 0;
    const host: ReduceHost = {
      ctx,
      maxStringLen,
      fail: (m) => {
        failures++;
        fail(m);
      },
    };
    const stack: unknown[] = [];
    let r: Lit | undefined;
    let from = 0;
    for (const to of c.ends) {
      r = reduce(c, from, to, host, stack);
      from = to;
      // The output is void once anything failed; a few messages say enough.
      if (failures >= MAX_REDUCE_ERRORS) break;
    }
    return r;
  }
}

function limit(n: number | undefined): number {
  return typeof n === 'number' && n > 0 && Number.isFinite(n) ? Math.floor(n) : 0;
}

/** Parse and evaluate a standalone expression (no template); for tests and tools. */
export function evaluate(raw: string, ctx: Context, opts: ExprOptions = DEFAULT_EXPR_OPTS): { value: Lit | undefined; errors: string[] } {
  const e = new Expr(raw, opts);
  const errors = e.errors.slice();
  if (errors.length) return { value: undefined, errors };
  const value = e.evaluate(ctx, limit(opts.maxStringLen), (m) => errors.push(m));
  return { value, errors };
}

interface EvalCache {
  expr: Expr;
  debug: boolean;
}

/** `{.eval expr}`; a leading `#` also prints the assembled expression. */
export function evalInstruction(i: Inst, ctx: Context): void {
  const inst = i as EvalInst;
  const opts = ctx.exprOpts ?? DEFAULT_EXPR_OPTS;
  let cache = inst.cache as EvalCache | null;
  if (cache === null || cache.expr.maxTokens !== limit(opts.maxTokens)) {
    let raw = inst.code;
    const debug = raw.charCodeAt(0) === 35; /* # */
    if (debug) raw = raw.substring(1);
    cache = { expr: new Expr(raw, opts), debug };
    inst.cache = cache;
  }
  const expr = cache.expr;
  const raw = expr.raw;
  for (const e of expr.errors) ctx.error('engine', Msg.expressionParse(raw, e), inst);
  if (cache.debug) ctx.buf += expr.debug();
  if (expr.errors.length !== 0) return;

  // Assignments land on a scratch frame and are kept only if the whole
  // expression reduces without error.
  const before = ctx.errors.length;
  const frame = ctx.push(ctx.frame.node);
  let value: Lit | undefined;
  try {
    value = expr.evaluate(ctx, limit(opts.maxStringLen), (m) => ctx.error('engine', Msg.expressionReduce(raw, m), inst));
  } finally {
    ctx.pop();
  }
  if (ctx.errors.length !== before) return;
  const vars = frame.vars;
  if (vars !== null) for (let i = 0; i < vars.length; i += 2) ctx.setVar(vars[i] as string, vars[i + 1]);
  if (value === undefined) return;
  if (cache.debug) ctx.buf += ' -> ';
  if (value !== null) ctx.buf += typeof value === 'string' ? value : String(value);
}

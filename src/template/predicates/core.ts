/** Core predicates: comparisons, parity, plurals, debug. */
import type { Context } from '../context';
import type { PredicateFn } from '../types';
import { asNumber, compare, deepEquals, isJsonStart, isTruthy, splitVariable } from '../util';

/** Arguments are JSON literals when they parse as such, otherwise variable references. */
export function resolveArg(arg: string, ctx: Context): unknown {
  let parsed = argCache.get(arg);
  if (parsed === undefined) {
    parsed = parseArg(arg);
    if (argCache.size > 10000) argCache.clear();
    argCache.set(arg, parsed);
  }
  return parsed.path === null ? parsed.value : ctx.resolve(parsed.path);
}

/** An argument parsed once: a JSON literal, or a path to resolve. */
interface ParsedArg {
  path: Array<string | number> | null;
  value: unknown;
}
const argCache = new Map<string, ParsedArg>();

function parseArg(arg: string): ParsedArg {
  if (isJsonStart(arg)) {
    try {
      return { path: null, value: JSON.parse(arg) };
    } catch {
      // not JSON: a reference
    }
  }
  return { path: splitVariable(arg), value: undefined };
}

const nullish = (v: unknown) => (v === undefined ? null : v);
const eq = (a: unknown, b: unknown) => deepEquals(nullish(a), nullish(b));

function binary(f: (a: unknown, b: unknown) => boolean): PredicateFn {
  return (args, ctx: Context) => {
    const n = args.length;
    if (n === 0) return false;
    if (n === 1) return f(ctx.frame.node, resolveArg(args[0], ctx));
    return f(resolveArg(args[0], ctx), resolveArg(args[1], ctx));
  };
}

function parity(odd: boolean): PredicateFn {
  return (args, ctx: Context) => {
    const v = args.length >= 1 ? ctx.resolve(splitVariable(args[0])) : ctx.frame.node;
    return typeof v === 'number' ? Math.abs(v) % 2 === (odd ? 1 : 0) : false;
  };
}

const isInt = (n: unknown): n is number => typeof n === 'number' && Math.floor(n) === n;

export const CORE_PREDICATES: Record<string, PredicateFn> = {
  'debug?': (_args, ctx: Context) => isTruthy(ctx.resolve(['debug'])),
  'equal?': binary(eq),
  'notEqual?': binary((a, b) => !eq(a, b)),
  'greaterThan?': binary((a, b) => compare(a, b) > 0),
  'greaterThanOrEqual?': binary((a, b) => compare(a, b) >= 0),
  'lessThan?': binary((a, b) => compare(a, b) < 0),
  'lessThanOrEqual?': binary((a, b) => compare(a, b) <= 0),
  'even?': parity(false),
  'odd?': parity(true),
  'nth?': (args, ctx: Context) => {
    if (args.length === 0) return false;
    let node: unknown = ctx.frame.node;
    let mod = resolveArg(args[0], ctx);
    if (args.length === 2) {
      node = mod;
      mod = resolveArg(args[1], ctx);
    }
    if (!isInt(node) || !isInt(mod) || mod === 0) return false;
    return Math.abs(node) % Math.abs(mod) === 0;
  },
  'plural?': (_args, ctx: Context) => asNumber(ctx.frame.node) > 1,
  'singular?': (_args, ctx: Context) => asNumber(ctx.frame.node) === 1,
};

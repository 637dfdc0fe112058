/** `{a.b}`, `{a,b|fmt arg|fmt2}`: resolve, format, emit. */
import type { Context } from '../context';
import type { BindvarInst, FormatterCall, Inst, Path, VariableInst } from '../types';
import { Push } from '../formatters/traits';
import { emitString } from '../util';

/** Formatters that do not read the variable list get this one (only its length and first entry are defined). */
const SINGLE: unknown[] = [undefined];

/** Whether the first value must be pushed as a frame for this chain (see formatters/traits). */
function needsPush(mode: number, first: unknown, ctx: Context): boolean {
  switch (mode) {
    case Push.NEVER:
      return false;
    case Push.OBJECT:
      return first !== null && typeof first === 'object' && first !== ctx.frame.node;
    case Push.DIFFERENT:
      return first !== ctx.frame.node;
    default:
      return true;
  }
}

function runChain(first: unknown, vars: Path[], fmts: FormatterCall[], all: boolean, ctx: Context, inst: Inst): unknown {
  let v = first;
  let list: unknown[];
  if (all) {
    list = new Array(vars.length);
    list[0] = v;
    for (let k = 1; k < vars.length; k++) list[k] = ctx.resolve(vars[k]);
  } else {
    list = SINGLE;
  }
  for (let k = 0; k < fmts.length; k++) {
    const f = fmts[k];
    if (!all) SINGLE[0] = v;
    v = f.fn(v, f.args, ctx, list, inst);
    const t = typeof v;
    if (t === 'function' || t === 'symbol' || t === 'bigint') v = undefined;
    if (all) list[0] = v;
  }
  SINGLE[0] = undefined;
  return v;
}

/**
 * Resolve the variables and run the formatter chain. `{name|fmt}` pushes the
 * first value as a frame while formatting (when it matters); `{.var}` never does.
 */
export function resolveAndFormat(inst: VariableInst | BindvarInst, ctx: Context, push: number): unknown {
  const first = ctx.resolve(inst.vars[0]);
  const fmts = inst.fmts;
  if (fmts === null) return first;
  if (!needsPush(push, first, ctx)) return runChain(first, inst.vars, fmts, inst.all, ctx, inst);
  const saved = ctx.frame;
  ctx.push(first);
  try {
    return runChain(first, inst.vars, fmts, inst.all, ctx, inst);
  } finally {
    ctx.frame = saved;
  }
}

export function execVariable(i: Inst, ctx: Context): void {
  const inst = i as VariableInst;
  const v = inst.fmts === null ? ctx.resolve(inst.vars[0]) : resolveAndFormat(inst, ctx, inst.push);
  if (typeof v === 'string') ctx.buf += v;
  else if (typeof v === 'number') ctx.buf += '' + v;
  else ctx.buf += emitString(v);
}

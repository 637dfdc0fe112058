/** `{a.b}`, `{a,b|fmt arg|fmt2}`: resolve, format, emit. */
import type { Context } from '../context';
import type { FormatterCall, Inst, Path, VariableInst } from '../types';
import { emitString } from '../util';

/** Resolve a list of variables and run a formatter chain; returns the first value. */
export function resolveAndFormat(vars: Path[], fmts: FormatterCall[] | null, ctx: Context, inst: Inst): unknown {
  let v = ctx.resolve(vars[0]);
  if (fmts === null) return v;
  let all: unknown[];
  if (vars.length === 1) {
    all = [v];
  } else {
    all = new Array(vars.length);
    all[0] = v;
    for (let i = 1; i < vars.length; i++) all[i] = ctx.resolve(vars[i]);
  }
  for (let i = 0; i < fmts.length; i++) {
    const f = fmts[i];
    v = f.fn(v, f.args, ctx, all, inst);
    const t = typeof v;
    if (t === 'function' || t === 'symbol' || t === 'bigint') v = undefined;
    all[0] = v;
  }
  return v;
}

export function execVariable(i: Inst, ctx: Context): void {
  const inst = i as VariableInst;
  if (inst.fmts === null) {
    const v = ctx.resolve(inst.vars[0]);
    if (typeof v === 'string') ctx.buf += v;
    else ctx.buf += emitString(v);
    return;
  }
  const first = ctx.resolve(inst.vars[0]);
  ctx.push(first);
  try {
    let v = first;
    let all: unknown[];
    const vars = inst.vars;
    if (vars.length === 1) {
      all = [v];
    } else {
      all = new Array(vars.length);
      all[0] = v;
      for (let k = 1; k < vars.length; k++) all[k] = ctx.resolve(vars[k]);
    }
    const fmts = inst.fmts;
    for (let k = 0; k < fmts.length; k++) {
      const f = fmts[k];
      v = f.fn(v, f.args, ctx, all, inst);
      const t = typeof v;
      if (t === 'function' || t === 'symbol' || t === 'bigint') v = undefined;
      all[0] = v;
    }
    ctx.buf += typeof v === 'string' ? v : emitString(v);
  } finally {
    ctx.pop();
  }
}

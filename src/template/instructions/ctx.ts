/** `{.ctx @name key=a.b key2=c}`: bind an object built from several references. */
import type { Context } from '../context';
import type { CtxvarInst, Inst } from '../types';

export function execCtxvar(i: Inst, ctx: Context): void {
  const inst = i as CtxvarInst;
  const obj: Record<string, unknown> = {};
  for (const [key, ref] of inst.bindings) {
    const v = ctx.resolve(ref);
    obj[key] = v === undefined ? null : v;
  }
  ctx.setVar(inst.name, obj);
}

/** `{.if a || b && c}`: left to right, no precedence, short-circuit. */
import type { Context } from '../context';
import { runBlock, runInst } from '../engine';
import type { IfInst, Inst } from '../types';
import { isTruthy } from '../util';

export function execIf(i: Inst, ctx: Context): void {
  const inst = i as IfInst;
  const vars = inst.vars;
  let result = isTruthy(ctx.resolve(vars[0]));
  for (let k = 1; k < vars.length; k++) {
    const op = inst.ops[k - 1];
    if (op === 0) {
      if (result) break;
      result = isTruthy(ctx.resolve(vars[k]));
    } else {
      if (!result) break;
      result = isTruthy(ctx.resolve(vars[k]));
    }
  }
  if (result) runBlock(inst.block, ctx);
  else if (inst.alt !== null) runInst(inst.alt, ctx);
}

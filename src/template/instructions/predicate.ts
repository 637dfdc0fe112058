/** `{.equal? a b}` and `{.or}` / `{.or pred? args}` branches. */
import type { Context } from '../context';
import { runBlock, runInst } from '../engine';
import type { Inst, PredicateInst } from '../types';

export function execPredicate(i: Inst, ctx: Context): void {
  const inst = i as PredicateInst;
  if (inst.name === null) {
    runBlock(inst.block, ctx);
    return;
  }
  const fn = inst.fn;
  const ok = fn !== null ? fn(inst.args, ctx, inst) : false;
  if (ok) runBlock(inst.block, ctx);
  else if (inst.alt !== null) runInst(inst.alt, ctx);
}

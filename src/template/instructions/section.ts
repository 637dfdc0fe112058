/** `{.section a.b}...{.or}...{.end}`: descend into a value when it is truthy. */
import type { Context } from '../context';
import { runBlock, runInst } from '../engine';
import type { Inst, SectionInst } from '../types';
import { isTruthy } from '../util';

export function execSection(i: Inst, ctx: Context): void {
  const inst = i as SectionInst;
  const node = ctx.resolveSection(inst.path);
  ctx.push(node);
  try {
    if (isTruthy(node)) runBlock(inst.block, ctx);
    else if (inst.alt !== null) runInst(inst.alt, ctx);
  } finally {
    ctx.pop();
  }
}

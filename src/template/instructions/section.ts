/** `{.section a.b}...{.or}...{.end}`: descend into a value when it is truthy. */
import type { Context } from '../context';
import { runBlock, runInst } from '../engine';
import type { Inst, SectionInst } from '../types';
import { isTruthy } from '../util';

export function execSection(i: Inst, ctx: Context): void {
  const inst = i as SectionInst;
  const node = ctx.resolveSection(inst.path);
  const truthy = isTruthy(node);
  // A false section with no alternate does nothing (the frame it would push is never seen).
  if (!truthy && inst.alt === null) return;
  ctx.push(node);
  try {
    if (truthy) runBlock(inst.block, ctx);
    else if (inst.alt !== null) runInst(inst.alt, ctx);
  } finally {
    ctx.pop();
  }
}

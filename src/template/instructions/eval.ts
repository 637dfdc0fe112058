/** `{.eval expr}`: evaluate an expression (only when enabled). */
import type { Context } from '../context';
import type { Inst } from '../types';
import { evalInstruction } from '../expr';

export function execEval(i: Inst, ctx: Context): void {
  if (!ctx.enableExpr) return;
  evalInstruction(i, ctx);
}

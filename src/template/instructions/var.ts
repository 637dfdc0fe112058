/** `{.var @name a.b|fmt}`: bind a variable on the current frame. */
import type { Context } from '../context';
import type { BindvarInst, Inst } from '../types';
import { resolveAndFormat } from './variable';
import { Push } from '../formatters/traits';

export function execBindvar(i: Inst, ctx: Context): void {
  const inst = i as BindvarInst;
  ctx.setVar(inst.name, resolveAndFormat(inst, ctx, Push.NEVER));
}

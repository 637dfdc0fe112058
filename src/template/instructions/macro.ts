/** `{.macro name}...{.end}`: define a macro scoped to the current frame. */
import type { Context } from '../context';
import type { Inst, MacroInst } from '../types';

export function execMacro(i: Inst, ctx: Context): void {
  const inst = i as MacroInst;
  ctx.setMacro(inst.name, inst);
}

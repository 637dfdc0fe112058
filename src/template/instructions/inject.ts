/** `{.inject @name ./file.json}`: bind an injected value by path. */
import type { Context } from '../context';
import type { Inst, InjectInst } from '../types';
import { norm } from '../util';

export function execInject(i: Inst, ctx: Context): void {
  const inst = i as InjectInst;
  const has = Object.prototype.hasOwnProperty.call(ctx.injects, inst.path);
  const v = has ? ctx.injects[inst.path] : undefined;
  ctx.setVar(inst.name, v === null || v === undefined || v === '' || v === 0 || v === false ? undefined : norm(v));
}

/** `{.include name [output]}`: run a macro or partial inline (output suppressed unless asked). */
import type { Context } from '../context';
import { runBlock } from '../engine';
import { Msg } from '../errors';
import type { IncludeInst, Inst } from '../types';

export function execInclude(i: Inst, ctx: Context): void {
  if (!ctx.enableInclude) return;
  const inst = i as IncludeInst;
  const code = ctx.getPartial(inst.name);
  if (code === null) {
    ctx.error('engine', Msg.partialMissing(inst.name), inst);
    return;
  }
  const output = inst.args.includes('output');
  const saved = ctx.buf;
  if (!output) ctx.buf = '';
  if (ctx.enterPartial(inst.name, inst)) {
    try {
      runBlock(code.block, ctx);
    } finally {
      ctx.exitPartial();
    }
  }
  if (!output) ctx.buf = saved;
}

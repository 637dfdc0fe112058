/** `{.repeated section items}...{.alternates with}...{.or}...{.end}`. */
import { Frame, type Context } from '../context';
import { runBlock, runInst } from '../engine';
import type { Inst, RepeatedInst } from '../types';

export function execRepeated(i: Inst, ctx: Context): void {
  const inst = i as RepeatedInst;
  const node = ctx.resolveSection(inst.path);
  if (!Array.isArray(node) || node.length === 0) {
    if (inst.alt !== null) runInst(inst.alt, ctx);
    return;
  }
  const saved = ctx.frame;
  const list = new Frame(node, saved);
  const item = new Frame(undefined, list);
  const alternates = inst.alternates.length > 0 ? inst.alternates : null;
  const block = inst.block;
  const len = node.length;
  const last = len - 1;
  try {
    for (let k = 0; k < len; k++) {
      list.index = k;
      const v = node[k];
      item.node = v === undefined || typeof v === 'function' ? undefined : v;
      item.vars = null;
      item.macros = null;
      item.stop = false;
      ctx.frame = item;
      runBlock(block, ctx);
      if (alternates !== null && k < last) runBlock(alternates, ctx);
    }
  } finally {
    ctx.frame = saved;
  }
}

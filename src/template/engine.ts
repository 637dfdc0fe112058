/**
 * Executor: walks the compiled tree. Text is appended inline; every other
 * instruction dispatches to its own module under instructions/. A runtime
 * error in one instruction is recorded and the rest of the block continues.
 */
import type { Context } from './context';
import { Msg } from './errors';
import { Op, OP_NAMES, type Inst, type TextInst } from './types';
import { execVariable } from './instructions/variable';
import { execSection } from './instructions/section';
import { execRepeated } from './instructions/repeated';
import { execPredicate } from './instructions/predicate';
import { execIf } from './instructions/if';
import { execBindvar } from './instructions/var';
import { execCtxvar } from './instructions/ctx';
import { execMacro } from './instructions/macro';
import { execEval } from './instructions/eval';
import { execInclude } from './instructions/include';
import { execInject } from './instructions/inject';

export function runInst(inst: Inst, ctx: Context): void {
  switch (inst.op) {
    case Op.TEXT:
      ctx.buf += (inst as TextInst).text;
      return;
    case Op.VARIABLE:
      return execVariable(inst, ctx);
    case Op.SECTION:
      return execSection(inst, ctx);
    case Op.REPEATED:
      return execRepeated(inst, ctx);
    case Op.PREDICATE:
    case Op.OR_PREDICATE:
      return execPredicate(inst, ctx);
    case Op.IF:
      return execIf(inst, ctx);
    case Op.BINDVAR:
      return execBindvar(inst, ctx);
    case Op.CTXVAR:
      return execCtxvar(inst, ctx);
    case Op.MACRO:
      return execMacro(inst, ctx);
    case Op.EVAL:
      return execEval(inst, ctx);
    case Op.INCLUDE:
      return execInclude(inst, ctx);
    case Op.INJECT:
      return execInject(inst, ctx);
    case Op.META_LEFT:
      ctx.buf += '{';
      return;
    case Op.META_RIGHT:
      ctx.buf += '}';
      return;
    case Op.NEWLINE:
      ctx.buf += '\n';
      return;
    case Op.SPACE:
      ctx.buf += ' ';
      return;
    case Op.TAB:
      ctx.buf += '\t';
      return;
    default:
      return;
  }
}

export function runBlock(block: Inst[], ctx: Context): void {
  const n = block.length;
  for (let i = 0; i < n; i++) {
    const inst = block[i];
    const op = inst.op;
    if (op === Op.TEXT) {
      ctx.buf += (inst as TextInst).text;
      continue;
    }
    try {
      // The commonest instructions are dispatched here directly.
      if (op === Op.VARIABLE) execVariable(inst, ctx);
      else if (op === Op.SECTION) execSection(inst, ctx);
      else if (op === Op.REPEATED) execRepeated(inst, ctx);
      else runInst(inst, ctx);
    } catch (e) {
      const err = e instanceof Error ? e : new Error(String(e));
      // Stack exhaustion is reported like any other runtime failure.
      ctx.error('engine', Msg.unexpected(err.name, OP_NAMES[inst.op], err.message), inst);
    }
  }
}

import type { Context } from '../context';
import type { Inst } from '../types';

export function evalInstruction(_inst: Inst, _ctx: Context): void {
  // filled in by the expression evaluator
}

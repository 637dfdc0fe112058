import type { Source } from './errors';

/** Instruction kinds. Names match the platform's opcode names used in error messages. */
export const enum Op {
  TEXT = 0,
  VARIABLE = 1,
  SECTION = 2,
  END = 3,
  REPEATED = 4,
  PREDICATE = 5,
  BINDVAR = 6,
  OR_PREDICATE = 7,
  IF = 8,
  INJECT = 9,
  MACRO = 10,
  COMMENT = 11,
  META_LEFT = 12,
  META_RIGHT = 13,
  NEWLINE = 14,
  SPACE = 15,
  TAB = 16,
  ROOT = 17,
  EOF = 18,
  ALTERNATES_WITH = 19,
  CTXVAR = 22,
  EVAL = 23,
  INCLUDE = 24,
}

export const OP_NAMES: Record<number, string> = {
  0: 'TEXT',
  1: 'VARIABLE',
  2: 'SECTION',
  3: 'END',
  4: 'REPEATED',
  5: 'PREDICATE',
  6: 'BINDVAR',
  7: 'OR_PREDICATE',
  8: 'IF',
  9: 'INJECT',
  10: 'MACRO',
  11: 'COMMENT',
  12: 'META_LEFT',
  13: 'META_RIGHT',
  14: 'NEWLINE',
  15: 'SPACE',
  16: 'TAB',
  17: 'ROOT',
  18: 'EOF',
  19: 'ALTERNATES_WITH',
  22: 'CTXVAR',
  23: 'EVAL',
  24: 'INCLUDE',
};

export type Path = Array<string | number>;

/** A formatter call as parsed: name, implementation, arguments. */
export interface FormatterCall {
  name: string;
  fn: FormatterFn;
  args: string[];
}

// Forward declared in context.ts; kept loose here to avoid import cycles.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type FormatterFn = (value: unknown, args: string[], ctx: any, vars: unknown[], inst: Inst) => unknown;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type PredicateFn = (args: string[], ctx: any, inst: Inst) => boolean;

/** Base of every instruction node. */
export interface Inst {
  op: Op;
  /** Offset in the source, for error positions. */
  pos: number;
  src: Source;
}

export interface TextInst extends Inst {
  op: Op.TEXT;
  text: string;
}
/** Formatted variables carry compile-time hints: when to push the value as a frame, whether the variable list is read. */
export interface VariableInst extends Inst {
  op: Op.VARIABLE;
  vars: Path[];
  fmts: FormatterCall[] | null;
  push: number;
  all: boolean;
}
export interface BlockInst extends Inst {
  block: Inst[];
  /** Alternate branch: an OR_PREDICATE instruction, or null (END). */
  alt: Inst | null;
}
export interface SectionInst extends BlockInst {
  op: Op.SECTION;
  path: Path;
}
export interface RepeatedInst extends BlockInst {
  op: Op.REPEATED;
  path: Path;
  alternates: Inst[];
}
export interface PredicateInst extends BlockInst {
  op: Op.PREDICATE | Op.OR_PREDICATE;
  name: string | null;
  fn: PredicateFn | null;
  args: string[];
}
export interface IfInst extends BlockInst {
  op: Op.IF;
  ops: number[];
  vars: Path[];
}
export interface MacroInst extends Inst {
  op: Op.MACRO;
  name: string;
  block: Inst[];
}
export interface RootInst extends Inst {
  op: Op.ROOT;
  block: Inst[];
}
export interface BindvarInst extends Inst {
  op: Op.BINDVAR;
  name: string;
  vars: Path[];
  fmts: FormatterCall[] | null;
  push: number;
  all: boolean;
}
export interface CtxvarInst extends Inst {
  op: Op.CTXVAR;
  name: string;
  bindings: Array<[string, Path]>;
}
export interface EvalInst extends Inst {
  op: Op.EVAL;
  code: string;
  cache: unknown;
}
export interface IncludeInst extends Inst {
  op: Op.INCLUDE;
  name: string;
  args: string[];
}
export interface InjectInst extends Inst {
  op: Op.INJECT;
  name: string;
  path: string;
  args: string[];
}

/** The compiled form of a template: its root instruction. */
export interface Compiled {
  root: RootInst;
}

/**
 * Assembler: weaves the flat instruction stream from the parser into a tree,
 * a state machine with the platform's rules (what is allowed where, dead
 * branches, EOF inside a block). Comments are dropped; adjacent text merged.
 */
import { Msg, makeError, type Source, type TemplateError } from './errors';
import {
  Op,
  OP_NAMES,
  type BlockInst,
  type Inst,
  type MacroInst,
  type PredicateInst,
  type RepeatedInst,
  type RootInst,
  type TextInst,
} from './types';

const enum S {
  ROOT,
  SECTION,
  REPEATED,
  ALTERNATES,
  PREDICATE,
  OR,
  IF,
  BLOCK,
  EOF,
  DEAD,
}

function isBlock(op: Op): boolean {
  return op === Op.IF || op === Op.MACRO || op === Op.PREDICATE || op === Op.REPEATED || op === Op.SECTION;
}

function stateFor(op: Op): S {
  switch (op) {
    case Op.IF:
      return S.IF;
    case Op.MACRO:
      return S.BLOCK;
    case Op.OR_PREDICATE:
      return S.OR;
    case Op.PREDICATE:
      return S.PREDICATE;
    case Op.REPEATED:
      return S.REPEATED;
    case Op.SECTION:
      return S.SECTION;
    default:
      return S.ROOT;
  }
}

const name = (inst: Inst) => OP_NAMES[inst.op];

export class Assembler {
  readonly root: RootInst;
  private stack: Inst[] = [];
  private current: Inst;
  private state: S = S.ROOT;

  constructor(
    src: Source,
    private errors: TemplateError[],
  ) {
    this.root = { op: Op.ROOT, pos: 0, src, block: [] };
    this.current = this.root;
  }

  private error(msg: string, inst: Inst): void {
    this.errors.push(makeError('assembler', msg, inst.src, inst.pos));
  }

  text(text: string, pos: number, src: Source): void {
    this.accept({ op: Op.TEXT, pos, src, text } as TextInst);
  }

  private add(list: Inst[], inst: Inst): void {
    if (inst.op === Op.COMMENT) return;
    if (inst.op === Op.TEXT && list.length > 0) {
      const last = list[list.length - 1];
      if (last.op === Op.TEXT) {
        list[list.length - 1] = { ...(last as TextInst), text: (last as TextInst).text + (inst as TextInst).text } as TextInst;
        return;
      }
    }
    list.push(inst);
  }

  private addConsequent(inst: Inst): void {
    this.add((this.current as BlockInst).block, inst);
  }

  private setAlternate(inst: Inst): void {
    // END closes with no alternate; OR_PREDICATE becomes the alternate branch.
    if (this.current.op !== Op.ROOT && this.current.op !== Op.MACRO) {
      (this.current as BlockInst).alt = inst.op === Op.OR_PREDICATE ? inst : null;
    }
  }

  private pushConsequent(inst: Inst): S {
    this.addConsequent(inst);
    this.stack.push(this.current);
    this.current = inst;
    return stateFor(inst.op);
  }

  /** An END: the open branch ends there and the enclosing block is current again. */
  private closeBlock(inst: Inst): void {
    this.setAlternate(inst);
    this.state = this.pop();
  }

  /** An OR: the open branch ends there and the OR's branch begins. */
  private openOr(inst: Inst): void {
    this.setAlternate(inst);
    this.current = inst;
    this.state = S.OR;
  }

  private pop(): S {
    const elem = this.stack.pop() as Inst;
    this.current = elem;
    return stateFor(elem.op);
  }

  accept(inst: Inst): void {
    const t = inst.op;
    if (this.state === S.DEAD) return;
    if (this.state === S.EOF) {
      this.error(Msg.transitionFromEOF(name(inst)), inst);
      this.state = S.DEAD;
      return;
    }
    // In every open state a block instruction opens a nested block.
    if (isBlock(t)) {
      this.state = this.pushConsequent(inst);
      return;
    }
    switch (this.state) {
      case S.ROOT:
        if (t === Op.EOF) {
          this.state = S.EOF;
        } else if (t === Op.END || t === Op.ALTERNATES_WITH || t === Op.OR_PREDICATE) {
          this.error(Msg.notAllowedAtRoot(name(inst)), inst);
        } else {
          this.addConsequent(inst);
        }
        return;
      case S.BLOCK:
        if (t === Op.EOF) this.error(Msg.eofInBlock(name(this.current)), inst);
        else if (t === Op.ALTERNATES_WITH || t === Op.OR_PREDICATE) this.error(Msg.notAllowedInBlock(name(inst), name(this.current)), inst);
        else if (t === Op.END) this.state = this.pop();
        else this.add((this.current as MacroInst).block, inst);
        return;
      case S.ALTERNATES:
        if (t === Op.EOF) this.error(Msg.eofInBlock(name(this.current)), inst);
        else if (t === Op.ALTERNATES_WITH) this.error(Msg.notAllowedInBlock(name(inst), name(this.current)), inst);
        else if (t === Op.OR_PREDICATE) this.openOr(inst);
        else if (t === Op.END) this.closeBlock(inst);
        else this.add((this.current as RepeatedInst).alternates, inst);
        return;
      case S.OR:
        if (t === Op.EOF) this.error(Msg.eofInBlock(name(this.current)), inst);
        else if (t === Op.ALTERNATES_WITH) this.error(Msg.notAllowedInBlock(name(inst), name(this.current)), inst);
        else if (t === Op.END) this.closeBlock(inst);
        else if (t === Op.OR_PREDICATE) {
          if (this.current.op === Op.OR_PREDICATE && (this.current as PredicateInst).name === null) {
            this.error(Msg.deadCode(name(inst)), inst);
          } else {
            this.setAlternate(inst);
            this.current = inst;
          }
        } else this.addConsequent(inst);
        return;
      case S.REPEATED:
        if (t === Op.EOF) this.error(Msg.eofInBlock(name(this.current)), inst);
        else if (t === Op.END) this.closeBlock(inst);
        else if (t === Op.OR_PREDICATE) this.openOr(inst);
        else if (t === Op.ALTERNATES_WITH) this.state = S.ALTERNATES;
        else this.addConsequent(inst);
        return;
      case S.SECTION:
      case S.PREDICATE:
      case S.IF:
        if (t === Op.EOF) this.error(Msg.eofInBlock(name(this.current)), inst);
        else if (t === Op.ALTERNATES_WITH) this.error(Msg.notAllowedInBlock(name(inst), name(this.current)), inst);
        else if (t === Op.END) this.closeBlock(inst);
        else if (t === Op.OR_PREDICATE) this.openOr(inst);
        else this.addConsequent(inst);
        return;
    }
  }
}

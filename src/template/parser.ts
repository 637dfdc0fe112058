/**
 * Tokenizer and tag parser. Scans the source for `{...}` tags, keeps the offset
 * of every instruction (turned into line/column on demand), and feeds
 * instructions to the assembler. A tag that does not parse is literal text.
 */
import { Msg, Source, makeError, type TemplateError } from './errors';
import { Op, type FormatterCall, type FormatterFn, type Inst, type Path, type PredicateFn } from './types';
import { splitVariable } from './util';
import { Assembler } from './assembler';
import { Push, pushMode, usesVars } from './formatters/traits';

export interface Registry {
  formatters: Record<string, FormatterFn>;
  predicates: Record<string, PredicateFn>;
}

const WORD = /[a-zA-Z][a-zA-Z0-9_-]*/y;
const WS = /[ \f\n\r\t\v]+/y;
const FMT_ARGS = /[^|}]+/y;
const INST_ARGS = /[^}]+/y;
const OPERATOR = /&&|\|\|/y;
const PREDICATE = /[a-zA-Z][a-zA-Z0-9_-]*\?/y;
const FILE_PATH = /[./a-zA-Z0-9_-]+/y;
const SEGMENT = '(?:\\d+|(?:@|\\$)?[a-zA-Z][a-zA-Z0-9_-]*|@)';
const VAR_REF = new RegExp(`${SEGMENT}(?:\\.${SEGMENT})*`, 'y');
const VAR_DEF = /@[a-zA-Z][a-zA-Z0-9_-]*/y;
const VAR_SEP = / *, */y;

/** Instruction keywords, by first character (longest-prefix order as the platform matches them). */
const KEYWORDS: Record<string, Array<[string, Op]>> = {
  a: [['lternates with', Op.ALTERNATES_WITH]],
  c: [['tx', Op.CTXVAR]],
  e: [
    ['nd', Op.END],
    ['of', Op.EOF],
    ['val', Op.EVAL],
  ],
  i: [
    ['f', Op.IF],
    ['nclude', Op.INCLUDE],
    ['nject', Op.INJECT],
  ],
  m: [
    ['acro', Op.MACRO],
    ['eta-left', Op.META_LEFT],
    ['eta-right', Op.META_RIGHT],
  ],
  n: [['ewline', Op.NEWLINE]],
  o: [['r', Op.OR_PREDICATE]],
  r: [['epeated section', Op.REPEATED]],
  s: [
    ['ection', Op.SECTION],
    ['pace', Op.SPACE],
  ],
  t: [['ab', Op.TAB]],
  v: [['ar', Op.BINDVAR]],
};

/** Push mode of a formatted variable; later variables that read `@` see the pushed value, so they need it unless it is the current node. */
function pushOf(vars: Path[], fmts: FormatterCall[] | null): number {
  if (fmts === null) return Push.NEVER;
  const mode = pushMode(fmts.map((f) => f.name));
  for (let k = 1; k < vars.length; k++) if (vars[k][0] === '@' && mode < Push.DIFFERENT) return Push.DIFFERENT;
  return mode;
}
/** Whether formatters need the full variable list (several variables, or a formatter that reads it). */
const allOf = (vars: Path[], fmts: FormatterCall[] | null): boolean =>
  fmts !== null && (vars.length > 1 || usesVars(fmts.map((f) => f.name)));

export class Parser {
  private s: string;
  /** Current match position inside a tag, end of the tag, end of last match. */
  private p = 0;
  private end = 0;
  private mend = 0;
  private tagPos = 0;

  constructor(
    private src: Source,
    private asm: Assembler,
    private reg: Registry,
    private errors: TemplateError[],
  ) {
    this.s = src.text;
  }

  parse(): void {
    const s = this.s;
    const len = s.length;
    let idx = 0;
    for (;;) {
      let start = s.indexOf('{', idx);
      if (start === -1) {
        this.text(idx, len);
        break;
      }
      if (s.charCodeAt(start + 1) === 35 /* # */ && s.charCodeAt(start + 2) === 35) {
        this.text(idx, start);
        const close = s.indexOf('##}', start + 3);
        this.emit({ op: Op.COMMENT, pos: start, src: this.src } as Inst);
        if (close === -1) {
          idx = len;
          break;
        }
        idx = close + 3;
        continue;
      }
      let matched = false;
      for (let i = start + 1; i < len; i++) {
        const c = s.charCodeAt(i);
        if (c === 123 /* { */) {
          start = i;
        } else if (c === 125 /* } */) {
          this.text(idx, start);
          if (!this.tag(start + 1, i)) this.text(start, i + 1);
          idx = i + 1;
          matched = true;
          break;
        }
      }
      if (!matched) {
        this.text(idx, len);
        break;
      }
    }
    this.emit({ op: Op.EOF, pos: len, src: this.src } as Inst);
  }

  private emit(inst: Inst): void {
    this.asm.accept(inst);
  }

  private text(start: number, end: number): void {
    if (start < end) this.asm.text(this.s.substring(start, end), start, this.src);
  }

  private err(message: string): void {
    this.errors.push(makeError('parser', message, this.src, this.tagPos));
  }

  // ---- low level matching -------------------------------------------------

  private match(re: RegExp, at: number): string | null {
    re.lastIndex = at;
    const m = re.exec(this.s);
    if (m === null || re.lastIndex > this.end) return null;
    this.mend = re.lastIndex;
    return m[0];
  }

  private consume(): void {
    this.p = this.mend;
  }

  private complete(): boolean {
    return this.p === this.end;
  }

  private space(): boolean {
    if (this.p < this.end && this.s.charCodeAt(this.p) === 32) {
      this.mend = this.p + 1;
      return true;
    }
    return false;
  }

  private whitespace(): boolean {
    return this.match(WS, this.p) !== null;
  }

  private args(): [string[], string] | null {
    const raw = this.match(INST_ARGS, this.p);
    if (raw === null) return null;
    const delim = raw[0];
    const args = raw.slice(1).split(delim);
    return args.length === 1 && !args[0] ? [[], delim] : [args, delim];
  }

  private variable(): Path | null {
    const raw = this.match(VAR_REF, this.p);
    return raw === null ? null : splitVariable(raw);
  }

  private variables(): Path[] | null {
    let at = this.p;
    let result: Path[] | null = null;
    for (;;) {
      const raw = this.match(VAR_REF, at);
      if (raw === null) {
        if (at !== this.p) return null;
        break;
      }
      (result ??= []).push(splitVariable(raw));
      at = this.mend;
      if (this.match(VAR_SEP, at) === null) {
        this.mend = at;
        break;
      }
      at = this.mend;
    }
    return result;
  }

  /** Formatter chain `|a|b x y`; null when absent or malformed. Reports unknown names. */
  private formatters(): FormatterCall[] | null | false {
    const s = this.s;
    let at = this.p;
    if (at >= this.end || s.charCodeAt(at++) !== 124) return null;
    if (s.charCodeAt(at) === 124) return null;
    let sep = false;
    let result: FormatterCall[] | null = null;
    for (;;) {
      const name = this.match(WORD, at);
      if (name === null) {
        if (sep) return null;
        break;
      }
      at = this.mend;
      let args: string[] = [];
      const raw = this.match(FMT_ARGS, at);
      if (raw !== null) {
        args = raw.slice(1).split(raw[0]);
        at = this.mend;
      }
      (result ??= []).push({ name, fn: undefined as unknown as FormatterFn, args });
      if (at >= this.end || s.charCodeAt(at) !== 124) break;
      at++;
      sep = true;
    }
    this.mend = at;
    return result;
  }

  private checkFormatters(fmts: FormatterCall[] | null): boolean {
    if (fmts === null) return true;
    for (const f of fmts) {
      const fn = this.reg.formatters[f.name];
      if (fn === undefined || !Object.prototype.hasOwnProperty.call(this.reg.formatters, f.name)) {
        this.err(Msg.formatterUnknown(f.name));
        return false;
      }
      f.fn = fn;
    }
    return true;
  }

  // ---- tags ----------------------------------------------------------------

  private tag(start: number, end: number): boolean {
    const s = this.s;
    this.tagPos = start - 1;
    this.end = end;
    const c = s.charCodeAt(start);
    if (c === 35 /* # */) {
      this.emit({ op: Op.COMMENT, pos: this.tagPos, src: this.src } as Inst);
      return true;
    }
    if (c !== 46 /* . */) {
      this.p = start;
      return this.parseVariable();
    }
    this.p = start + 1;
    if (this.parsePredicate(Op.PREDICATE)) return true;
    const kws = KEYWORDS[s[this.p]];
    if (kws === undefined) return false;
    let op: Op | -1 = -1;
    for (const [rest, code] of kws) {
      if (s.startsWith(rest, this.p + 1)) {
        op = code;
        this.mend = this.p + 1 + rest.length;
        break;
      }
    }
    if (op === -1 || this.mend > end) return false;
    this.consume();
    switch (op) {
      case Op.ALTERNATES_WITH:
      case Op.END:
      case Op.EOF:
      case Op.META_LEFT:
      case Op.META_RIGHT:
      case Op.NEWLINE:
      case Op.SPACE:
      case Op.TAB:
        if (!this.complete()) return false;
        this.emit({ op, pos: this.tagPos, src: this.src });
        return true;
      case Op.BINDVAR:
        return this.parseBindvar();
      case Op.CTXVAR:
        return this.parseCtxvar();
      case Op.EVAL:
        return this.parseEval();
      case Op.IF:
        return this.parseIf();
      case Op.INCLUDE:
        return this.parseInclude();
      case Op.INJECT:
        return this.parseInject();
      case Op.MACRO:
        return this.parseMacro();
      case Op.OR_PREDICATE:
        return this.parsePredicate(Op.OR_PREDICATE);
      case Op.REPEATED:
      case Op.SECTION:
        return this.parseSection(op);
      default:
        return false;
    }
  }

  private parseVariable(): boolean {
    const v = this.variablesAndFormatters();
    if (!v) return false;
    this.emit({ op: Op.VARIABLE, pos: this.tagPos, src: this.src, ...v } as Inst);
    return true;
  }

  /** The rest of a variable tag: its variables, optional formatters and the tag's end (null when it is not one). */
  private variablesAndFormatters() {
    const vars = this.variables();
    if (vars === null) return null;
    this.consume();
    const fmts = this.formatters();
    if (fmts) this.consume();
    if (!this.complete()) return null;
    if (fmts && !this.checkFormatters(fmts)) return null;
    const f = fmts || null;
    return { vars, fmts: f, push: pushOf(vars, f), all: allOf(vars, f) };
  }

  /** A variable name between spaces after the tag word, with the spaces consumed; null when it is not there. */
  private spacedVarName(): string | null {
    if (!this.space()) return null;
    this.consume();
    const name = this.match(VAR_DEF, this.p);
    if (name === null) return null;
    this.consume();
    if (!this.space()) return null;
    this.consume();
    return name;
  }

  private parseBindvar(): boolean {
    const name = this.spacedVarName();
    if (name === null) return false;
    const v = this.variablesAndFormatters();
    if (!v) return false;
    this.emit({ op: Op.BINDVAR, pos: this.tagPos, src: this.src, name, ...v } as Inst);
    return true;
  }

  private parseCtxvar(): boolean {
    const name = this.spacedVarName();
    if (name === null) return false;
    const bindings: Array<[string, Path]> = [];
    let at = this.p;
    for (;;) {
      const key = this.match(WORD, at);
      if (key === null) break;
      at = this.mend;
      if (this.s.charCodeAt(at++) !== 61 /* = */) break;
      const ref = this.match(VAR_REF, at);
      if (ref === null) break;
      bindings.push([key, splitVariable(ref)]);
      at = this.mend;
      if (this.match(WS, at) !== null) at = this.mend;
      this.p = at;
    }
    if (bindings.length === 0) return false;
    if (!this.complete()) return false;
    this.emit({ op: Op.CTXVAR, pos: this.tagPos, src: this.src, name, bindings } as Inst);
    return true;
  }

  private parseEval(): boolean {
    if (!this.whitespace()) return false;
    this.consume();
    const code = this.s.substring(this.p, this.end);
    this.emit({ op: Op.EVAL, pos: this.tagPos, src: this.src, code, cache: null } as Inst);
    return true;
  }

  private parseIf(): boolean {
    if (!this.whitespace()) return false;
    this.consume();
    if (this.parsePredicate(Op.PREDICATE)) return true;
    const vars: Path[] = [];
    const ops: number[] = [];
    let haveOp = false;
    let at = this.p;
    for (;;) {
      const v = this.match(VAR_REF, at);
      if (v === null) {
        if (haveOp) return false;
        break;
      }
      vars.push(splitVariable(v));
      at = this.mend;
      if (this.match(WS, at) !== null) at = this.mend;
      const op = this.match(OPERATOR, at);
      if (op === null) break;
      ops.push(op === '&&' ? 1 : 0);
      haveOp = true;
      at = this.mend;
      if (this.match(WS, at) !== null) at = this.mend;
    }
    this.p = at;
    if (!this.complete()) return false;
    this.emit({ op: Op.IF, pos: this.tagPos, src: this.src, ops, vars, block: [], alt: null } as Inst);
    return true;
  }

  private parseInclude(): boolean {
    if (!this.space()) return false;
    const a = this.args();
    if (a === null || a[0].length < 1) return false;
    const name = a[0][0];
    this.emit({ op: Op.INCLUDE, pos: this.tagPos, src: this.src, name, args: a[0].slice(1) } as Inst);
    return true;
  }

  private parseInject(): boolean {
    const name = this.spacedVarName();
    if (name === null) return false;
    const path = this.match(FILE_PATH, this.p);
    if (path === null) return false;
    this.consume();
    const a = this.args();
    this.emit({ op: Op.INJECT, pos: this.tagPos, src: this.src, name, path, args: a ? a[0] : [] } as Inst);
    return true;
  }

  private parseMacro(): boolean {
    if (!this.space()) return false;
    this.consume();
    const name = this.match(FILE_PATH, this.p);
    if (name === null) return false;
    this.consume();
    if (!this.complete()) return false;
    this.emit({ op: Op.MACRO, pos: this.tagPos, src: this.src, name, block: [] } as Inst);
    return true;
  }

  private parsePredicate(op: Op.PREDICATE | Op.OR_PREDICATE): boolean {
    let hasSpace = false;
    if (op === Op.OR_PREDICATE) {
      hasSpace = this.space();
      if (hasSpace) this.consume();
    }
    let name: string | null = null;
    let fn: PredicateFn | null = null;
    let args: string[] = [];
    if (op === Op.PREDICATE || hasSpace) {
      name = this.match(PREDICATE, this.p);
      if (name === null) return false;
      if (!Object.prototype.hasOwnProperty.call(this.reg.predicates, name)) {
        this.err(Msg.predicateUnknown(name));
      } else {
        fn = this.reg.predicates[name];
      }
      this.consume();
      const a = this.args();
      if (a !== null) {
        this.consume();
        args = a[0];
      }
    }
    if (!this.complete()) return false;
    this.emit({ op, pos: this.tagPos, src: this.src, name, fn, args, block: [], alt: null } as Inst);
    return true;
  }

  private parseSection(op: Op.SECTION | Op.REPEATED): boolean {
    if (!this.whitespace()) return false;
    this.consume();
    const path = this.variable();
    if (path === null) return false;
    this.consume();
    if (!this.complete()) return false;
    const inst =
      op === Op.REPEATED
        ? { op, pos: this.tagPos, src: this.src, path, block: [], alt: null, alternates: [] }
        : { op, pos: this.tagPos, src: this.src, path, block: [], alt: null };
    this.emit(inst as Inst);
    return true;
  }
}

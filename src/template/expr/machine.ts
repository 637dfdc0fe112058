/**
 * The expression machine: operator table, tokenizer, builder and evaluator.
 *
 *   source --lex--> tokens --build--> postfix code --reduce--> value
 *
 * Tokens and code are flat parallel arrays (an integer code per token and an
 * operand beside it), so a megabyte of expression allocates a handful of
 * arrays rather than a million objects. Every stage is a single linear pass.
 *
 * Kept in one module on purpose: const enums inline only within a file, and
 * hot loops must not read bindings imported from other modules (module
 * loaders that emulate live bindings turn every such read into a getter
 * call). Helpers from values.ts are copied into locals once at load.
 */
import type { Context } from '../context';
import type { Path } from '../types';
import { splitVariable as splitVariable_ } from '../util';
import * as V from './values';
import { template as templateMessages } from '../../core/messages';
import type { ExprFn, Lit } from './values';

const splitVariable = splitVariable_;
const toNum = V.toNum;
const toBool = V.toBool;
const toStr = V.toStr;
const scanHex = V.scanHex;
const scanDecimal = V.scanDecimal;
const FUNCTIONS = V.FUNCTIONS;
const DEC_NO_EXP_DIGIT = V.DEC_NO_EXP_DIGIT;
const DEC_TWO_DOTS = V.DEC_TWO_DOTS;

// ---------------------------------------------------------------------------
// Token codes and operators
// ---------------------------------------------------------------------------

/**
 * Token codes. Operators are 0-29; the rest are operands. Precedence and
 * associativity follow JavaScript: unary 17 (right), `**` 16 (right),
 * multiplicative 15, additive 14, shifts 13, relational 12, equality 11,
 * `&` 10, `^` 9, `|` 8, `&&` 7, `||` 6, assignment 3 (right); separators
 * and parentheses 1 (the builder handles those; they never reach code).
 */
export const enum C {
  PLUS = 0,
  MINUS = 1,
  LNOT = 2,
  BNOT = 3,
  POW = 4,
  MUL = 5,
  DIV = 6,
  MOD = 7,
  ADD = 8,
  SUB = 9,
  SHL = 10,
  SHR = 11,
  LT = 12,
  GT = 13,
  EQ = 14,
  NEQ = 15,
  SEQ = 16,
  SNEQ = 17,
  LTEQ = 18,
  GTEQ = 19,
  BAND = 20,
  BXOR = 21,
  BOR = 22,
  LAND = 23,
  LOR = 24,
  ASN = 25,
  SEMI = 26,
  COMMA = 27,
  LPRN = 28,
  RPRN = 29,
  /** Operands: a literal (number, string, boolean, null) in the value slot. */
  LIT = 100,
  /** A variable reference (VarRef) in the value slot. */
  VAR = 101,
  /** A function call; the name in the value slot. */
  CALL = 102,
  /** Marks where a call's arguments begin. */
  ARGS = 103,
}

const PREC: number[] = [17, 17, 17, 17, 16, 15, 15, 15, 14, 14, 13, 13, 12, 12, 11, 11, 11, 11, 12, 12, 10, 9, 8, 7, 6, 3, 1, 1, 1, 1];
const RIGHT: boolean[] = PREC.map((_, i) => i <= C.POW || i === C.ASN || i === C.COMMA);
const DESC: string[] = [
  'unary plus',
  'unary minus',
  'logical not',
  'bitwise not',
  'exponent',
  'multiply',
  'divide',
  'modulus',
  'add',
  'subtract',
  'left shift',
  'right shift',
  'less than',
  'greater than',
  'equality',
  'inequality',
  'strict equality',
  'strict inequality',
  'less than or equal',
  'greater than or equal',
  'bitwise and',
  'bitwise xor',
  'bitwise or',
  'logical and',
  'logical or',
  'assign',
  'semicolon',
  'comma',
  'left paren',
  'right paren',
];

export const opDesc = (code: number): string => DESC[code];

/** A variable reference inside an expression, resolved against the context when an operator uses it. */
export class VarRef {
  constructor(
    readonly path: Path,
    readonly text: string,
  ) {}
}

/** Named constants. A bare name that matches one wins over a lookup (use `@.PI` for the JSON's). */
const CONSTANTS = new Map<string, Lit>([
  ['null', null],
  ['true', true],
  ['false', false],
  ['PI', Math.PI],
  ['E', Math.E],
  ['Infinity', Infinity],
  ['NaN', NaN],
]);

/** Debug rendering of a token, as `{.eval #...}` prints the assembled expression. */
export function tokenText(code: number, val: unknown): string {
  switch (code) {
    case C.LIT:
      return typeof val === 'string' ? JSON.stringify(val) : String(val);
    case C.VAR:
      return (val as VarRef).path.join('.');
    case C.CALL:
      return `${val as string}()`;
    case C.ARGS:
      return '<args>';
    default:
      return code < 30 ? `<${DESC[code]}>` : '<unk>';
  }
}

// ---------------------------------------------------------------------------
// Tokenizer
// ---------------------------------------------------------------------------

/** Parse error messages (the part after the expression). */
export const E = {
  hexEscape: 'Invalid 2-char hex escape found',
  unicodeEscape: 'Invalid unicode escape found',
  unterminated: 'Unterminated string',
  bareChar: (name: string) => `Illegal bare ${name} character in string literal`,
  hexDigits: 'Expected digits after start of hex number',
  expDigit: 'Expected a digit after exponent in decimal number',
  twoDots: 'Duplicate decimal point in number',
  dotInExp: 'Unexpected decimal point in exponent',
  invalidFunction: (name: string) => `${templateMessages.INVALID_FUNCTION} ${name}`,
  maxTokens: (n: number) => `${templateMessages.MAX_TOKENS}: ${n}`,
  unexpected: (name: string, at: number, c: string) =>
    `${name === 'character' ? templateMessages.UNEXPECTED_CHARACTER : `Unexpected ${name}`} at ${at}: ${JSON.stringify(c)}`,
  mismatched: (desc: string) => `Mismatched operator found: ${desc}`,
};

function charName(c: string): string {
  switch (c) {
    case '\b':
      return 'backspace';
    case '\f':
      return 'form feed';
    case '\n':
      return 'line feed';
    case '\r':
      return 'carriage return';
    case '\t':
      return 'tab';
    default:
      return c <= '\u001f' ? 'control character' : 'character';
  }
}

const isLetter = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
const isWordChar = (c: number) => isLetter(c) || (c >= 48 && c <= 57) || c === 95 || c === 45;

/** A control character decoded from an escape becomes a space; so does an out-of-range code point. */
function codePointText(code: number): string {
  if (code <= 0x08 || (code >= 0x0e && code < 0x20) || code > 0x10ffff) return ' ';
  return String.fromCodePoint(code);
}

/**
 * Tokenizer. Lexical errors (strings, numbers, unexpected characters) stop the
 * scan; token errors (an unknown function, too many tokens) stop accepting
 * tokens but let the scan finish, so later lexical errors are still reported.
 */
export class Lexer {
  /** Token codes and operands, n of them (preallocated: there are never more tokens than characters). */
  readonly codes: Int32Array;
  readonly vals: unknown[];
  n = 0;
  readonly errors: string[] = [];
  /** Set once any error occurs: no more tokens are accepted. */
  private closed = false;

  constructor(
    private readonly s: string,
    private readonly maxTokens: number,
  ) {
    this.codes = new Int32Array(s.length);
    // Grown by appending: `new Array(bigN)` would make a slow dictionary-mode array.
    this.vals = [];
  }

  private fail(msg: string): void {
    this.errors.push(msg);
    this.closed = true;
  }

  /** Accept a token: unary +/- detection, function calls, the token limit. */
  private push(code: number, val: unknown): void {
    if (this.closed) return;
    const codes = this.codes;
    const n = this.n;
    if (code === C.ADD || code === C.SUB) {
      // At the start, or after an operator other than ')', + and - are unary.
      if (n === 0 || (codes[n - 1] < 30 && codes[n - 1] !== C.RPRN)) code = code === C.SUB ? C.MINUS : C.PLUS;
    } else if (code === C.LPRN && n > 0 && codes[n - 1] === C.VAR) {
      const ref = this.vals[n - 1] as VarRef;
      if (ref.path.length === 1) {
        const name = String(ref.path[0]);
        if (!FUNCTIONS.has(name)) {
          this.fail(E.invalidFunction(name));
          return;
        }
        codes[n - 1] = C.CALL;
        this.vals[n - 1] = name;
      }
    }
    codes[n] = code;
    this.vals[n] = val;
    this.n = n + 1;
    if (this.maxTokens > 0 && n + 1 > this.maxTokens) this.fail(E.maxTokens(this.maxTokens));
  }

  private op(code: number): void {
    this.push(code, null);
  }

  run(): this {
    const s = this.s;
    const len = s.length;
    let i = 0;
    while (i < len) {
      const c = s.charCodeAt(i);
      const c1 = i + 1 < len ? s.charCodeAt(i + 1) : -1;
      switch (c) {
        case 48:
        case 49:
        case 50:
        case 51:
        case 52: // 0-4
        case 53:
        case 54:
        case 55:
        case 56:
        case 57: // 5-9
          i = c === 48 && (c1 === 120 || c1 === 88) ? this.hex(i + 2) : this.decimal(i);
          if (i < 0) return this;
          continue;
        case 34: // "
        case 39: // '
          i = this.string(i + 1, c);
          if (i < 0) return this;
          continue;
        case 42: // *
          if (c1 === 42) {
            i++;
            this.op(C.POW);
          } else this.op(C.MUL);
          break;
        case 47:
          this.op(C.DIV);
          break;
        case 37:
          this.op(C.MOD);
          break;
        case 43:
          this.op(C.ADD);
          break;
        case 45:
          this.op(C.SUB);
          break;
        case 61: // =
          if (c1 === 61) {
            i++;
            if (s.charCodeAt(i + 1) === 61) {
              i++;
              this.op(C.SEQ);
            } else this.op(C.EQ);
          } else this.op(C.ASN);
          break;
        case 33: // !
          if (c1 === 61) {
            i++;
            if (s.charCodeAt(i + 1) === 61) {
              i++;
              this.op(C.SNEQ);
            } else this.op(C.NEQ);
          } else this.op(C.LNOT);
          break;
        case 60: // <
          if (c1 === 60) {
            i++;
            this.op(C.SHL);
          } else if (c1 === 61) {
            i++;
            this.op(C.LTEQ);
          } else this.op(C.LT);
          break;
        case 62: // >
          if (c1 === 62) {
            i++;
            this.op(C.SHR);
          } else if (c1 === 61) {
            i++;
            this.op(C.GTEQ);
          } else this.op(C.GT);
          break;
        case 126:
          this.op(C.BNOT);
          break;
        case 38: // &
          if (c1 === 38) {
            i++;
            this.op(C.LAND);
          } else this.op(C.BAND);
          break;
        case 124: // |
          if (c1 === 124) {
            i++;
            this.op(C.LOR);
          } else this.op(C.BOR);
          break;
        case 94:
          this.op(C.BXOR);
          break;
        case 32: // space, line feed, tab, carriage return, no-break space
        case 10:
        case 9:
        case 13:
        case 0xa0:
          break;
        case 44:
          this.op(C.COMMA);
          break;
        case 59:
          this.op(C.SEMI);
          break;
        case 40:
          this.op(C.LPRN);
          break;
        case 41:
          this.op(C.RPRN);
          break;
        default: {
          const end = this.reference(i);
          if (end === -1) {
            const ch = s[i];
            this.fail(E.unexpected(charName(ch), i, ch));
            return this;
          }
          const text = s.substring(i, end);
          i = end;
          const k = CONSTANTS.get(text);
          if (k !== undefined) this.push(C.LIT, k);
          else this.push(C.VAR, new VarRef(splitVariable(text), text));
          continue;
        }
      }
      i++;
    }
    return this;
  }

  /** One segment of a variable reference: digits, [@$]word, or a bare '@'. Returns its end or -1. */
  private segment(i: number): number {
    const s = this.s;
    const len = s.length;
    if (i >= len) return -1;
    const c = s.charCodeAt(i);
    let j = i;
    if (c >= 48 && c <= 57) {
      do j++;
      while (j < len && s.charCodeAt(j) >= 48 && s.charCodeAt(j) <= 57);
      return j;
    }
    if (c === 64 || c === 36) j++;
    if (j < len && isLetter(s.charCodeAt(j))) {
      j++;
      while (j < len && isWordChar(s.charCodeAt(j))) j++;
      return j;
    }
    return c === 64 ? i + 1 : -1;
  }

  /** A dotted variable reference starting at i: its end, or -1. */
  private reference(i: number): number {
    let end = this.segment(i);
    if (end === -1) return -1;
    const s = this.s;
    while (s.charCodeAt(end) === 46 /* . */) {
      const next = this.segment(end + 1);
      if (next === -1) break;
      end = next;
    }
    return end;
  }

  private hex(i: number): number {
    const j = scanHex(this.s, i, this.s.length);
    if (j === i) {
      this.fail(E.hexDigits);
      return -1;
    }
    this.push(C.LIT, parseInt(this.s.substring(i, j), 16));
    return j;
  }

  private decimal(i: number): number {
    const j = scanDecimal(this.s, i, this.s.length);
    if (j < 0) {
      this.fail(j === DEC_NO_EXP_DIGIT ? E.expDigit : j === DEC_TWO_DOTS ? E.twoDots : E.dotInExp);
      return -1;
    }
    this.push(C.LIT, parseFloat(this.s.substring(i, j)));
    return j;
  }

  /** A quoted string whose body starts at i; returns the offset after the closing quote, or -1. */
  private string(i: number, quote: number): number {
    const s = this.s;
    const len = s.length;
    let out = '';
    let run = i; // start of the pending run of plain characters
    while (i < len) {
      const c = s.charCodeAt(i);
      if (c === 92 /* \ */ && i + 1 < len) {
        out += s.substring(run, i);
        const e = s.charCodeAt(i + 1);
        if (e === 120 /* x: exactly two hex digits */) {
          i += 2;
          const lim = i + 2;
          if (lim >= len || scanHex(s, i, lim) !== lim) {
            this.fail(E.hexEscape);
            return -1;
          }
          out += codePointText(parseInt(s.substring(i, lim), 16));
          i = run = lim;
          continue;
        }
        if (e === 117 || e === 85 /* u: four hex digits, U: eight */) {
          i += 2;
          const lim = i + (e === 117 ? 4 : 8);
          if (scanHex(s, i, lim < len ? lim : len) !== lim) {
            this.fail(E.unicodeEscape);
            return -1;
          }
          out += codePointText(parseInt(s.substring(i, lim), 16));
          i = run = lim;
          continue;
        }
        // \n \t \f \r; any other escaped character stands for itself.
        out += e === 110 ? '\n' : e === 116 ? '\t' : e === 102 ? '\f' : e === 114 ? '\r' : s[i + 1];
        i = run = i + 2;
        continue;
      }
      if (c === quote) {
        out += s.substring(run, i);
        this.push(C.LIT, out);
        return i + 1;
      }
      if (c === 10 || c === 13) {
        this.fail(E.bareChar(c === 10 ? 'line feed' : 'carriage return'));
        return -1;
      }
      i++;
    }
    this.fail(E.unterminated);
    return -1;
  }
}

// ---------------------------------------------------------------------------
// Builder (shunting yard)
// ---------------------------------------------------------------------------

/** Postfix code for every statement, back to back; `ends[k]` is where statement k stops. */
export interface Code {
  codes: Int32Array;
  vals: unknown[];
  ends: number[];
}

/**
 * Dijkstra's shunting yard, one statement per `;`. A call puts an argument
 * marker on the output before its arguments, so calls take any number of them.
 * Mismatched parentheses are errors; a statement that has one is dropped.
 */
export function build(codes: Int32Array, vals: unknown[], n: number, errors: string[]): Code {
  // Output holds at most every token plus one marker per call: 2n.
  const outC = new Int32Array(2 * n);
  const outV: unknown[] = []; // appended in order (a presized big array would be dictionary-mode)
  const ends: number[] = [];
  const ops = new Int32Array(n); // indexes of pending operator and call tokens
  let top = 0; // size of ops
  let len = 0; // size of the output
  let start = 0; // where the current statement began in the output

  for (let i = 0; i <= n; i++) {
    const c = i === n ? C.SEMI : codes[i];
    if (c === C.LIT || c === C.VAR) {
      outC[len] = c;
      outV[len++] = vals[i];
      continue;
    }
    if (c === C.CALL) {
      outC[len] = C.ARGS;
      outV[len++] = null;
      ops[top++] = i;
      continue;
    }
    if (c === C.LPRN) {
      ops[top++] = i;
      continue;
    }
    if (c === C.SEMI) {
      // End of statement: flush the operators; a parenthesis left over is an error.
      let bad = -1;
      while (top !== 0) {
        const k = ops[--top];
        const kc = codes[k];
        if (kc === C.LPRN || kc === C.RPRN) {
          bad = kc;
          break;
        }
        outC[len] = kc;
        outV[len++] = vals[k];
      }
      if (bad !== -1) {
        errors.push(E.mismatched(DESC[bad]));
        len = start;
      } else if (len !== start) {
        ends.push(len);
        start = len;
      }
      continue;
    }
    if (c === C.COMMA || c === C.RPRN) {
      // Flush operators back to the nearest '('.
      while (top !== 0 && codes[ops[top - 1]] !== C.LPRN) {
        const k = ops[--top];
        outC[len] = codes[k];
        outV[len++] = vals[k];
      }
      if (c === C.COMMA) continue;
      if (top === 0) {
        errors.push(E.mismatched(DESC[c]));
        break;
      }
      top--; // the '('
      if (top !== 0 && codes[ops[top - 1]] === C.CALL) {
        const k = ops[--top];
        outC[len] = C.CALL;
        outV[len++] = vals[k];
      }
      continue;
    }
    // An operator: first output what binds tighter (or as tight, when left-associative); calls go too.
    const p = PREC[c];
    while (top !== 0) {
      const k = ops[top - 1];
      const kc = codes[k];
      if (kc < 30) {
        if (kc === C.LPRN) break;
        const q = PREC[kc];
        if (!(q > p || (q === p && !RIGHT[kc]))) break;
      }
      top--;
      outC[len] = kc;
      outV[len++] = vals[k];
    }
    ops[top++] = i;
  }
  return { codes: outC, vals: outV, ends };
}

// ---------------------------------------------------------------------------
// Evaluator
// ---------------------------------------------------------------------------

/** Reduce error messages (the part after the expression). */
export const R = {
  callFailed: (name: string) => `${templateMessages.ERROR_CALLING_FUNCTION} ${name}`,
  badArgs: (desc: string) => `${templateMessages.INVALID_OPERATOR_ARGUMENTS} ${desc}`,
  tooLong: (n: number) => `${templateMessages.MAX_STRING_LENGTH} ${n}`,
  badResult: 'Reduce error: unexpected token on stack',
};

/** The longest string V8 builds; without a configured limit, concatenation stops here with the same message. */
export const V8_MAX_STRING = (1 << 29) - 24;

/** The argument marker, as it sits on the value stack. */
const ARGS = { args: true };

/** A slot as a literal: references resolve; objects, arrays, markers and "no value" give undefined. */
function lit(ctx: Context, x: unknown): Lit | undefined {
  if (x instanceof VarRef) {
    const v = ctx.resolve(x.path);
    switch (typeof v) {
      case 'number':
      case 'string':
      case 'boolean':
        return v;
      case 'undefined':
        return null;
      case 'object':
        return v === null ? null : undefined;
      default:
        return undefined;
    }
  }
  return x === ARGS ? undefined : (x as Lit | undefined);
}

export interface ReduceHost {
  ctx: Context;
  /** 0 for no configured limit. */
  maxStringLen: number;
  /** Report a reduce error (the message without the expression prefix). */
  fail(msg: string): void;
}

/**
 * Evaluate statement code[from, to). Stack slots hold literals, unresolved
 * references (so assignment sees the name), call markers, or `undefined` for
 * "no value". Returns the statement's value, or undefined when it has none.
 */
export function reduce(code: Code, from: number, to: number, h: ReduceHost, stack: unknown[]): Lit | undefined {
  const ctx = h.ctx;
  const codes = code.codes;
  const vals = code.vals;
  let sp = 0;
  loop: for (let i = from; i < to; i++) {
    const c = codes[i];
    switch (c) {
      case C.LIT:
      case C.VAR:
        stack[sp++] = vals[i];
        continue;
      case C.ARGS:
        stack[sp++] = ARGS;
        continue;
      case C.CALL: {
        const args: Lit[] = [];
        while (sp > 0 && stack[sp - 1] !== undefined && stack[sp - 1] !== ARGS) {
          const a = lit(ctx, stack[--sp]);
          if (a !== undefined) args.push(a);
        }
        if (sp > 0) sp--; // the marker
        args.reverse();
        const name = vals[i] as string;
        const r = (FUNCTIONS.get(name) as ExprFn)(args);
        if (r === undefined) {
          h.fail(R.callFailed(name));
          break loop;
        }
        stack[sp++] = r;
        continue;
      }
      case C.MINUS:
      case C.PLUS:
      case C.LNOT:
      case C.BNOT: {
        if (sp === 0) continue;
        const a = lit(ctx, stack[sp - 1]);
        stack[sp - 1] =
          a === undefined ? undefined : c === C.MINUS ? -1 * toNum(a) : c === C.PLUS ? toNum(a) : c === C.LNOT ? !toBool(a) : ~toNum(a);
        continue;
      }
      case C.ASN: {
        const b = sp > 0 ? lit(ctx, stack[--sp]) : undefined;
        const a = sp > 0 ? stack[--sp] : undefined;
        if (a instanceof VarRef && b !== undefined) {
          const path = a.path;
          const name = path[0];
          if (path.length === 1 && typeof name === 'string' && name.charCodeAt(0) === 64 /* @ */) ctx.setVar(name, b);
        }
        // An assignment ends its statement and leaves no value.
        return undefined;
      }
    }
    // Binary operators.
    const b = sp > 0 ? lit(ctx, stack[--sp]) : undefined;
    const a = sp > 0 ? lit(ctx, stack[--sp]) : undefined;
    if (a === undefined || b === undefined) {
      h.fail(R.badArgs(DESC[c]));
      break loop;
    }
    let r: Lit;
    switch (c) {
      case C.MUL:
        r = toNum(a) * toNum(b);
        break;
      case C.DIV:
        r = toNum(a) / toNum(b);
        break;
      case C.ADD:
        if (typeof a === 'string' || typeof b === 'string') {
          const x = toStr(a);
          const y = toStr(b);
          const max = h.maxStringLen > 0 ? h.maxStringLen : V8_MAX_STRING;
          if (x.length + y.length > max) {
            h.fail(R.tooLong(max));
            break loop;
          }
          r = x + y;
        } else {
          r = toNum(a) + toNum(b);
        }
        break;
      case C.SUB:
        r = toNum(a) - toNum(b);
        break;
      case C.POW:
        r = toNum(a) ** toNum(b);
        break;
      case C.MOD:
        r = toNum(a) % toNum(b);
        break;
      case C.SHL:
        r = toNum(a) << toNum(b);
        break;
      case C.SHR:
        r = toNum(a) >> toNum(b);
        break;
      // Relational and equality operators compare the raw values, as JavaScript does.
      case C.LT:
        r = (a as number) < (b as number);
        break;
      case C.LTEQ:
        r = (a as number) <= (b as number);
        break;
      case C.GT:
        r = (a as number) > (b as number);
        break;
      case C.GTEQ:
        r = (a as number) >= (b as number);
        break;
      case C.EQ:
        r = a == b;
        break;
      case C.NEQ:
        r = a != b;
        break;
      case C.SEQ:
        r = a === b;
        break;
      case C.SNEQ:
        r = a !== b;
        break;
      case C.BAND:
        r = toNum(a) & toNum(b);
        break;
      case C.BXOR:
        r = toNum(a) ^ toNum(b);
        break;
      case C.BOR:
        r = toNum(a) | toNum(b);
        break;
      case C.LAND:
        r = toBool(a) && toBool(b);
        break;
      default: // C.LOR; separators and parentheses never reach code
        r = toBool(a) || toBool(b);
        break;
    }
    stack[sp++] = r;
  }
  if (sp === 0) return undefined;
  const top = stack[sp - 1];
  if (top === undefined) return undefined;
  const v = lit(ctx, top);
  if (v === undefined) h.fail(R.badResult);
  return v;
}

/** Error kinds of the template engine. Errors are values, never thrown at callers. */
import { template as templateMessages } from '../core/messages';

export type ErrorType = 'parser' | 'assembler' | 'engine';

export interface TemplateError {
  type: ErrorType;
  message: string;
  line: number;
  column: number;
}

/** Source text with a lazily built line table, used to turn offsets into line/column. */
export class Source {
  private lines: number[] | null = null;
  constructor(readonly text: string) {}

  position(offset: number): { line: number; column: number } {
    if (this.lines === null) {
      const starts = [0];
      const s = this.text;
      for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) starts.push(i + 1);
      this.lines = starts;
    }
    const ls = this.lines;
    let lo = 0;
    let hi = ls.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (ls[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - ls[lo] + 1 };
  }
}

export function makeError(type: ErrorType, message: string, src: Source | null, offset: number): TemplateError {
  if (src === null) return { type, message, line: 0, column: 0 };
  const p = src.position(offset);
  return { type, message, line: p.line, column: p.column };
}

const syntax = (m: string) => `SyntaxError: ${m}`;
const runtime = (m: string) => `RuntimeError: ${m}`;

export const Msg = {
  // parser
  formatterUnknown: (name: string) => syntax(`Formatter '${name}' is unknown`),
  predicateUnknown: (name: string) => syntax(`Predicate '${name}' is unknown`),
  // assembler
  deadCode: (op: string) => syntax(`This ${op} block will never execute.`),
  eofInBlock: (op: string) => syntax(`Reached EOF in the middle of ${op}`),
  notAllowedInBlock: (op: string, parent: string) => syntax(`${op} instruction is not allowed inside ${parent} block.`),
  notAllowedAtRoot: (op: string) => syntax(`Instruction ${op} not allowed at root`),
  unclosed: (op: string) =>
    syntax(`Unclosed ${op}: perhaps an EOF was not fed to the machine? ` + 'If not, this represents a bug in the state machine.'),
  transitionFromEOF: (op: string) =>
    syntax(
      `${op} Attempt to transition from the EOF state. ` +
        'This is either a bug in the state machine or instructions were fed to the state ' +
        'machine after EOF.',
    ),
  // engine
  expressionParse: (expr: string, err: string) => runtime(`Error parsing expression: ${JSON.stringify(expr)}: ${err}`),
  expressionReduce: (expr: string, err: string) => runtime(`Error reducing expression: ${expr}: ${err}`),
  partialMissing: (name: string) => runtime(`Attempt to apply partial '${name}' which could not be found.`),
  partialParseFail: (name: string, msg: string) => runtime(`Parse of partial "${name}" failed: ${msg}`),
  partialRecursion: (name: string, limit: number) =>
    runtime(`Attempt to apply partial '${name}' exceeded maximum recursion depth of ${limit}`),
  unexpected: (type: string, op: string, msg: string) => runtime(`Unexpected ${type} error when executing ${op}: ${msg}`),
  notImplemented: (name: string) => templateMessages.formatterNotImplemented(name),
};

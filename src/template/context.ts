/**
 * Render-time state: the frame stack (a linked list of small frames), the
 * output buffer, errors, partials, options. One Context per render call.
 */
import { Msg, makeError, type ErrorType, type TemplateError } from './errors';
import { Op, type Inst, type MacroInst, type Path, type RootInst } from './types';
import { step } from './util';

const hasOwn = Object.prototype.hasOwnProperty;
import type { WidgetRenderer } from './widgets';

export const MAX_PARTIAL_DEPTH = 16;

export class Frame {
  node: unknown;
  parent: Frame | null;
  index: number;
  stop: boolean;
  /** Variables bound on this frame, as flat pairs [name, value, name, value, ...]. */
  vars: unknown[] | null;
  macros: Map<string, MacroInst> | null;
  constructor(node: unknown, parent: Frame | null) {
    this.node = node;
    this.parent = parent;
    this.index = -1;
    this.stop = false;
    this.vars = null;
    this.macros = null;
  }
}

export interface RenderOptions {
  partials?: Record<string, string>;
  injects?: Record<string, unknown>;
  locale?: string;
  now?: number;
  timeZone?: string;
  enableExpr?: boolean;
  enableInclude?: boolean;
  exprOpts?: { maxTokens?: number; maxStringLen?: number };
  renderer?: WidgetRenderer;
}

export type PartialLoader = (name: string, source: string) => { code: RootInst | null; errors: TemplateError[] };

export class Context {
  buf = '';
  frame: Frame;
  errors: TemplateError[] = [];
  depth = 0;
  readonly partials: Record<string, string>;
  readonly injects: Record<string, unknown>;
  readonly locale: string;
  readonly now: number | undefined;
  readonly timeZone: string;
  readonly enableExpr: boolean;
  readonly enableInclude: boolean;
  readonly exprOpts: { maxTokens?: number; maxStringLen?: number } | undefined;
  readonly renderer: WidgetRenderer | undefined;
  private parsed: Map<string, RootInst | null> | null = null;
  /** Scratch space for formatters and predicates that cache per render. */
  cache: Map<string, unknown> | null = null;
  /** The bottom frame (never popped). */
  readonly root: Frame;
  /** Set once a macro is defined anywhere but the root frame; until then macro lookup reads the root only. */
  private scopedMacros = false;

  constructor(
    json: unknown,
    opts: RenderOptions,
    private loader: PartialLoader,
  ) {
    this.frame = this.root = new Frame(json, null);
    this.partials = opts.partials ?? {};
    this.injects = opts.injects ?? {};
    this.locale = opts.locale ?? 'en-US';
    this.now = opts.now;
    this.timeZone = opts.timeZone ?? 'America/New_York';
    this.enableExpr = opts.enableExpr === true;
    this.enableInclude = opts.enableInclude === true;
    this.exprOpts = opts.exprOpts;
    this.renderer = opts.renderer;
  }

  error(type: ErrorType, message: string, inst: Inst | null): void {
    this.errors.push(inst === null ? { type, message, line: 0, column: 0 } : makeError(type, message, inst.src, inst.pos));
  }

  node(): unknown {
    return this.frame.node;
  }

  push(node: unknown): Frame {
    const f = new Frame(node, this.frame);
    this.frame = f;
    return f;
  }

  /**
   * Make `v` the node that plain names resolve against first; returns the
   * frame to restore. A value that already is the current node pushes
   * nothing (a duplicate frame would resolve every name the same way).
   */
  pushValue(v: unknown): Frame {
    const saved = this.frame;
    if (v !== saved.node) this.frame = new Frame(v, saved);
    return saved;
  }

  pop(): void {
    const p = this.frame.parent;
    if (p !== null) this.frame = p;
  }

  setVar(name: string, value: unknown): void {
    const f = this.frame;
    const vars = f.vars;
    if (vars === null) {
      f.vars = [name, value];
      return;
    }
    for (let i = 0; i < vars.length; i += 2) {
      if (vars[i] === name) {
        vars[i + 1] = value;
        return;
      }
    }
    vars.push(name, value);
  }

  setMacro(name: string, inst: MacroInst): void {
    const f = this.frame;
    if (f !== this.root) this.scopedMacros = true;
    (f.macros ??= new Map()).set(name, inst);
  }

  resolveName(name: string | number, f: Frame): unknown {
    if (typeof name === 'string' && name.charCodeAt(0) === 64 /* @ */) {
      if (name.length === 1) return f.node;
      if (name === '@index') return f.index !== -1 ? f.index + 1 : undefined;
      if (name === '@index0') return f.index !== -1 ? f.index : undefined;
      const vars = f.vars;
      if (vars === null) return undefined;
      for (let i = 0; i < vars.length; i += 2) if (vars[i] === name) return vars[i + 1];
      return undefined;
    }
    const n = f.node;
    if (n !== null && typeof n === 'object') {
      const v = (n as Record<string | number, unknown>)[name];
      return typeof v === 'function' ? undefined : v;
    }
    return undefined;
  }

  lookup(name: string | number, frame: Frame = this.frame): unknown {
    if (typeof name === 'string' && name.charCodeAt(0) === 64 /* @ */) return this.lookupAt(name, frame);
    // Plain names: the first frame whose node has the property (functions do not count).
    for (let f: Frame | null = frame; f !== null; f = f.parent) {
      const n = f.node;
      if (n !== null && typeof n === 'object') {
        const v = (n as Record<string | number, unknown>)[name];
        if (v !== undefined && typeof v !== 'function') return v;
      }
      if (f.stop) break;
    }
    return undefined;
  }

  /** `@`, `@index`, `@index0` and `@variables`, walking up the frames. */
  private lookupAt(name: string, frame: Frame): unknown {
    const kind = name.length === 1 ? 0 : name === '@index' ? 1 : name === '@index0' ? 2 : 3;
    for (let f: Frame | null = frame; f !== null; f = f.parent) {
      let v: unknown;
      if (kind === 3) {
        const vars = f.vars;
        if (vars !== null) {
          for (let i = 0; i < vars.length; i += 2) {
            if (vars[i] === name) {
              v = vars[i + 1];
              break;
            }
          }
        }
      } else if (kind === 0) v = f.node;
      else if (f.index !== -1) v = kind === 1 ? f.index + 1 : f.index;
      if (v !== undefined) return v;
      if (f.stop) break;
    }
    return undefined;
  }

  resolve(names: Path, frame: Frame = this.frame): unknown {
    const n = names.length;
    if (n === 0) return undefined;
    const first = names[0];
    let v = first === '@' ? frame.node : this.lookup(first, frame);
    for (let i = 1; i < n; i++) {
      if (v === undefined || v === null || typeof v !== 'object') return undefined;
      const key = names[i];
      if (Array.isArray(v)) {
        if (typeof key !== 'number') return undefined;
        v = v[key];
      } else {
        if (!hasOwn.call(v, key)) return undefined;
        v = (v as Record<string | number, unknown>)[key];
      }
      if (typeof v === 'function') return undefined;
    }
    return v;
  }

  /** Resolve a section's name against the current frame only, then follow the rest of the path. */
  resolveSection(names: Path): unknown {
    const f = this.frame;
    const first = names[0];
    let v: unknown;
    if (first === '@') v = f.node;
    else if (typeof first === 'string' && first.charCodeAt(0) === 64 /* @ */) v = this.resolveName(first, f);
    else {
      const n = f.node;
      if (n !== null && typeof n === 'object') {
        v = (n as Record<string | number, unknown>)[first];
        if (typeof v === 'function') v = undefined;
      }
    }
    for (let i = 1; i < names.length; i++) {
      v = step(v, names[i]);
      if (v === undefined) return undefined;
    }
    return v;
  }

  getMacro(name: string): MacroInst | null {
    if (!this.scopedMacros) {
      const m = this.root.macros;
      if (m === null) return null;
      const hit = m.get(name);
      return hit === undefined ? null : hit;
    }
    for (let f: Frame | null = this.frame; f !== null; f = f.parent) {
      if (f.macros !== null) {
        const m = f.macros.get(name);
        if (m !== undefined) return m;
      }
    }
    return null;
  }

  /** A macro in scope, or the named partial compiled (cached per render). */
  getPartial(name: string): RootInst | MacroInst | null {
    const m = this.getMacro(name);
    if (m !== null) return m;
    const parsed = (this.parsed ??= new Map());
    if (parsed.has(name)) return parsed.get(name) ?? null;
    if (!Object.prototype.hasOwnProperty.call(this.partials, name)) return null;
    const raw = this.partials[name];
    let code: RootInst | null = null;
    if (typeof raw === 'string') {
      const res = this.loader(name, raw);
      if (res.errors.length > 0) {
        for (const e of res.errors) {
          this.errors.push({ type: 'engine', message: Msg.partialParseFail(name, e.message), line: e.line, column: e.column });
        }
        code = { op: Op.ROOT, pos: 0, src: null as never, block: [] };
      } else {
        code = res.code;
      }
    }
    parsed.set(name, code);
    return code;
  }

  enterPartial(name: string, inst: Inst | null): boolean {
    if (this.depth >= MAX_PARTIAL_DEPTH) {
      this.error('engine', Msg.partialRecursion(name, MAX_PARTIAL_DEPTH), inst);
      return false;
    }
    this.depth++;
    return true;
  }

  exitPartial(): void {
    this.depth--;
  }
}

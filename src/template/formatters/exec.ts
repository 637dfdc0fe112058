/** Run a built-in template (widget markup) against a value and capture its output. */
import type { Context } from '../context';
import { runBlock } from '../engine';
import { Source } from '../errors';
import { Assembler } from '../assembler';
import { Parser } from '../parser';
import type { RootInst, TemplateErrorList } from './exec-types';
import type { WidgetName, WidgetProps } from '../widgets';
import { REGISTRY_REF } from './registry-ref';

const cache = new Map<string, RootInst>();

/** Compile a built-in template once (lazily, after every formatter is registered). */
export function builtin(source: string): RootInst {
  let root = cache.get(source);
  if (root === undefined) {
    const errors: TemplateErrorList = [];
    const src = new Source(source);
    const asm = new Assembler(src, errors);
    new Parser(src, asm, REGISTRY_REF.current!, errors).parse();
    if (errors.length) throw new Error('built-in template failed to compile: ' + errors[0].message);
    root = asm.root;
    cache.set(source, root);
  }
  return root;
}

export function execTemplate(ctx: Context, source: string, node: unknown, priv: boolean): string {
  const root = builtin(source);
  const savedBuf = ctx.buf;
  const savedFrame = ctx.frame;
  ctx.buf = '';
  const f = ctx.push(node);
  f.stop = priv;
  try {
    runBlock(root.block, ctx);
    return ctx.buf;
  } finally {
    ctx.frame = savedFrame;
    ctx.buf = savedBuf;
  }
}

/** Let an injected renderer draw a widget; falls back to the engine's markup. */
/** A widget call's props, with the engine's default markup made on first read (a class: one shape for every call). */
class WidgetCall implements WidgetProps {
  private made: string | undefined;
  constructor(
    readonly item: unknown,
    readonly args: string[],
    private readonly markup: string | (() => string),
    readonly data: Record<string, unknown>,
    readonly locale: string,
  ) {}
  get html(): string {
    if (this.made === undefined) this.made = typeof this.markup === 'string' ? this.markup : this.markup();
    return this.made;
  }
}

/**
 * A widget's HTML: the renderer's, else the engine's default markup. The default may be given as a function,
 * made only when the renderer does not answer or reads `props.html` (a renderer that draws its own widget
 * from its own cache then costs the engine nothing).
 */
export function widget(
  ctx: Context,
  name: WidgetName,
  item: unknown,
  args: string[],
  html: string | (() => string),
  data: Record<string, unknown> = {},
): string {
  const r = ctx.renderer;
  if (r === undefined) return typeof html === 'string' ? html : html();
  const props = new WidgetCall(item, args, html, data, ctx.locale);
  const out = r.render(name, props);
  return typeof out === 'string' ? out : props.html;
}

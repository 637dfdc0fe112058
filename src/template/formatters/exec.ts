/** Run a built-in template (widget markup) against a value and capture its output. */
import type { Context } from '../context';
import { runBlock } from '../engine';
import { Source } from '../errors';
import { Assembler } from '../assembler';
import { Parser } from '../parser';
import type { RootInst, TemplateErrorList } from './exec-types';
import type { WidgetName } from '../widgets';
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
/**
 * A widget's HTML: the renderer's, else the engine's default markup. The default may be given as a function,
 * made only when the renderer does not answer or reads `props.html` (a renderer that draws its own widget
 * from its own cache then costs the engine nothing).
 */
export function widget(ctx: Context, name: WidgetName, item: unknown, args: string[], html: string | (() => string), data: Record<string, unknown> = {}): string {
  const r = ctx.renderer;
  if (r === undefined) return typeof html === 'string' ? html : html();
  let made: string | undefined = typeof html === 'string' ? html : undefined;
  const markup = () => (made ??= (html as () => string)());
  const out = r.render(name, {
    item,
    args,
    get html() {
      return markup();
    },
    data,
    locale: ctx.locale,
  });
  return typeof out === 'string' ? out : markup();
}

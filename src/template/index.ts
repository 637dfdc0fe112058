/**
 * JSON-Template engine: compile once to a tree, render many times.
 *
 *   const { code, errors } = compile(source);
 *   const { output, errors } = render(code, json, { partials, locale, ... });
 */
import { Assembler } from './assembler';
import { Context, type RenderOptions } from './context';
import { runBlock } from './engine';
import { Source, type TemplateError } from './errors';
import { Parser } from './parser';
import { REGISTRY } from './registry';
import type { Compiled, RootInst } from './types';
import { newRenderEpoch } from './formatters/commerce-util';

export type { TemplateError, ErrorType } from './errors';
export type { Compiled } from './types';
export type { RenderOptions } from './context';
export type { WidgetRenderer, WidgetName, WidgetProps } from './widgets';

function parseRoot(source: string): { root: RootInst; errors: TemplateError[] } {
  const errors: TemplateError[] = [];
  const src = new Source(source);
  const asm = new Assembler(src, errors);
  new Parser(src, asm, REGISTRY, errors).parse();
  return { root: asm.root, errors };
}

export function compile(source: string): { code: Compiled; errors: TemplateError[] } {
  const { root, errors } = parseRoot(String(source ?? ''));
  return { code: { root }, errors };
}

/** Compiled partials, keyed by source text (compiling is pure, so sharing is safe). */
const partialCache = new Map<string, { code: RootInst; errors: TemplateError[] }>();
const PARTIAL_CACHE_MAX = 1000;

function loadPartial(_name: string, source: string): { code: RootInst; errors: TemplateError[] } {
  let hit = partialCache.get(source);
  if (hit === undefined) {
    const r = parseRoot(source);
    hit = { code: r.root, errors: r.errors };
    if (partialCache.size >= PARTIAL_CACHE_MAX) partialCache.clear();
    partialCache.set(source, hit);
  }
  return hit;
}

export function render(code: Compiled | string, json: unknown, options: RenderOptions = {}): { output: string; errors: TemplateError[] } {
  let errors: TemplateError[] = [];
  let compiled: Compiled;
  if (typeof code === 'string') {
    const r = compile(code);
    compiled = r.code;
    errors = r.errors;
  } else {
    compiled = code;
  }
  newRenderEpoch();
  const ctx = new Context(json === undefined ? {} : json, options, loadPartial);
  runBlock(compiled.root.block, ctx);
  return { output: ctx.buf, errors: errors.length ? errors.concat(ctx.errors) : ctx.errors };
}

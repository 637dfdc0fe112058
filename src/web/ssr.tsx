/** The one entry the server imports from web: renders islands to HTML for the first paint. */
import { renderToString } from 'react-dom/server';
import { createElement, type ComponentType } from 'react';
import { islands } from './islands/registry.js';
import { AdditionalFieldsForm, type AdditionalFieldsFormViewProps } from './islands/AdditionalFieldsForm.js';
import { escapeHtml } from '../core/html.js';

// The registry holds loaders (the browser fetches an island's chunk only when a page has it); the server
// resolves them all once at start, so rendering stays synchronous.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const components = new Map<string, ComponentType<any>>(
  await Promise.all(Object.entries(islands).map(async ([name, load]) => [name, await load()] as const)),
);

/**
 * Recent renders by island, tag and props. An island's markup is a function of its props alone (the
 * browser hydrates it from those props), so the same props give the same HTML: the product page's
 * controls and a list's cards are rendered by React once, not on every request. Bounded by the characters
 * kept (keys and markup; a catalogue of thousands of products has several islands each, so a bound of a
 * few thousand entries made a long tail render them again and again), and an entry is re-rendered after a
 * minute all the same.
 */
const CACHE_MAX_CHARS = 16 * 1024 * 1024;
const CACHE_ENTRY_MAX_CHARS = 64 * 1024;
const CACHE_TTL_MS = 60_000;
const rendered = new Map<string, { html: string; at: number; chars: number }>();
let renderedChars = 0;

function forget(key: string): void {
  const old = rendered.get(key);
  if (!old) return;
  rendered.delete(key);
  renderedChars -= old.chars;
}

export function renderIsland(name: string, props: Record<string, unknown>, tag: 'div' | 'span' = 'div'): string {
  const json = JSON.stringify(props);
  const key = `${tag} ${name} ${json}`;
  const now = Date.now();
  const hit = rendered.get(key);
  if (hit && now - hit.at < CACHE_TTL_MS) {
    // Most recently used last, so the oldest entry is the first to go.
    rendered.delete(key);
    rendered.set(key, hit);
    return hit.html;
  }
  const Comp = components.get(name);
  if (!Comp) throw new Error(`Unknown island ${name}`);
  const html = `<${tag} data-island="${escapeHtml(name)}" data-props="${escapeHtml(json)}">${renderToString(createElement(Comp, props))}</${tag}>`;
  const chars = key.length + html.length;
  if (chars <= CACHE_ENTRY_MAX_CHARS) {
    forget(key);
    while (renderedChars + chars > CACHE_MAX_CHARS && rendered.size > 0) forget(rendered.keys().next().value!);
    rendered.set(key, { html, at: now, chars });
    renderedChars += chars;
  }
  return html;
}

/** A product's additional-fields form as a plain form post (no JavaScript; not an island, never hydrated). */
export function renderPlainFieldsForm(props: Omit<AdditionalFieldsFormViewProps, 'onSubmit' | 'saving'>): string {
  return renderToString(createElement(AdditionalFieldsForm, { ...props, saving: false, onSubmit: () => undefined }));
}

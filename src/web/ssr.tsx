/** The one entry the server imports from web: renders islands to HTML for the first paint. */
import { renderToString } from 'react-dom/server';
import { createElement } from 'react';
import { islands } from './islands/registry.js';

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function renderIsland(name: string, props: Record<string, unknown>, tag: 'div' | 'span' = 'div'): string {
  const Comp = islands[name];
  if (!Comp) throw new Error(`Unknown island ${name}`);
  const html = renderToString(createElement(Comp, props));
  return `<${tag} data-island="${escapeAttr(name)}" data-props="${escapeAttr(JSON.stringify(props))}">${html}</${tag}>`;
}



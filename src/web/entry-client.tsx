/** The public pages' bundle: hydrates every server-rendered island. */
import { hydrateRoot } from 'react-dom/client';
import { createElement } from 'react';
import { islands } from './islands/registry.js';
import './client/analytics-start.js';

function hydrateAll() {
  for (const el of document.querySelectorAll<HTMLElement>('[data-island]')) {
    const Comp = islands[el.dataset.island ?? ''];
    if (!Comp || el.dataset.hydrated) continue;
    el.dataset.hydrated = '1';
    let props: Record<string, unknown> = {};
    try {
      props = JSON.parse(el.dataset.props ?? '{}') as Record<string, unknown>;
    } catch {
      /* keep the server markup as it is */
      continue;
    }
    hydrateRoot(el, createElement(Comp, props), {
      onRecoverableError: (err) => console.warn('tessera: island hydration', el.dataset.island, err),
    });
  }
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', hydrateAll);
else hydrateAll();

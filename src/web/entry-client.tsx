/**
 * The public pages' bundle: finds the server-rendered islands, downloads the chunk of each island kind on
 * the page (see islands/registry.ts) and hydrates them. React itself is the only library loaded up front.
 */
import { hydrateRoot } from 'react-dom/client';
import { createElement } from 'react';
import { islands } from './islands/registry.js';
import { IslandBoundary } from './islands/IslandBoundary.js';
import './client/analytics-start.js';

function hydrate(el: HTMLElement, name: string, Comp: Parameters<typeof createElement>[0]) {
  let props: Record<string, unknown> = {};
  try {
    props = JSON.parse(el.dataset.props ?? '{}') as Record<string, unknown>;
  } catch {
    /* keep the server markup as it is */
    return;
  }
  // Inside an error boundary: a crash is reported and the island shows alternative content (it adds no
  // markup of its own, so the server's HTML still matches).
  hydrateRoot(el, createElement(IslandBoundary, { name }, createElement(Comp, props)), {
    onRecoverableError: (err) => console.warn('tessera: island hydration', name, err),
  });
  el.dataset.hydrated = '1';
  delete el.dataset.hydrating;
}

function hydrateAll() {
  const byName = new Map<string, HTMLElement[]>();
  for (const el of document.querySelectorAll<HTMLElement>('[data-island]')) {
    const name = el.dataset.island ?? '';
    if (!islands[name] || el.dataset.hydrated || el.dataset.hydrating) continue;
    el.dataset.hydrating = '1';
    byName.set(name, [...(byName.get(name) ?? []), el]);
  }
  for (const [name, els] of byName) {
    islands[name]!().then(
      (Comp) => {
        for (const el of els) hydrate(el, name, Comp);
      },
      (err: unknown) => console.warn('tessera: island failed to load', name, err),
    );
  }
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', hydrateAll);
else hydrateAll();

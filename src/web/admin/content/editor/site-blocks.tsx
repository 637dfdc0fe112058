/**
 * The visual canvas's pictures of blocks: each block's HTML as the site renders it (the theme's partials,
 * asked of POST /api/editor/pages/:id/render), shown in a shadow root with the site's own stylesheets so
 * neither the admin's styles nor the site's leak across. Pictures are kept per block content and width, so
 * only a changed block is asked for again. The picture is inert: pointer events go to the canvas block.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { Block, PageLayout } from '../../../../core/layout.js';
import { renderBlocks, type EditTarget } from './api.js';
import { escapeHtml } from '../../../../core/html.js';

export interface Picture {
  name: string;
  html: string;
}
export interface SiteLook {
  css: string;
  stylesheets: string[];
}

const keyOf = (b: Block) => JSON.stringify([b.type, b.variant, b.data, b.desktop.w, b.mobile.w]);

/** The pictures of a layout's blocks (by block id), and the site's CSS, once loaded. */
export function useBlockPictures(target: EditTarget, layout: PageLayout): { pictures: Map<string, Picture>; look: SiteLook | null } {
  const cache = useRef(new Map<string, Picture | null>());
  const pending = useRef(new Set<string>());
  const [look, setLook] = useState<SiteLook | null>(null);
  const [, setTick] = useState(0);
  const { kind, id } = target;

  useEffect(() => {
    const missing: Block[] = [];
    for (const s of layout.sections)
      for (const b of s.blocks) if (!cache.current.has(keyOf(b)) && !pending.current.has(keyOf(b))) missing.push(b);
    if (missing.length === 0) return;
    const timer = setTimeout(() => {
      const keys = missing.map(keyOf);
      keys.forEach((k) => pending.current.add(k));
      const section = layout.sections[0]!;
      const ask = (blocks: Block[]) => renderBlocks({ kind, id }, { ...layout, sections: [{ ...section, blocks }] });
      const store = (blocks: Block[], r: Awaited<ReturnType<typeof renderBlocks>>) => {
        for (const b of blocks) cache.current.set(keyOf(b), r.blocks[b.id] ?? null);
        setLook((l) =>
          l && l.css === r.css && l.stylesheets.join() === r.stylesheets.join() ? l : { css: r.css, stylesheets: r.stylesheets },
        );
      };
      ask(missing)
        .then((r) => store(missing, r))
        // One invalid block (a half-typed link) refuses the batch: ask for each block alone.
        .catch(() =>
          Promise.all(
            missing.map((b) =>
              ask([b]).then(
                (r) => store([b], r),
                () => cache.current.set(keyOf(b), null),
              ),
            ),
          ),
        )
        .finally(() => {
          keys.forEach((k) => pending.current.delete(k));
          setTick((n) => n + 1);
        });
    }, 150);
    return () => clearTimeout(timer);
  }, [kind, id, layout]);

  const pictures = new Map<string, Picture>();
  for (const s of layout.sections) {
    for (const b of s.blocks) {
      const p = cache.current.get(keyOf(b));
      if (p && p.html) pictures.set(b.id, p);
    }
  }
  return { pictures, look };
}

/** Fonts declared inside a shadow root are not loaded: the site's @font-face rules go to the document once. */
function hoistFontFaces(css: string) {
  const faces = css.match(/@font-face\s*\{[^}]*\}/g)?.join('\n') ?? '';
  let el = document.getElementById('ed-site-fonts') as HTMLStyleElement | null;
  if (!faces) return;
  if (!el) {
    el = document.createElement('style');
    el.id = 'ed-site-fonts';
    document.head.appendChild(el);
  }
  if (el.textContent !== faces) el.textContent = faces;
}

/** One block as the site draws it, in a section of colour theme `theme`. */
export function SiteBlock({ picture, look, theme }: { picture: Picture; look: SiteLook; theme: string }) {
  const host = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = host.current;
    if (!el) return;
    hoistFontFaces(look.css);
    const root = el.shadowRoot ?? el.attachShadow({ mode: 'open' });
    root.innerHTML =
      look.stylesheets.map((h) => `<link rel="stylesheet" href="${escapeHtml(h)}">`).join('') +
      `<style>:host{all:initial;display:block}\n${look.css}\n:host{background:transparent!important;margin:0!important;padding:0!important}` +
      `.ts-canvas-shell{padding:0!important;margin:0!important;border-radius:0!important;pointer-events:none;background:transparent!important}</style>` +
      `<div class="ts-layout"><div class="ts-section ts-theme-${escapeHtml(theme)} ts-canvas-shell"><div class="fe-block fe-block--${escapeHtml(picture.name)}">${picture.html}</div></div></div>`;
  }, [picture, look, theme]);
  return <div ref={host} className="ed-site-block" />;
}

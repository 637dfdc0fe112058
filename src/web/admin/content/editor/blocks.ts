/** What the editor says about a block: its name for people and screen readers, and the text-block formats. */
import { BlockType } from '../../../../core/enums.js';
import { blockLabel, isRenderedBlock, type Block } from '../../../../core/layout.js';
import { escapeHtml } from '../../../../core/html.js';

/** The text of some HTML, without running or loading anything (a template element is inert). */
export function htmlText(html: string): string {
  if (typeof document === 'undefined')
    return html
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
  const t = document.createElement('template');
  t.innerHTML = html;
  return (t.content.textContent ?? '').replace(/\s+/g, ' ').trim();
}

export type TextFormat = 'h1' | 'h2' | 'h3' | 'p' | 'html';

const unescapeHtml = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

/**
 * A text block's HTML seen as one of the simple formats the form edits (a heading, or paragraphs of
 * plain text); anything richer is edited as HTML.
 */
export function readTextBlock(html: string): { format: TextFormat; text: string } {
  const h = html.trim().match(/^<(h[1-3])>([^<]*)<\/\1>$/);
  if (h) return { format: h[1] as TextFormat, text: unescapeHtml(h[2]!) };
  if (html.trim() === '') return { format: 'p', text: '' };
  const paras = html.trim().match(/^(?:<p>(?:[^<]|<br>)*<\/p>\s*)+$/);
  if (paras) {
    const text = [...html.matchAll(/<p>((?:[^<]|<br>)*)<\/p>/g)].map((m) => unescapeHtml(m[1]!.replace(/<br>/g, '\n'))).join('\n\n');
    return { format: 'p', text };
  }
  return { format: 'html', text: html };
}

export function writeTextBlock(format: TextFormat, text: string): string {
  if (format === 'html') return text;
  if (format === 'p') {
    return text
      .split(/\n\s*\n/)
      .map((p) => p.trim())
      .filter(Boolean)
      .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
      .join('');
  }
  return `<${format}>${escapeHtml(text.replace(/\s*\n\s*/g, ' '))}</${format}>`;
}

/** 'Heading' for a text block that holds one heading, else the block's label. */
export function kindName(b: Block): string {
  if (b.type === BlockType.HTML) {
    const f = readTextBlock(String(b.data.html ?? '')).format;
    return f === 'h1' || f === 'h2' || f === 'h3' ? 'Heading' : 'Text';
  }
  return blockLabel(b.type);
}

const clip = (s: string, n = 60) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** A short summary of a block's content, for its name and the canvas. */
export function blockSummary(b: Block, products: ReadonlyArray<{ id: string; title: string }> = []): string {
  const d = b.data;
  const s = (k: string) => (typeof d[k] === 'string' ? (d[k] as string) : '');
  switch (b.type) {
    case BlockType.HTML:
      return clip(htmlText(s('html')));
    case BlockType.MARKDOWN:
      return clip(
        s('markdown')
          .replace(/[#*_`>]/g, '')
          .trim(),
      );
    case BlockType.IMAGE:
      return clip(s('altText') || s('title') || (s('assetUrl') ? s('assetUrl').split('/').pop()! : 'no image yet'));
    case BlockType.BUTTON:
      return clip(s('label'));
    case BlockType.QUOTE:
      return clip(s('text'));
    case BlockType.PRODUCT:
      return clip(products.find((p) => p.id === s('productId'))?.title ?? 'no product chosen');
    case BlockType.NEWSLETTER:
    case BlockType.CHART:
    case BlockType.MAP:
    case BlockType.SUMMARY_V2:
      return clip(s('title'));
    case BlockType.EMBED:
    case BlockType.VIDEO:
    case BlockType.AUDIO:
      return clip(s('title') || s('url'));
    case BlockType.SEARCH:
      return clip(s('placeholder'));
    case BlockType.CODE:
      return clip(s('code'));
    case BlockType.GALLERY:
      return `${Array.isArray(d.images) ? d.images.length : 0} images`;
    case BlockType.ACCORDION:
      return `${Array.isArray(d.items) ? d.items.length : 0} items`;
    case BlockType.PRICING_PLAN:
      return `${Array.isArray(d.plans) ? d.plans.length : 0} plans`;
    case BlockType.DONATION:
      return clip(s('title') || `${Array.isArray(d.amounts) ? d.amounts.length : 0} amounts`);
    case BlockType.SOCIAL_LINKS:
      return `${Array.isArray(d.links) ? d.links.length : 0} links`;
    case BlockType.ALBUM: {
      const n = Array.isArray(d.tracks) ? d.tracks.length : 0;
      return clip(`${s('title') || 'Album'}, ${n} ${n === 1 ? 'track' : 'tracks'}`);
    }
    default:
      return isRenderedBlock(b.type) ? '' : 'placeholder';
  }
}

/** The accessible name of a block on the canvas: 'Heading: Our spring range'. */
export function blockName(b: Block, products: ReadonlyArray<{ id: string; title: string }> = []): string {
  const summary = blockSummary(b, products);
  return summary ? `${kindName(b)}: ${summary}` : kindName(b);
}

/*
 * Text blocks the owner switched to rich text (Format: Text): they stay rich text, edited in place on the
 * canvas, even when their content becomes one heading. Shared by the side panel and the canvas.
 */
const richIds = new Set<string>();
const richListeners = new Set<() => void>();
let richVersion = 0;
export function setRichText(id: string, on: boolean): void {
  if (richIds.has(id) === on) return;
  if (on) richIds.add(id);
  else richIds.delete(id);
  richVersion++;
  for (const l of richListeners) l();
}
export const richTextStore = {
  subscribe(l: () => void) {
    richListeners.add(l);
    return () => richListeners.delete(l);
  },
  version: () => richVersion,
  has: (id: string) => richIds.has(id),
};

/** Whether a text block is edited as rich text in place (else it is one heading, edited in the side panel). */
export function isRichTextBlock(b: Block): boolean {
  if (b.type !== BlockType.HTML) return false;
  const f = readTextBlock(String(b.data.html ?? '')).format;
  return richTextStore.has(b.id) || !(f === 'h1' || f === 'h2' || f === 'h3');
}

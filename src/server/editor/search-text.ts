/**
 * The words of a published layout for site search: what a visitor reads on the page (text and markdown
 * blocks, headings, quotes, button and image captions, accordion items, pricing plans), as plain text.
 * Stored in the page collection's `settings.layoutText` when a layout is published; the collections'
 * search trigger (migration 0025) weighs it like a classic page body.
 */
import type { PageLayout } from '../../core/layout.js';
import { BlockType } from '../../core/enums.js';

/** Plain text of some HTML (tags become spaces, the common entities are decoded). */
export function plainText(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Search text of a layout, at most `max` characters. */
export function layoutSearchText(layout: PageLayout | null, max = 200_000): string {
  if (!layout) return '';
  const out: string[] = [];
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  for (const s of layout.sections) {
    for (const b of s.blocks) {
      const d = b.data as Record<string, unknown>;
      switch (b.type) {
        case BlockType.HTML:
          out.push(plainText(str(d.html)));
          break;
        case BlockType.MARKDOWN:
          out.push(str(d.markdown).replace(/[#*_`>[\]()]/g, ' '));
          break;
        case BlockType.ACCORDION:
          for (const x of Array.isArray(d.items) ? (d.items as Record<string, unknown>[]) : [])
            out.push(str(x.title), plainText(str(x.body)));
          break;
        case BlockType.PRICING_PLAN:
          for (const p of Array.isArray(d.plans) ? (d.plans as Record<string, unknown>[]) : []) {
            out.push(str(p.name), str(p.description), ...(Array.isArray(p.features) ? p.features.map(String) : []));
          }
          break;
        case BlockType.CODE:
          // Code is shown as code (or runs as HTML): not words a visitor searches for.
          break;
        default:
          for (const k of ['title', 'body', 'text', 'source', 'label', 'altText', 'description', 'caption']) out.push(str(d[k]));
      }
    }
  }
  return out
    .filter(Boolean)
    .join('\n')
    .replace(/[\u27e6\u27e7]/g, '')
    .slice(0, max);
}

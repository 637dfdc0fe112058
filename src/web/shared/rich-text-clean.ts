/**
 * Cleaning a DOM tree with the public page's rich-text allow-list (core/rich-text.ts): the admin's
 * rich-text field cleans pasted and stored HTML with it, and the public form island cleans the
 * owner's post-submission HTML before showing it. Shared so the public bundle never loads admin code.
 */
import { RICH_TEXT_DROPPED, RICH_TEXT_TAGS, isRichTextAttribute, isSafeHref } from '../../core/rich-text.js';

const BLOCKS = new Set([
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'p',
  'ul',
  'ol',
  'li',
  'blockquote',
  'pre',
  'hr',
  'table',
  'div',
  'section',
  'article',
  'header',
  'footer',
  'aside',
  'main',
  'nav',
  'figure',
  'dl',
]);

export interface CleanOptions {
  /** b becomes strong and i becomes em (for the stored value; the live region keeps the browser's own). */
  rename?: boolean;
}

function unwrap(el: Element) {
  const parent = el.parentNode!;
  while (el.firstChild) parent.insertBefore(el.firstChild, el);
  parent.removeChild(el);
}

function rename(el: Element, tag: string): Element {
  const next = el.ownerDocument.createElement(tag);
  for (const a of [...el.attributes]) next.setAttribute(a.name, a.value);
  while (el.firstChild) next.appendChild(el.firstChild);
  el.replaceWith(next);
  return next;
}

/** What a pasted element's inline style says (word processors mark bold and italic that way). */
function styleMarks(el: Element): { bold: boolean; italic: boolean; normal: boolean } {
  const st = (el as HTMLElement).style as CSSStyleDeclaration | undefined;
  const weight = st?.fontWeight ?? '';
  return {
    bold: weight === 'bold' || weight === 'bolder' || Number(weight) >= 600,
    italic: st?.fontStyle === 'italic',
    normal: weight === 'normal' || (weight !== '' && Number(weight) < 600),
  };
}

/** Cleans a tree in place: only the allow-listed elements and attributes stay, safe links only. */
export function cleanTree(node: Node, opts: CleanOptions = {}): void {
  for (const child of [...node.childNodes]) {
    if (child.nodeType === Node.TEXT_NODE) continue;
    if (child.nodeType !== Node.ELEMENT_NODE) {
      child.parentNode!.removeChild(child);
      continue;
    }
    let el = child as Element;
    const tag = el.localName.toLowerCase();
    // The text field takes no pictures (a paste would hotlink another site's file): images are the image
    // block's. Bodies written elsewhere keep the allow-list's images.
    if (RICH_TEXT_DROPPED.includes(tag) || tag === 'img') {
      el.remove();
      continue;
    }
    const marks = styleMarks(el);
    cleanTree(el, opts);
    if (
      !RICH_TEXT_TAGS.includes(tag) ||
      (tag === 'b' && marks.normal) ||
      (tag === 'span' && ![...el.attributes].some((a) => isRichTextAttribute('span', a.name)))
    ) {
      // A pasted span or unknown element marked bold or italic by its style keeps that as strong / em.
      if (marks.bold || marks.italic) {
        let inner: Element = el;
        if (marks.bold) inner = wrapChildren(inner, 'strong');
        if (marks.italic) wrapChildren(inner, 'em');
      }
      // A div of inline content reads as a paragraph; other unknown elements give their content.
      if (tag === 'div' && ![...el.children].some((c) => BLOCKS.has(c.localName))) {
        el = rename(el, 'p');
        for (const a of [...el.attributes]) el.removeAttribute(a.name);
        continue;
      }
      unwrap(el);
      continue;
    }
    for (const a of [...el.attributes]) {
      if (!isRichTextAttribute(tag, a.name) || ((a.name === 'href' || a.name === 'src') && !isSafeHref(a.value)))
        el.removeAttribute(a.name);
    }
    if (tag === 'a' && el.getAttribute('target') === '_blank') el.setAttribute('rel', 'noopener noreferrer');
    if (opts.rename && tag === 'b') rename(el, 'strong');
    else if (opts.rename && tag === 'i') rename(el, 'em');
  }
}

function wrapChildren(el: Element, tag: string): Element {
  const w = el.ownerDocument.createElement(tag);
  while (el.firstChild) w.appendChild(el.firstChild);
  el.appendChild(w);
  return w;
}

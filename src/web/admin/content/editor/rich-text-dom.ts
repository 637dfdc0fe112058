/**
 * DOM helpers of the rich-text field: cleaning HTML with the public page's allow-list (core/rich-text.ts),
 * serializing the editable region to the stored `data.html`, and keeping the caret across a clean-up.
 * Parsing goes through a <template> element, whose content is inert: nothing in pasted or stored HTML
 * runs or loads while it is cleaned.
 */
import { RICH_TEXT_TAGS, isRichTextAttribute, isSafeHref } from '../../../../core/rich-text.js';
import { cleanTree, type CleanOptions } from '../../../shared/rich-text-clean.js';

export { cleanTree, type CleanOptions };

const TOP_BLOCKS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'ul', 'ol', 'blockquote', 'pre', 'hr', 'table']);

/** Whether a live tree holds anything the clean-up would change (so the caret is left alone otherwise). */
export function needsCleaning(root: Element): boolean {
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_COMMENT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.nodeType !== Node.ELEMENT_NODE) return true;
    const el = n as Element;
    const tag = el.localName;
    if (!RICH_TEXT_TAGS.includes(tag) || tag === 'span') return true;
    if (tag === 'img') return true;
    for (const a of el.attributes)
      if (!isRichTextAttribute(tag, a.name) || ((a.name === 'href' || a.name === 'src') && !isSafeHref(a.value))) return true;
  }
  return false;
}

function parse(html: string): DocumentFragment {
  const t = document.createElement('template');
  t.innerHTML = html;
  return t.content;
}

function fragmentHtml(f: DocumentFragment): string {
  const box = document.createElement('div');
  box.appendChild(f);
  return box.innerHTML;
}

/** Owner or pasted HTML reduced to what the public page keeps. */
export function cleanHtml(html: string, opts: CleanOptions = {}): string {
  const f = parse(html);
  cleanTree(f, opts);
  return fragmentHtml(f);
}

/** Text typed straight into the region (not in a paragraph) is put in paragraphs. */
function wrapLooseRuns(f: DocumentFragment) {
  let run: Node[] = [];
  const flush = () => {
    const meaningful = run.some((n) =>
      n.nodeType === Node.TEXT_NODE ? (n.textContent ?? '').trim() !== '' : (n as Element).localName !== 'br',
    );
    if (meaningful) {
      const p = document.createElement('p');
      run[0]!.parentNode!.insertBefore(p, run[0]!);
      for (const n of run) p.appendChild(n);
    }
    run = [];
  };
  for (const n of [...f.childNodes]) {
    if (n.nodeType === Node.ELEMENT_NODE && TOP_BLOCKS.has((n as Element).localName)) flush();
    else run.push(n);
  }
  flush();
}

/** The stored value of the editable region: cleaned, b/i as strong/em, loose text in paragraphs; '' when empty. */
export function serialize(root: Element): string {
  const f = parse(root.innerHTML);
  cleanTree(f, { rename: true });
  wrapLooseRuns(f);
  if ((f.textContent ?? '').trim() === '' && !f.querySelector('hr')) return '';
  return fragmentHtml(f);
}

/** The caret as character offsets in the region's text, so it survives the region being rewritten. */
export function saveCaret(root: Element): { start: number; end: number } | null {
  const sel = document.getSelection();
  if (!sel || sel.rangeCount === 0) return null;
  const r = sel.getRangeAt(0);
  if (!root.contains(r.startContainer) || !root.contains(r.endContainer)) return null;
  const at = (node: Node, offset: number) => {
    const pre = document.createRange();
    pre.selectNodeContents(root);
    pre.setEnd(node, offset);
    return pre.toString().length;
  };
  return { start: at(r.startContainer, r.startOffset), end: at(r.endContainer, r.endOffset) };
}

export function restoreCaret(root: Element, caret: { start: number; end: number } | null) {
  if (!caret) return;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  range.selectNodeContents(root);
  range.collapse(false);
  let seen = 0;
  let startSet = false;
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const len = n.textContent?.length ?? 0;
    if (!startSet && caret.start <= seen + len) {
      range.setStart(n, caret.start - seen);
      startSet = true;
    }
    if (startSet && caret.end <= seen + len) {
      range.setEnd(n, caret.end - seen);
      break;
    }
    seen += len;
  }
  const sel = document.getSelection();
  sel?.removeAllRanges();
  sel?.addRange(range);
}

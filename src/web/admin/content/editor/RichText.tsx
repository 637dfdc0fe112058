/**
 * The text block's rich-text field: an editable region (role textbox, multi-line, named by its label)
 * under a formatting toolbar that follows the ARIA toolbar pattern (one tab stop, arrow keys between
 * buttons, toggles report aria-pressed for the selection). Ctrl/Cmd+B, I and K make bold, italic and a
 * link; the link field refuses schemes the public page would drop. Pasted and edited content is cleaned
 * with the public page's allow-list (core/rich-text.ts), so the owner sees what visitors get; the value
 * stays an HTML string (`data.html`) and is only sent when the owner changes something.
 */
import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type ReactNode } from 'react';
import { checkTextLink } from '../../../../core/rich-text.js';
import { cleanHtml, needsCleaning, restoreCaret, saveCaret, serialize } from './rich-text-dom.js';
import { inlineEditor } from './inline-editor.js';
import { escapeHtml } from '../../../../core/html.js';
import { Problem } from './fields.js';

export interface RichTextProps {
  label: string;
  value: string;
  /** A change by the owner; `key` groups typing into one undo step and makes each command its own. */
  onChange: (html: string, key: string) => void;
  hint?: string;
  error?: string;
}

interface Marks {
  bold: boolean;
  italic: boolean;
  ul: boolean;
  ol: boolean;
  h2: boolean;
  h3: boolean;
  link: boolean;
}
const NO_MARKS: Marks = { bold: false, italic: false, ul: false, ol: false, h2: false, h3: false, link: false };

const icon = (d: string, dots = false) => (
  <svg
    viewBox="0 0 16 16"
    width="16"
    height="16"
    aria-hidden="true"
    focusable="false"
    fill="none"
    stroke="currentColor"
    strokeWidth="1.5"
    strokeLinecap="round"
  >
    <path d={d} />
    {dots ? (
      <g fill="currentColor" stroke="none">
        <circle cx="2.5" cy="3" r="1.3" />
        <circle cx="2.5" cy="8" r="1.3" />
        <circle cx="2.5" cy="13" r="1.3" />
      </g>
    ) : null}
  </svg>
);

/** Each tool's name is its label; the mark shown is the label's first letter, an icon or the label itself. */
type Tool = { id: string; label: string; mark?: ReactNode; toggle?: keyof Marks; keys?: string };
const TOOLS: readonly Tool[] = [
  { id: 'bold', label: 'Bold', mark: 'B', toggle: 'bold', keys: 'Control+B Meta+B' },
  { id: 'italic', label: 'Italic', mark: 'I', toggle: 'italic', keys: 'Control+I Meta+I' },
  { id: 'link', label: 'Link', keys: 'Control+K Meta+K' },
  { id: 'ul', label: 'Bulleted list', mark: icon('M6 3h9M6 8h9M6 13h9', true), toggle: 'ul' },
  {
    id: 'ol',
    label: 'Numbered list',
    mark: icon('M1.5 2.2l1.2-.8v3.6M6 3h9M1.3 7.3q1-1 2 0t-2 2.7h2.2M6 8h9M1.3 11.6h2l-1 1.3q1.2 0 1.1 1t-2.1.6M6 13h9'),
    toggle: 'ol',
  },
  { id: 'h2', label: 'Heading 2', toggle: 'h2' },
  { id: 'h3', label: 'Heading 3', toggle: 'h3' },
  { id: 'clear', label: 'Remove formatting', mark: icon('M3 3h9M7.5 3l-2 10M2 14l12-12') },
];

/** Input types that are typing, grouped into one undo step of the page editor. */
const TYPING = /^(insertText|insertReplacementText|insertParagraph|insertLineBreak|insertCompositionText|delete)/;

function closest(node: Node | null, root: Element, tags: readonly string[]): Element | null {
  for (let n: Node | null = node; n && n !== root; n = n.parentNode) {
    if (n.nodeType === Node.ELEMENT_NODE && tags.includes((n as Element).localName)) return n as Element;
  }
  return null;
}

export function RichText({ label, value, onChange, hint, error }: RichTextProps) {
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const toolbar = useRef<HTMLDivElement>(null);
  /** The last value this field sent (or showed): a different value comes from outside (undo, reload). */
  const shown = useRef<string | null>(null);
  /** The selection in the region, kept while focus is on the toolbar or the link field. */
  const saved = useRef<Range | null>(null);
  const [marks, setMarks] = useState<Marks>(NO_MARKS);
  const [active, setActive] = useState(0);
  const [link, setLink] = useState<{ href: string; editing: boolean; returnTo: HTMLElement | null } | null>(null);
  const [linkText, setLinkText] = useState('');
  const [linkError, setLinkError] = useState('');
  const linkInput = useRef<HTMLInputElement>(null);
  /** A drag started in the region (a move of its own text, not outside content). */
  const dragging = useRef(false);
  const change = useRef(onChange);
  change.current = onChange;

  // The stored HTML is shown cleaned (never run); nothing is sent back until the owner edits.
  useLayoutEffect(() => {
    const el = root.current;
    if (!el || value === shown.current) return;
    el.innerHTML = cleanHtml(value);
    shown.current = value;
  }, [value]);

  const readMarks = () => {
    const el = root.current;
    const sel = document.getSelection();
    if (!el || !sel || sel.rangeCount === 0 || !el.contains(sel.anchorNode)) return;
    saved.current = sel.getRangeAt(0).cloneRange();
    const at = sel.anchorNode;
    const block = closest(at, el, ['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'li', 'blockquote', 'pre']);
    const inHeading = !!block && /^h\d$/.test(block.localName);
    const list = closest(at, el, ['ul', 'ol']);
    const state = (cmd: string) => {
      try {
        return document.queryCommandState(cmd);
      } catch {
        return false;
      }
    };
    setMarks({
      // In a heading the browser reports the heading's own weight as bold; only a <strong> counts there.
      bold: inHeading ? !!closest(at, el, ['strong', 'b']) : state('bold') || !!closest(at, el, ['strong', 'b']),
      italic: state('italic') || !!closest(at, el, ['em', 'i']),
      ul: list?.localName === 'ul',
      ol: list?.localName === 'ol',
      h2: closest(at, el, ['h2']) !== null,
      h3: closest(at, el, ['h3']) !== null,
      link: closest(at, el, ['a']) !== null,
    });
  };

  useEffect(() => {
    const onSel = () => readMarks();
    document.addEventListener('selectionchange', onSel);
    return () => document.removeEventListener('selectionchange', onSel);
  }, []);

  /** Sends the region's value when it changed, after cleaning what the browser put in. */
  const emit = (key: string) => {
    const el = root.current;
    if (!el) return;
    if (needsCleaning(el)) {
      const caret = document.activeElement === el ? saveCaret(el) : null;
      el.innerHTML = cleanHtml(el.innerHTML);
      if (caret) restoreCaret(el, caret);
    }
    const html = serialize(el);
    if (html === shown.current) return;
    shown.current = html;
    change.current(html, key);
    readMarks();
  };

  /** Puts focus and the kept selection back in the region. */
  const focusRegion = () => {
    const el = root.current!;
    if (document.activeElement !== el) el.focus();
    const sel = document.getSelection();
    if (saved.current && el.contains(saved.current.startContainer) && sel) {
      sel.removeAllRanges();
      sel.addRange(saved.current);
    }
  };

  const exec = (cmd: string, arg?: string) => {
    focusRegion();
    document.execCommand('defaultParagraphSeparator', false, 'p');
    document.execCommand(cmd, false, arg);
    emit(`html.${cmd}${arg ?? ''}`);
  };

  const openLink = () => {
    const el = root.current!;
    const sel = document.getSelection();
    if (sel && sel.rangeCount > 0 && el.contains(sel.anchorNode)) saved.current = sel.getRangeAt(0).cloneRange();
    const a = saved.current ? closest(saved.current.startContainer, el, ['a']) : null;
    const href = a?.getAttribute('href') ?? '';
    setLinkText(href);
    setLinkError('');
    setLink({ href, editing: !!a, returnTo: document.activeElement as HTMLElement | null });
  };

  useEffect(() => {
    if (link) linkInput.current?.focus();
  }, [link]);
  // An open link editor is the canvas's one open inline editor: the page editor keeps other blocks closed until it is applied or cancelled.
  const linkOpen = link !== null;
  useEffect(() => (linkOpen ? inlineEditor.claim({ tagType: 'link', focus: () => linkInput.current?.focus() }) : undefined), [linkOpen]);

  const closeLink = () => {
    const back = link?.returnTo;
    setLink(null);
    if (back === root.current) focusRegion();
    else if (back && document.contains(back)) back.focus();
  };

  /** Selects the whole link around the kept selection (to change or remove it). */
  const selectLink = (): boolean => {
    const el = root.current!;
    const a = saved.current ? closest(saved.current.startContainer, el, ['a']) : null;
    if (!a) return false;
    const r = document.createRange();
    r.selectNodeContents(a);
    saved.current = r;
    return true;
  };

  const applyLink = () => {
    const r = checkTextLink(linkText);
    if (!r.ok) {
      setLinkError(r.message);
      linkInput.current?.focus();
      return;
    }
    setLink(null);
    if (link?.editing) selectLink();
    focusRegion();
    const sel = document.getSelection();
    if (sel && sel.isCollapsed) {
      // No text chosen: the address itself becomes the link's text.
      document.execCommand('insertHTML', false, `<a href="${escapeHtml(r.value)}">${escapeHtml(r.value)}</a>`);
      emit('html.createLink');
    } else {
      exec('createLink', r.value);
    }
  };

  const removeLink = () => {
    setLink(null);
    selectLink();
    exec('unlink');
  };

  const run = (tool: Tool) => {
    switch (tool.id) {
      case 'bold':
      case 'italic':
        return exec(tool.id);
      case 'link':
        return openLink();
      case 'ul':
        return exec('insertUnorderedList');
      case 'ol':
        return exec('insertOrderedList');
      case 'h2':
      case 'h3':
        return exec('formatBlock', marks[tool.id] ? 'p' : tool.id);
      case 'clear':
        exec('removeFormat');
        if (marks.h2 || marks.h3) exec('formatBlock', 'p');
        return;
    }
  };

  const onToolbarKey = (e: ReactKeyboardEvent) => {
    const n = TOOLS.length;
    const next =
      e.key === 'ArrowRight'
        ? (active + 1) % n
        : e.key === 'ArrowLeft'
          ? (active - 1 + n) % n
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? n - 1
              : -1;
    if (next < 0) return;
    e.preventDefault();
    setActive(next);
    toolbar.current?.querySelectorAll<HTMLButtonElement>('button')[next]?.focus();
  };

  const onRegionKey = (e: ReactKeyboardEvent) => {
    if (!(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return;
    const k = e.key.toLowerCase();
    if (k === 'b' || k === 'i') {
      e.preventDefault();
      exec(k === 'b' ? 'bold' : 'italic');
    } else if (k === 'k') {
      e.preventDefault();
      openLink();
    }
  };

  /** Inserts outside content (paste, drop) cleaned: only what the public page keeps. */
  const insertOutside = (data: DataTransfer | null) => {
    if (!data) return;
    const html = data.getData('text/html');
    const text = data.getData('text/plain');
    document.execCommand('defaultParagraphSeparator', false, 'p');
    if (html) document.execCommand('insertHTML', false, cleanHtml(html));
    else if (text) document.execCommand('insertText', false, text);
    emit('html.paste');
  };

  const labelId = `${id}-label`;
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  const linkTitleId = `${id}-link-title`;
  const linkFieldId = `${id}-link-url`;

  return (
    <div className="ed-field ed-rt">
      <span id={labelId} className="ed-rt__label">
        {label}
      </span>
      <div
        ref={toolbar}
        role="toolbar"
        aria-label={`${label} formatting`}
        aria-controls={`${id}-region`}
        className="ed-rt__tools"
        onKeyDown={onToolbarKey}
      >
        {TOOLS.map((t, i) => (
          <button
            key={t.id}
            type="button"
            tabIndex={i === active ? 0 : -1}
            aria-label={t.label}
            title={t.keys ? `${t.label} (${t.keys.split(' ')[0]!.replace('Control', 'Ctrl')})` : t.label}
            aria-pressed={t.toggle ? marks[t.toggle] : undefined}
            aria-keyshortcuts={t.keys}
            aria-haspopup={t.id === 'link' ? 'dialog' : undefined}
            className={`ed-rt__tool ed-rt__tool--${t.id}`}
            // The region keeps focus and its selection when a button is pressed with the mouse.
            onMouseDown={(e) => e.preventDefault()}
            onFocus={() => setActive(i)}
            onClick={() => run(t)}
          >
            {t.mark ?? t.label}
          </button>
        ))}
      </div>
      {link ? (
        <div
          role="dialog"
          aria-labelledby={linkTitleId}
          className="ed-rt__link"
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.preventDefault();
              e.stopPropagation();
              closeLink();
            }
          }}
        >
          <strong id={linkTitleId}>{link.editing ? 'Edit link' : 'Add link'}</strong>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              applyLink();
            }}
          >
            <label htmlFor={linkFieldId}>Link address</label>
            <input
              ref={linkInput}
              id={linkFieldId}
              type="text"
              inputMode="url"
              value={linkText}
              placeholder="/shop or https://www.example.com"
              aria-invalid={linkError ? true : undefined}
              aria-describedby={linkError ? `${linkFieldId}-error` : `${linkFieldId}-hint`}
              onChange={(e) => {
                setLinkText(e.target.value);
                setLinkError('');
              }}
            />
            <small id={`${linkFieldId}-hint`}>A page of this site (/shop), a web address, mailto: or tel:.</small>
            {linkError ? (
              <small id={`${linkFieldId}-error`} role="alert" className="ed-error">
                {linkError}
              </small>
            ) : null}
            <div className="ed-rt__link-actions">
              <button type="submit">Apply link</button>
              {link.editing ? (
                <button type="button" onClick={removeLink}>
                  Remove link
                </button>
              ) : null}
              <button type="button" onClick={closeLink}>
                Cancel
              </button>
            </div>
          </form>
        </div>
      ) : null}
      <div
        ref={root}
        id={`${id}-region`}
        className="ed-rt__region"
        role="textbox"
        aria-multiline="true"
        aria-labelledby={labelId}
        aria-describedby={describedBy}
        aria-invalid={error ? true : undefined}
        contentEditable
        suppressContentEditableWarning
        tabIndex={0}
        onFocus={() => document.execCommand('defaultParagraphSeparator', false, 'p')}
        onKeyDown={onRegionKey}
        onInput={(e) => {
          const t = (e.nativeEvent as InputEvent).inputType ?? '';
          emit(TYPING.test(t) ? 'html' : `html.${t || 'edit'}`);
        }}
        onPaste={(e) => {
          e.preventDefault();
          insertOutside(e.clipboardData);
        }}
        onDragStart={() => {
          dragging.current = true;
        }}
        onDragEnd={() => {
          dragging.current = false;
        }}
        onDrop={(e) => {
          // Text moved inside the field is the browser's to move (the input that follows is cleaned).
          if (dragging.current) return;
          e.preventDefault();
          const at = document.caretRangeFromPoint?.(e.clientX, e.clientY);
          if (at) {
            const sel = document.getSelection();
            sel?.removeAllRanges();
            sel?.addRange(at);
          }
          insertOutside(e.dataTransfer);
        }}
      />
      <Problem id={id} error={error} hint={hint} />
    </div>
  );
}

/**
 * An accessible modal dialog (the lightbox): role dialog with a name, focus moved inside on open and
 * kept there (Tab wraps), Escape or the Close control closes it, and focus returns to where it was.
 * When the panel is taller than the window a 50 px margin applies; resize handling is debounced 100 ms.
 */
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { LIGHTBOX_MARGIN_PX, LIGHTBOX_RESIZE_DEBOUNCE_MS } from '../../core/constants.js';
import { FOCUSABLE, keepTabInside } from './focus-trap.js';

/** Open dialogs, innermost last: Escape closes only the innermost one. */
const openDialogs: HTMLElement[] = [];

export interface ModalProps {
  title: string;
  titleId: string;
  onClose: () => void;
  children: ReactNode;
  className?: string;
  /**
   * When this changes (e.g. a failed save's message), focus goes back into the dialog if it left it (a
   * submit button disabled while saving drops focus to the page): to the first invalid field, else the
   * alert, else the first control. The dialog keeps the keyboard, so Escape still closes it.
   */
  refocusKey?: unknown;
}

export function Modal({ title, titleId, onClose, children, className, refocusKey }: ModalProps) {
  const panel = useRef<HTMLDivElement>(null);
  const [tall, setTall] = useState(false);
  const close = useRef(onClose);
  close.current = onClose;

  // A layout effect, so focus is inside and Escape is heard before the dialog is painted: Chromium runs
  // input ahead of React's deferred effects, and a key pressed the moment the dialog shows must count.
  // Escape closes the innermost open dialog wherever focus is (the page behind is inert), unless a
  // control inside already used the key.
  useLayoutEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    const el = panel.current!;
    openDialogs.push(el);
    const onDocKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented || openDialogs[openDialogs.length - 1] !== el) return;
      e.preventDefault();
      close.current();
    };
    document.addEventListener('keydown', onDocKey);
    const first = el.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? el).focus();
    const measure = () => setTall(el.scrollHeight + 2 * LIGHTBOX_MARGIN_PX > window.innerHeight);
    measure();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onResize = () => {
      clearTimeout(timer);
      timer = setTimeout(measure, LIGHTBOX_RESIZE_DEBOUNCE_MS);
    };
    window.addEventListener('resize', onResize);
    const prevOverflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      clearTimeout(timer);
      window.removeEventListener('resize', onResize);
      document.body.style.overflow = prevOverflow;
      document.removeEventListener('keydown', onDocKey);
      openDialogs.splice(openDialogs.indexOf(el), 1);
      if (opener && document.contains(opener)) opener.focus();
    };
  }, []);

  useEffect(() => {
    if (refocusKey === undefined || refocusKey === null) return;
    const el = panel.current;
    if (!el || el.contains(document.activeElement)) return;
    const target =
      el.querySelector<HTMLElement>('[aria-invalid="true"]') ??
      el.querySelector<HTMLElement>('[role="alert"]') ??
      el.querySelector<HTMLElement>(FOCUSABLE) ??
      el;
    if (target.getAttribute('role') === 'alert' && !target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
    target.focus();
  }, [refocusKey]);

  const onKeyDown = (e: React.KeyboardEvent) => keepTabInside(e, panel.current);

  return createPortal(
    <div
      className="sqs-lightbox-overlay"
      onMouseDown={(e) => {
        // Keep the browser from moving focus to the overlay, so closing can return it to the opener.
        if (e.target !== e.currentTarget) return;
        e.preventDefault();
        close.current();
      }}
    >
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className={`sqs-lightbox${tall ? ' sqs-lightbox--tall' : ''}${className ? ` ${className}` : ''}`}
        style={tall ? { marginTop: LIGHTBOX_MARGIN_PX, marginBottom: LIGHTBOX_MARGIN_PX } : undefined}
        onKeyDown={onKeyDown}
      >
        <div className="sqs-lightbox__header">
          <h2 id={titleId} className="sqs-lightbox__title">
            {title}
          </h2>
          <button type="button" className="sqs-lightbox__close" aria-label="Close" onClick={() => close.current()}>
            ×
          </button>
        </div>
        <div className="sqs-lightbox__body">{children}</div>
      </div>
    </div>,
    document.body,
  );
}

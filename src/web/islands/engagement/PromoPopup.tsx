/**
 * The promo popup (popup overlay, page type 104): the owner's title, text, image and a newsletter form
 * or a button, anchored at one of nine positions, opened after a delay, on scroll or on exit intent.
 * Closed date, version and submitted are kept in local storage (POPUP_STORAGE_KEYS): a changed popup
 * (new version) shows again. An accessible modal dialog: focus moves in and is trapped, Escape or the
 * Close control closes it, focus returns to where it was. Renders nothing on the server.
 */
import { useEffect, useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent, type RefObject } from 'react';
import { anchorStyle, popupDue, POPUP_STORAGE_KEYS, type PopupPublic } from '../../../core/engagement.js';
import { engagement as m, forms as fm } from '../../../core/messages.js';
import { api, ApiError } from '../../client/api.js';
import { overlayOpened } from '../../client/analytics.js';
import type { CaptchaPublicConfig } from '../../client/forms.js';
import { useCaptcha } from '../Captcha.js';
import { FOCUSABLE, keepTabInside } from '../focus-trap.js';

export interface PromoPopupProps {
  popup: PopupPublic;
  captcha: CaptchaPublicConfig | null;
  pageType: number;
}

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function remember(key: keyof typeof POPUP_STORAGE_KEYS, value: string | null) {
  try {
    const s = storage();
    if (!s) return;
    if (value === null) s.removeItem(POPUP_STORAGE_KEYS[key]);
    else s.setItem(POPUP_STORAGE_KEYS[key], value);
  } catch {
    /* private mode: the popup simply shows again */
  }
}

/**
 * Decides whether and when the popup opens (browser only): not when closed or submitted within its show-again
 * days, else after its delay, at its scroll depth or on exit intent. The element focused before it opens is kept.
 */
function useOpenWhenDue(popup: PopupPublic, opener: RefObject<HTMLElement | null>, setOpen: (open: boolean) => void) {
  useEffect(() => {
    const s = storage();
    const stored = {
      closedDate: s?.getItem(POPUP_STORAGE_KEYS.closedDate) ?? null,
      version: s?.getItem(POPUP_STORAGE_KEYS.version) ?? null,
      submitted: s?.getItem(POPUP_STORAGE_KEYS.submitted) ?? null,
    };
    if (!popupDue(stored, popup.version, popup.showAgainDays, Date.now())) return;
    if (stored.version !== String(popup.version)) {
      // A new popup: what was closed or submitted belonged to the old one.
      remember('closedDate', null);
      remember('submitted', null);
    }
    let fired = false;
    const show = () => {
      if (fired) return;
      fired = true;
      cleanup();
      opener.current = document.activeElement as HTMLElement | null;
      setOpen(true);
      overlayOpened(`promo-popup-${popup.version}`);
    };
    const onScroll = () => {
      const max = document.documentElement.scrollHeight - window.innerHeight;
      const pct = max <= 0 ? 100 : (window.scrollY / max) * 100;
      if (pct >= popup.scrollPercent) show();
    };
    const onLeave = (e: MouseEvent) => {
      if (!e.relatedTarget && e.clientY <= 10) show();
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const cleanup = () => {
      clearTimeout(timer);
      window.removeEventListener('scroll', onScroll);
      document.removeEventListener('mouseout', onLeave);
    };
    if (popup.trigger === 'delay') timer = setTimeout(show, popup.delaySeconds * 1000);
    else if (popup.trigger === 'scroll') {
      window.addEventListener('scroll', onScroll, { passive: true });
      onScroll();
    } else document.addEventListener('mouseout', onLeave);
    return cleanup;
  }, [popup.version, popup.trigger, popup.delaySeconds, popup.scrollPercent, popup.showAgainDays]);
}

export function PromoPopup({ popup, captcha, pageType }: PromoPopupProps) {
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [done, setDone] = useState('');
  const panel = useRef<HTMLDivElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const cap = useCaptcha(popup.action === 'newsletter' ? captcha : null);

  useOpenWhenDue(popup, opener, setOpen);

  // Focus in on open (before paint, so a key pressed as it shows lands in it); back to the opener on close.
  useLayoutEffect(() => {
    if (!open) return;
    const el = panel.current;
    const first = el?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? el)?.focus();
    const back = opener.current;
    return () => {
      if (back && back !== document.body && document.contains(back)) back.focus();
    };
  }, [open]);

  const close = () => {
    remember('closedDate', new Date().toISOString());
    remember('version', String(popup.version));
    setOpen(false);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      close();
      return;
    }
    keepTabInside(e, panel.current);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError('');
    setBusy(true);
    try {
      const captchaKey = captcha ? await cap.ensure() : null;
      if (captcha && !captchaKey) throw new Error(fm.CAPTCHA_INCOMPLETE);
      const r = await api<{ message: string }>('POST', '/api/engagement/newsletter', {
        email,
        ...(captchaKey ? { captchaKey } : {}),
        version: popup.version,
      });
      remember('submitted', 'true');
      remember('version', String(popup.version));
      setDone(r.message);
    } catch (x) {
      cap.reset();
      setError(x instanceof ApiError || x instanceof Error ? x.message : String(x));
    } finally {
      setBusy(false);
    }
  };

  if (!open) return null;
  const titleId = `tessera-popup-title-${popup.version}`;
  return (
    <div
      className={`tessera-popup-overlay page-type-${pageType}`}
      data-anchor={popup.anchor}
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) {
          e.preventDefault();
          close();
        }
      }}
    >
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className="tessera-popup"
        style={anchorStyle(popup.anchor)}
        onKeyDown={onKeyDown}
      >
        <button type="button" className="tessera-popup__close" aria-label={m.POPUP_CLOSE} onClick={close}>
          ×
        </button>
        {popup.imageUrl ? <img className="tessera-popup__image" src={popup.imageUrl} alt={popup.imageAlt} /> : null}
        <h2 id={titleId} className="tessera-popup__title">
          {popup.title}
        </h2>
        {popup.text ? <p className="tessera-popup__text">{popup.text}</p> : null}
        {popup.action === 'button' ? (
          <a
            className="tessera-popup__button"
            href={popup.buttonUrl || '/'}
            onClick={() => {
              remember('submitted', 'true');
              remember('version', String(popup.version));
            }}
          >
            {popup.buttonText}
          </a>
        ) : done ? (
          <p role="status" className="tessera-popup__done">
            {done}
          </p>
        ) : (
          <form className="tessera-popup__form" method="post" action="/api/engagement/newsletter" onSubmit={submit} noValidate>
            <span className="visually-hidden" aria-hidden="true">
              <input type="text" name="honeypot" tabIndex={-1} autoComplete="off" defaultValue="" />
            </span>
            <label className="tessera-popup__label">
              <span>{m.POPUP_EMAIL_LABEL}</span>
              <input
                type="email"
                name="email"
                autoComplete="email"
                required
                placeholder={popup.placeholder}
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                onFocus={() => cap.warm()}
              />
            </label>
            <div ref={cap.widgetRef} />
            <button type="submit" disabled={busy || (cap.tied && cap.status === 'solving')}>
              {popup.buttonText}
            </button>
            {error ? (
              <p role="alert" className="tessera-popup__error">
                {error}
              </p>
            ) : null}
          </form>
        )}
      </div>
    </div>
  );
}

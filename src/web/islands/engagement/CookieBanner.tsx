/**
 * The cookie banner. A labelled region with a real form: without JavaScript it posts the choice to the
 * server (which sets the cookies and comes back); with JavaScript the choice is applied in place:
 * - notice mode: OK dismisses it;
 * - opt-in mode: Accept all, Reject optional cookies, or Save choices per category. The analytics
 *   decision goes to `tessera_consent` (what the tracker and the census routes read) and to a
 *   'tessera:consent' event (analytics starts only on granted); a refusal clears the census cookies;
 *   allowed third-party scripts (kept inert by the server) run at once.
 */
import { useRef, useState, type FormEvent } from 'react';
import { CONSENT_MAX_AGE_SECONDS, formatChoices, type ConsentChoices, type CookieBannerMode } from '../../../core/engagement.js';
import { CONSENT_CHOICES_COOKIE, CONSENT_COOKIE, NOTICE_COOKIE } from '../../../core/cookies.js';
import { engagement as m } from '../../../core/messages.js';
import { clearCensusCookies, documentJar } from '../../client/tracker-cookies.js';

export interface CookieBannerProps {
  mode: CookieBannerMode;
  text: string;
  policyUrl: string;
  action: string;
  crumb: string;
  back: string;
}

function setCookie(name: string, value: string) {
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${CONSENT_MAX_AGE_SECONDS}; SameSite=Lax${secure}`;
}

/** Runs the owner's scripts the server kept inert, now that third-party scripts are allowed. */
function runGatedScripts() {
  for (const old of document.querySelectorAll<HTMLScriptElement>('script[data-tessera-consent="marketing"]')) {
    const s = document.createElement('script');
    for (const a of old.getAttributeNames()) {
      if (a === 'type' || a === 'data-type' || a === 'data-tessera-consent') continue;
      s.setAttribute(a, old.getAttribute(a) ?? '');
    }
    const type = old.getAttribute('data-type');
    if (type) s.type = type;
    s.text = old.text;
    old.replaceWith(s);
  }
}

function localStore(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export function CookieBanner({ mode, text, policyUrl, action, crumb, back }: CookieBannerProps) {
  const [hidden, setHidden] = useState(false);
  const [analytics, setAnalytics] = useState(false);
  const [marketing, setMarketing] = useState(false);
  const submitter = useRef<string>('');

  const apply = (e: FormEvent) => {
    e.preventDefault();
    const native = e.nativeEvent as SubmitEvent;
    const choice = (native.submitter as HTMLButtonElement | null)?.value || submitter.current || 'save';
    if (mode === 'notice' || choice === 'dismiss') {
      setCookie(NOTICE_COOKIE, '1');
      setHidden(true);
      return;
    }
    const choices: ConsentChoices =
      choice === 'accept'
        ? { analytics: true, marketing: true }
        : choice === 'reject'
          ? { analytics: false, marketing: false }
          : { analytics, marketing };
    setCookie(CONSENT_CHOICES_COOKIE, formatChoices(choices));
    setCookie(CONSENT_COOKIE, choices.analytics ? 'granted' : 'denied');
    if (!choices.analytics) clearCensusCookies(documentJar(), localStore());
    document.dispatchEvent(new CustomEvent('tessera:consent', { detail: { granted: choices.analytics, choices } }));
    if (choices.marketing) runGatedScripts();
    setHidden(true);
  };

  if (hidden) return null;
  const pick = (v: string) => () => {
    submitter.current = v;
  };
  return (
    <section className={`tessera-cookie-banner tessera-cookie-banner--${mode}`} aria-label={m.BANNER_LABEL}>
      <form method="post" action={action} onSubmit={apply}>
        <input type="hidden" name="crumb" value={crumb} />
        <input type="hidden" name="back" value={back} />
        <p className="tessera-cookie-banner__text">
          {text}
          {policyUrl ? (
            <>
              {' '}
              <a href={policyUrl}>Privacy policy</a>
            </>
          ) : null}
        </p>
        {mode === 'notice' ? (
          <div className="tessera-cookie-banner__actions">
            <button type="submit" name="choice" value="dismiss" onClick={pick('dismiss')}>
              {m.BANNER_DISMISS}
            </button>
          </div>
        ) : (
          <>
            <fieldset className="tessera-cookie-banner__categories">
              <legend>{m.BANNER_CHOOSE}</legend>
              <label>
                <input type="checkbox" checked disabled /> {m.CATEGORY_NECESSARY}
              </label>
              <label>
                <input type="checkbox" name="analytics" value="on" checked={analytics} onChange={(e) => setAnalytics(e.target.checked)} />{' '}
                {m.CATEGORY_ANALYTICS}
              </label>
              <label>
                <input type="checkbox" name="marketing" value="on" checked={marketing} onChange={(e) => setMarketing(e.target.checked)} />{' '}
                {m.CATEGORY_MARKETING}
              </label>
            </fieldset>
            <div className="tessera-cookie-banner__actions">
              <button type="submit" name="choice" value="accept" onClick={pick('accept')}>
                {m.BANNER_ACCEPT}
              </button>
              <button type="submit" name="choice" value="reject" onClick={pick('reject')}>
                {m.BANNER_REJECT}
              </button>
              <button type="submit" name="choice" value="save" onClick={pick('save')}>
                {m.BANNER_SAVE}
              </button>
            </div>
          </>
        )}
      </form>
    </section>
  );
}

/**
 * The captcha of a form, behind one hook whatever the provider:
 * - altcha (self-hosted proof of work): solved in the background once a field is focused;
 * - reCAPTCHA v2: the vendor's checkbox; v3 and Enterprise: a token per action on submit.
 * The badge is shown only while a form field is focused (its space is kept, so nothing moves under the pointer).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { solveAltcha, type CaptchaPublicConfig } from '../client/forms.js';
import { captchaResponseIn, destroyCaptchaIn, loadCaptcha, renderCaptcha, resetCaptchaIn } from '../client/captcha.js';

export type CaptchaStatus = 'idle' | 'solving' | 'done' | 'error';

export interface CaptchaHandle {
  status: CaptchaStatus;
  /** Starts work early (altcha: the proof of work; reCAPTCHA: loading the script). */
  warm(): void;
  /** The token for this submission, or null when the visitor has not completed the captcha. */
  ensure(): Promise<string | null>;
  /** After a failed submission: the token is dropped and a fresh one is prepared. */
  reset(): void;
  /** The submit button is tied to the captcha (invisible kinds): disabled until a fresh token is ready. */
  tied: boolean;
}

export function useCaptcha(cfg: CaptchaPublicConfig | null): CaptchaHandle & { widgetRef: React.RefObject<HTMLDivElement | null> } {
  const [status, setStatus] = useState<CaptchaStatus>('idle');
  const token = useRef<string | null>(null);
  const pending = useRef<Promise<string | null> | null>(null);
  const widgetRef = useRef<HTMLDivElement | null>(null);

  const solve = useCallback((): Promise<string | null> => {
    if (!cfg) return Promise.resolve(null);
    if (token.current) return Promise.resolve(token.current);
    if (pending.current) return pending.current;
    if (cfg.kind === 'altcha') {
      setStatus('solving');
      pending.current = solveAltcha(cfg.challengeUrl ?? '/api/captcha/challenge').then(
        (t) => {
          token.current = t;
          pending.current = null;
          setStatus('done');
          return t;
        },
        () => {
          pending.current = null;
          setStatus('error');
          return null;
        },
      );
      return pending.current;
    }
    if (cfg.kind === 'recaptcha-v2') {
      return loadCaptcha(cfg).then(
        () => captchaResponseIn(cfg, widgetRef.current),
        () => null,
      );
    }
    setStatus('solving');
    return loadCaptcha(cfg)
      .then((g) => g.execute(cfg.siteKey ?? '', { action: cfg.vendorAction }))
      .then(
        (t) => {
          setStatus('done');
          return t;
        },
        () => {
          setStatus('error');
          return null;
        },
      );
  }, [cfg]);

  const warm = useCallback(() => {
    if (!cfg) return;
    if (cfg.kind === 'altcha') void solve();
    else void loadCaptcha(cfg).catch(() => undefined);
  }, [cfg, solve]);

  // reCAPTCHA v2: render the vendor's checkbox into the widget node (marked, with its widget id); it is
  // destroyed with the form.
  useEffect(() => {
    const el = widgetRef.current;
    if (!cfg || cfg.kind !== 'recaptcha-v2' || !el) return;
    let gone = false;
    renderCaptcha(cfg, el, { callback: () => !gone && setStatus('done'), expired: () => !gone && setStatus('idle') }).catch(
      () => !gone && setStatus('error'),
    );
    return () => {
      gone = true;
      destroyCaptchaIn(cfg, el);
    };
  }, [cfg]);

  const reset = useCallback(() => {
    token.current = null;
    pending.current = null;
    if (!cfg) return;
    if (cfg.kind === 'recaptcha-v2') {
      resetCaptchaIn(cfg, widgetRef.current);
      setStatus('idle');
    } else if (cfg.kind === 'altcha') {
      setStatus('idle');
      void solve();
    } else setStatus('idle');
  }, [cfg, solve]);

  const ensure = useCallback(async () => {
    const t = await solve();
    // A token is used once: the next submission needs a fresh one.
    if (cfg && cfg.kind !== 'recaptcha-v2') token.current = null;
    return t;
  }, [solve, cfg]);

  return { status, warm, ensure, reset, tied: !!cfg && cfg.kind !== 'recaptcha-v2', widgetRef };
}

/** The badge (invisible kinds) or the checkbox container (v2). */
export function CaptchaBadge({
  cfg,
  status,
  visible,
  widgetRef,
}: {
  cfg: CaptchaPublicConfig;
  status: CaptchaStatus;
  visible: boolean;
  widgetRef: React.RefObject<HTMLDivElement | null>;
}) {
  if (cfg.kind === 'recaptcha-v2') return <div className="form-captcha form-captcha--v2" ref={widgetRef} />;
  const text =
    cfg.kind === 'altcha'
      ? status === 'done'
        ? 'Spam protection: verified'
        : status === 'error'
          ? 'Spam protection: could not verify'
          : 'Spam protection: verifying…'
      : 'Protected by reCAPTCHA';
  return (
    <div
      className={`form-captcha-badge form-captcha-badge--${cfg.theme}`}
      data-captcha-status={status}
      aria-hidden={!visible || undefined}
      style={{ visibility: visible ? 'visible' : 'hidden' }}
      aria-live="polite"
    >
      {text}
    </div>
  );
}

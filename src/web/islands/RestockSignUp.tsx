/**
 * The back-in-stock sign-up form of a product page. It shows for the chosen variant when that variant is
 * sold out (or, unless the owner hides it by default, for a fully sold-out product before a choice), and
 * follows the product's other islands through the shared product store.
 * States: idle -> success (the form is replaced by the store's success text, the captcha removed) or
 * error (the server's message shown, the captcha reset).
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { findVariant, isSoldOut, showVariantSelector, unselectedOptions, type StructuredContent } from '../../core/product.js';
import { restockSignUpPayload, validateRestockEmail } from '../../core/restock.js';
import { commerce, forms, restock } from '../../core/messages.js';
import { api, ApiError, readCookie } from '../client/api.js';
import { useProductChoice } from '../client/product-store.js';
import { captchaToken, destroyCaptcha, mountCaptcha, resetCaptcha, type RestockCaptchaConfig } from './RestockCaptcha.js';
import type { RestockSignUpProps, RestockVariant } from '../../core/api/restock.js';

export type { RestockSignUpProps, RestockVariant };
import { widgetIdOf } from '../client/captcha.js';
import { CRUMB_COOKIE } from '../../core/cookies.js';

export const RESTOCK_SIGN_UP_URL = '/api/site-users/account/notifications/restock';
/** The label of the sold-out variant choice of the plain (no JavaScript) sign-up form. */
export const RESTOCK_VARIANT_LABEL = 'Item:';
export const RESTOCK_FORM_CONFIG_URL = '/api/site-users/account/notifications/restock/form';

function structured(p: RestockSignUpProps): StructuredContent {
  return {
    productType: p.productType as StructuredContent['productType'],
    variantOptionOrdering: p.variantOptionOrdering,
    variants: p.variants.map((v) => ({ id: v.id, sku: v.sku, attributes: v.attributes, qtyInStock: v.qtyInStock, unlimited: v.unlimited })),
  };
}

const soldOut = (v: { qtyInStock: number; unlimited: boolean }) => !v.unlimited && !(Number(v.qtyInStock) > 0);

/** The variant the form is for, and whether the form shows, for the visitor's current choice. */
export function restockTarget(
  p: RestockSignUpProps,
  attributes: Record<string, string>,
): { visible: boolean; variant: RestockVariant | null; missing: string[] } {
  const sc = structured(p);
  const selector = showVariantSelector(sc);
  if (!selector) {
    const only = p.variants[0] ?? null;
    return { visible: !!only && soldOut(only), variant: only, missing: [] };
  }
  const missing = unselectedOptions(sc, attributes);
  if (missing.length === 0) {
    const found = findVariant(sc, attributes) as { id?: string } | undefined;
    const v = p.variants.find((x) => x.id === found?.id) ?? null;
    return { visible: !!v && soldOut(v), variant: v, missing };
  }
  return { visible: !p.hiddenByDefault && isSoldOut(sc), variant: null, missing };
}

type State = { kind: 'idle' } | { kind: 'submitting' } | { kind: 'success' } | { kind: 'error'; message: string };

function domId(scope: string, part: string): string {
  return `restock-${scope.replace(/[^A-Za-z0-9_-]/g, '-')}-${part}`;
}

export function RestockSignUp(props: RestockSignUpProps) {
  const choice = useProductChoice(props.scope);
  const target = restockTarget(props, choice.attributes);
  const [email, setEmail] = useState('');
  const [join, setJoin] = useState(props.mailingList.optInByDefault);
  const [state, setState] = useState<State>({ kind: 'idle' });
  const [config, setConfig] = useState<RestockCaptchaConfig | null>(props.captcha ?? null);
  const captchaEl = useRef<HTMLDivElement>(null);
  const successFor = useRef<string | null>(null);

  // A different variant starts a fresh form.
  const variantKey = target.variant?.id ?? '';
  useEffect(() => {
    if (successFor.current !== null && successFor.current !== variantKey) {
      successFor.current = null;
      setState({ kind: 'idle' });
    } else if (successFor.current === null) setState((s) => (s.kind === 'error' ? { kind: 'idle' } : s));
  }, [variantKey]);

  useEffect(() => {
    if (!target.visible || config) return;
    let live = true;
    api<{ captcha: RestockCaptchaConfig }>('GET', RESTOCK_FORM_CONFIG_URL).then(
      (r) => live && setConfig(r.captcha),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [target.visible, config]);

  useEffect(() => {
    const el = captchaEl.current;
    if (!config || !el || widgetIdOf(el) !== null || state.kind === 'success') return;
    mountCaptcha(config, el).catch(() => undefined);
  }, [config, state.kind, target.visible]);

  const enterprise = config?.kind === 'recaptcha-enterprise';

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (state.kind === 'submitting') return;
    const emailError = validateRestockEmail(email);
    if (emailError) return setState({ kind: 'error', message: emailError });
    if (!target.variant)
      return setState({
        kind: 'error',
        message: target.missing.length ? commerce.selectOptions(target.missing) : commerce.VARIANT_UNAVAILABLE,
      });
    setState({ kind: 'submitting' });
    try {
      let cfg = config;
      if (!cfg) {
        cfg = (await api<{ captcha: RestockCaptchaConfig }>('GET', RESTOCK_FORM_CONFIG_URL)).captcha;
        setConfig(cfg);
      }
      let token: string | null = null;
      try {
        token = await captchaToken(cfg, captchaEl.current);
      } catch {
        token = null;
      }
      if (!token) {
        resetCaptcha(cfg, captchaEl.current);
        return setState({
          kind: 'error',
          message: cfg.kind === 'recaptcha-enterprise' ? restock.ENTERPRISE_FALLBACK : forms.CAPTCHA_INCOMPLETE,
        });
      }
      const lang = typeof document !== 'undefined' ? document.documentElement.lang : '';
      const payload = restockSignUpPayload({
        productId: props.productId,
        variantId: target.variant.id,
        email,
        joinMailingList: props.mailingList.enabled && join,
        captchaToken: cfg.kind === 'recaptcha-enterprise' ? null : token,
        enterpriseToken: cfg.kind === 'recaptcha-enterprise' ? token : null,
        language: lang,
        multilingualEmails: props.multilingualEmails,
        translationTool: props.multilingualEmails,
      });
      await api('POST', RESTOCK_SIGN_UP_URL, payload);
      successFor.current = target.variant.id;
      destroyCaptcha(cfg, captchaEl.current);
      setState({ kind: 'success' });
    } catch (err) {
      resetCaptcha(config, captchaEl.current);
      let message = err instanceof ApiError && typeof err.data.message === 'string' && err.data.message ? err.data.message : '';
      if (err instanceof ApiError && err.crumbFail) message = readCookie(CRUMB_COOKIE) ? commerce.SESSION_EXPIRED : commerce.ENABLE_COOKIES;
      if (!message) message = enterprise ? restock.ENTERPRISE_FALLBACK : forms.UNKNOWN_ERROR;
      setState({ kind: 'error', message });
    }
  }

  const errorId = domId(props.scope, 'error');
  const emailId = domId(props.scope, 'email');
  const hidden = !target.visible;
  const soldOutVariants = props.variants.filter((v) => !v.unlimited && v.qtyInStock <= 0);
  /** Without JavaScript the chosen variant cannot follow the selects: the form asks which sold-out variant. */
  const variantPicker = (prefix: string) =>
    soldOutVariants.length === 1 ? (
      <input type="hidden" name="variantId" value={soldOutVariants[0]!.id} />
    ) : (
      <label className="product-restock-variant">
        {RESTOCK_VARIANT_LABEL}{' '}
        <select name="variantId" id={domId(props.scope, `${prefix}variant`)}>
          {soldOutVariants.map((v) => (
            <option key={v.id} value={v.id}>
              {Object.values(v.attributes).join(' / ') || v.sku}
            </option>
          ))}
        </select>
      </label>
    );
  const plainFields = (
    <>
      <input type="hidden" name="productId" value={props.productId} />
      <span className="visually-hidden" aria-hidden="true">
        <input type="text" name="honeypot" tabIndex={-1} autoComplete="off" defaultValue="" />
      </span>
    </>
  );
  return (
    <>
      <div
        className="product-restock-notification"
        data-product-id={props.productId}
        data-variant-id={target.variant?.id ?? ''}
        hidden={hidden}
      >
        {state.kind === 'success' ? (
          <p className="product-restock-success" role="status">
            {props.texts.success}
          </p>
        ) : (
          <>
            <span className="product-restock-cta" id={domId(props.scope, 'cta')}>
              {props.texts.cta}
            </span>
            <form
              className="product-restock-form"
              method="post"
              action={RESTOCK_SIGN_UP_URL}
              noValidate
              onSubmit={submit}
              aria-labelledby={domId(props.scope, 'cta')}
            >
              {plainFields}
              {target.variant ? (
                <input type="hidden" name="variantId" value={target.variant.id} />
              ) : (
                <noscript>{variantPicker('')}</noscript>
              )}
              <label htmlFor={emailId} className="visually-hidden">
                {props.texts.placeholder}
              </label>
              <input
                id={emailId}
                type="email"
                name="email"
                autoComplete="email"
                spellCheck={false}
                placeholder={props.texts.placeholder}
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                aria-invalid={state.kind === 'error' ? true : undefined}
                aria-describedby={state.kind === 'error' ? errorId : undefined}
              />
              <button className="sqs-editable-button" type="submit" disabled={state.kind === 'submitting'}>
                {props.texts.button}
              </button>
              {props.mailingList.enabled ? (
                <label className="product-restock-mailing-list">
                  <input type="checkbox" name="isJoinMailingList" checked={join} onChange={(e) => setJoin(e.target.checked)} />
                  {props.texts.mailingListDescription}
                </label>
              ) : null}
              {config?.siteKey ? <div className="captcha-container" ref={captchaEl} data-captcha-kind={config.kind} /> : null}
              {state.kind === 'error' ? (
                <p className="product-restock-error" id={errorId} role="alert">
                  {state.message}
                </p>
              ) : null}
            </form>
          </>
        )}
      </div>
      {hidden && soldOutVariants.length > 0 ? (
        <noscript>
          <div className="product-restock-notification product-restock-notification--plain" data-product-id={props.productId}>
            <span className="product-restock-cta" id={domId(props.scope, 'plain-cta')}>
              {props.texts.cta}
            </span>
            <form
              className="product-restock-form"
              method="post"
              action={RESTOCK_SIGN_UP_URL}
              aria-labelledby={domId(props.scope, 'plain-cta')}
            >
              {plainFields}
              {variantPicker('plain-')}
              <label htmlFor={domId(props.scope, 'plain-email')} className="visually-hidden">
                {props.texts.placeholder}
              </label>
              <input
                id={domId(props.scope, 'plain-email')}
                type="email"
                name="email"
                autoComplete="email"
                required
                placeholder={props.texts.placeholder}
              />
              <button className="sqs-editable-button" type="submit">
                {props.texts.button}
              </button>
              {props.mailingList.enabled ? (
                <label className="product-restock-mailing-list">
                  <input type="checkbox" name="isJoinMailingList" defaultChecked={props.mailingList.optInByDefault} />
                  {props.texts.mailingListDescription}
                </label>
              ) : null}
            </form>
          </div>
        </noscript>
      ) : null}
    </>
  );
}

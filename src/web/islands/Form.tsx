/**
 * The Form island: form blocks, newsletter forms and the lightbox form. Server-rendered as a real
 * <form> that posts without JavaScript; hydrated, it validates with core's rules, gets a one-time
 * key, completes the captcha and saves through the form calls, with its states (idle, submitting, success).
 */
import { scrollToElement, waitForElement } from '../client/scroll.js';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { FormField, PageFields } from '../../core/forms.js';
import { formProblemBanners, formSubmissionPayload, shapeFieldValue, validateForm, type FieldValue } from '../../core/forms.js';
import { forms as m } from '../../core/messages.js';
import { saveSubmission, type CaptchaPublicConfig } from '../client/forms.js';
import { FormFieldView, type RawValue } from './FormFields.js';
import { CaptchaBadge, useCaptcha } from './Captcha.js';
import { Modal } from './Modal.js';
import { cleanTree } from '../shared/rich-text-clean.js';
import type { PublicForm } from '../../core/api/forms.js';
export type { PublicForm };

/** The errors a failed submission draws: a field's message, or the form's own banner (not the 'scroll down' notice). */
const FIRST_ERROR = '.field-error, .form-error-banner:not(.form-error-banner--above)';

export interface FormProps {
  form: PublicForm;
  captcha: CaptchaPublicConfig | null;
  crumb?: string;
  query?: Record<string, string>;
  page?: PageFields;
  lightbox?: boolean;
  action: string;
  /** Validation can be turned off per submission (the browser rules; the server still checks). */
  validate?: boolean;
}

function readVisitorCookie(): string | undefined {
  if (typeof document === 'undefined') return undefined;
  const m = /(?:^|;\s*)ss_cvr=([^;]*)/.exec(document.cookie);
  return m ? decodeURIComponent(m[1]!) : undefined;
}

/**
 * Shows the owner's post-submission HTML. The server cleans it with the rich-text allow-list; here it is
 * parsed in an inert <template> and cleaned again with the same list before it joins the page, so no
 * script, event attribute or javascript: link in it ever runs.
 */
function showHtml(el: HTMLElement, html: string) {
  const t = document.createElement('template');
  t.innerHTML = html;
  cleanTree(t.content);
  el.replaceChildren(t.content);
}

export function FormBody({ form, captcha, crumb, query = {}, page = {}, action, validate = true }: FormProps) {
  const [values, setValues] = useState<Record<string, RawValue>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [banner, setBanner] = useState<string>('');
  const [problem, setProblem] = useState(false);
  const [state, setState] = useState<'idle' | 'submitting' | 'success'>('idle');
  const [focused, setFocused] = useState(false);
  const [captchaBlocked, setCaptchaBlocked] = useState(false);
  const [hydrated, setHydrated] = useState(false);
  const honeypot = useRef<HTMLInputElement>(null);
  const htmlRef = useRef<HTMLDivElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  // Bumped by each failed submission: the page then scrolls to the first error.
  const [failures, setFailures] = useState(0);
  const cap = useCaptcha(form.captcha ? captcha : null);
  const newsletter = form.kind === 'newsletter';
  const banners = formProblemBanners(newsletter);
  // Each island is its own React root, so useId alone repeats across two forms on one page: prefix the form's id.
  const uid = `${form.id.replace(/[^A-Za-z0-9_-]/g, '')}${useId()}`;

  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    if (captchaBlocked && cap.status === 'done') setCaptchaBlocked(false);
  }, [captchaBlocked, cap.status]);
  useEffect(() => {
    if (state === 'success' && htmlRef.current && form.postSubmissionHtml) showHtml(htmlRef.current, form.postSubmissionHtml);
  }, [state, form.postSubmissionHtml]);

  const hiddenValue = (f: FormField) => shapeFieldValue(f, undefined, { query }) as string;

  const shaped = (): Record<string, FieldValue> => {
    const out: Record<string, FieldValue> = {};
    for (const f of form.fields) {
      if (f.type === 'section') continue;
      out[f.id] = f.type === 'hidden' ? hiddenValue(f) : shapeFieldValue(f, values[f.id]);
    }
    return out;
  };

  // After a failed submission, scroll to the first error once it is drawn (30 px above it, the 300 ms
  // tween, or at once for visitors who prefer reduced motion).
  useEffect(() => {
    const el = formRef.current;
    if (failures === 0 || !el) return;
    let live = true;
    void waitForElement(el, FIRST_ERROR).then((first) => {
      if (live && first) void scrollToElement(first);
    });
    return () => {
      live = false;
    };
  }, [failures]);

  const fail = (message: string, fieldErrors?: Record<string, string>) => {
    setFailures((n) => n + 1);
    setErrors(fieldErrors ?? {});
    setProblem(Boolean(fieldErrors) && !newsletter);
    setBanner(fieldErrors && !newsletter ? '' : message);
    setState('idle');
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (state !== 'idle') return;
    const data = shaped();
    const clientErrors = validateForm(form.fields, data, { validate });
    if (Object.keys(clientErrors).length > 0) return fail(m.FIELDS_INVALID, clientErrors);
    setState('submitting');
    setBanner('');
    setProblem(false);
    setErrors({});
    let captchaKey: string | undefined;
    if (form.captcha && captcha) {
      const t = await cap.ensure();
      if (!t) return fail(m.CAPTCHA_INCOMPLETE);
      captchaKey = t;
    }
    const res = await saveSubmission(form.id, (key) => ({
      ...formSubmissionPayload({
        key,
        fields: form.fields,
        values: data,
        captchaKey,
        page: { pageTitle: document.title, language: document.documentElement.lang || undefined, ...page },
        visitorCookie: readVisitorCookie(),
      }),
      honeypot: honeypot.current?.value ?? '',
    }));
    if (res.ok) {
      const redirect = res.data.successRedirect || form.successRedirect;
      if (redirect) {
        window.location.assign(redirect);
        return;
      }
      setState('success');
      return;
    }
    // Failure: unlocked, errors shown, captcha reset and a captcha-tied button disabled until ready.
    if (form.captcha && captcha) {
      cap.reset();
      if (cap.tied) setCaptchaBlocked(true);
    }
    fail(res.message, res.fieldErrors);
  };

  if (state === 'success') {
    return (
      <div className="form-submission-text" role="status">
        <p>{form.submissionMessage}</p>
        <div className="form-submission-html" ref={htmlRef} />
      </div>
    );
  }

  const submitting = state === 'submitting';
  return (
    <form
      ref={formRef}
      className={`form-wrapper ${newsletter ? 'newsletter-form' : 'sqs-form'}`}
      method="post"
      action={action}
      noValidate
      aria-labelledby={`${uid}-title`}
      onSubmit={onSubmit}
      onFocus={() => {
        setFocused(true);
        cap.warm();
      }}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <h2 className="form-title" id={`${uid}-title`}>
        {form.name}
      </h2>
      {problem && banners ? (
        <div className="form-error-banner form-error-banner--above" role="alert">
          {banners.above}
        </div>
      ) : null}
      {banner ? (
        <div className="form-error-banner" role="alert">
          {banner}
        </div>
      ) : null}
      {crumb ? <input type="hidden" name="crumb" value={crumb} /> : null}
      {page.pagePath ? <input type="hidden" name="pagePath" value={page.pagePath} /> : null}
      {page.pageId ? <input type="hidden" name="pageId" value={page.pageId} /> : null}
      {page.contentSource ? <input type="hidden" name="contentSource" value={page.contentSource} /> : null}
      {page.pagePermissionTypeValue !== undefined ? (
        <input type="hidden" name="pagePermissionTypeValue" value={String(page.pagePermissionTypeValue)} />
      ) : null}
      <div
        className="form-honeypot"
        aria-hidden="true"
        style={{ position: 'absolute', left: '-10000px', width: 1, height: 1, overflow: 'hidden' }}
      >
        <label>
          Leave this empty
          <input ref={honeypot} type="text" name="honeypot" tabIndex={-1} autoComplete="off" defaultValue="" />
        </label>
      </div>
      <div className="field-list">
        {form.fields.map((f) => (
          <FormFieldView
            key={f.id}
            field={f}
            value={values[f.id]}
            error={errors[f.id]}
            hiddenValue={f.type === 'hidden' ? hiddenValue(f) : undefined}
            onChange={(v) => setValues((s) => ({ ...s, [f.id]: v }))}
          />
        ))}
      </div>
      {form.disclaimer ? <p className="form-disclaimer">{form.disclaimer}</p> : null}
      {form.captcha && captcha ? <CaptchaBadge cfg={captcha} status={cap.status} visible={focused} widgetRef={cap.widgetRef} /> : null}
      <div className="form-button-wrapper">
        <button
          type="submit"
          className="button sqs-system-button"
          disabled={submitting || (hydrated && captchaBlocked)}
          aria-busy={submitting || undefined}
        >
          {submitting ? m.SUBMITTING : form.submitButtonText}
        </button>
      </div>
      {problem && banners ? (
        <div className="form-error-banner form-error-banner--below" role="alert">
          {banners.below}
        </div>
      ) : null}
    </form>
  );
}

/** The island: the form inline, or behind a button in the lightbox. */
export function Form(props: FormProps) {
  const lightbox = props.lightbox ?? props.form.lightbox;
  const [open, setOpen] = useState(false);
  const titleId = `lightbox-${props.form.id}-title`;
  if (!lightbox) {
    return (
      <div className={`form-block${props.form.kind === 'newsletter' ? ' newsletter-block' : ''}`} data-form-id={props.form.id}>
        <FormBody {...props} />
      </div>
    );
  }
  return (
    <div className="form-block form-block--lightbox" data-form-id={props.form.id}>
      <button type="button" className="button lightbox-handle" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        {props.form.lightboxButtonText}
      </button>
      {open ? (
        <Modal title={props.form.name} titleId={titleId} onClose={() => setOpen(false)} className="form-lightbox">
          <FormBody {...props} />
        </Modal>
      ) : null}
    </div>
  );
}

/** The browser side of the form calls: submission key, save, and the captcha solvers. */
import { solveChallenge } from 'altcha-lib/v1';
import { api, ApiError } from './api.js';
import { forms as m } from '../../core/messages.js';
import { formStatusMessage, type FormSubmissionPayload } from '../../core/forms.js';

import type { SaveOk } from '../../core/api/forms.js';
import type { CaptchaPublicConfig } from '../../core/api/captcha.js';
export type { CaptchaPublicConfig };
export type { SaveOk };

export type SaveOutcome = { ok: true; data: SaveOk } | { ok: false; status: number; message: string; fieldErrors?: Record<string, string> };

export async function submissionKey(): Promise<string> {
  const r = await api<{ key: string }>('POST', '/api/form/FormSubmissionKey');
  if (!r.key) throw new Error(m.NO_SUBMISSION_KEY);
  return r.key;
}

/** Gets a key, then saves; every failure becomes its message (core/messages.ts). */
export async function saveSubmission(
  formId: string,
  build: (key: string) => FormSubmissionPayload & { honeypot?: string },
): Promise<SaveOutcome> {
  let key: string;
  try {
    key = await submissionKey();
  } catch (e) {
    if (e instanceof ApiError && e.status === 429) return { ok: false, status: 429, message: m.STATUS_429 };
    return { ok: false, status: 0, message: m.NO_SUBMISSION_KEY };
  }
  try {
    const data = await api<SaveOk>('POST', '/api/form/SaveFormSubmission', { formId, ...build(key) });
    return { ok: true, data };
  } catch (e) {
    // No answer at all (api() wraps a failed fetch as status 0): the processing-error message, not a status text.
    if (!(e instanceof ApiError) || e.network) return { ok: false, status: 0, message: m.ERROR_PROCESSING };
    if (e.crumbFail) return { ok: false, status: 403, message: m.ERROR_PROCESSING };
    const errors = e.data.errors;
    if (e.status === 400 && errors && typeof errors === 'object' && Object.keys(errors).length > 0) {
      return { ok: false, status: 400, message: m.FIELDS_INVALID, fieldErrors: errors as Record<string, string> };
    }
    return { ok: false, status: e.status, message: formStatusMessage(e.status, e.data.error) };
  }
}

// ---- Captcha -----------------------------------------------------------------------------------

interface AltchaChallenge {
  algorithm: string;
  challenge: string;
  maxnumber?: number;
  salt: string;
  signature: string;
}

/** Fetches a proof-of-work challenge and solves it; resolves to the token (base64 JSON payload). */
export async function solveAltcha(url: string, signal?: AbortSignal): Promise<string> {
  const res = await fetch(url, { credentials: 'same-origin', signal });
  if (!res.ok) throw new Error(m.CAPTCHA_INCOMPLETE);
  const ch = (await res.json()) as AltchaChallenge;
  const { promise, controller } = solveChallenge(ch.challenge, ch.salt, ch.algorithm, ch.maxnumber);
  signal?.addEventListener('abort', () => controller.abort());
  const sol = await promise;
  if (!sol) throw new Error(m.CAPTCHA_INCOMPLETE);
  return btoa(
    JSON.stringify({ algorithm: ch.algorithm, challenge: ch.challenge, number: sol.number, salt: ch.salt, signature: ch.signature }),
  );
}

/**
 * The browser side of the site-user session: sign in (keeps the xsrf token), sign out (retried once on a
 * crumb failure), the locale call (only for languages that are not custom-coded), sign-up and password
 * reset. The visitor-info cookie tells scripts who is signed in; an unparsable one counts as no user.
 */
import { ApiError, errorWords, readCookie } from './api.js';
import { SITE_USER_INFO_COOKIE_NAME, parseSiteUserInfo, type SiteUserInfo, CRUMB_COOKIE } from '../../core/cookies.js';
import type { SiteLanguage } from '../../core/api/accounts.js';
export type { SiteLanguage };

const XSRF_KEY = 'tessera.siteUserXsrf';
export const XSRF_HEADER = 'X-SiteUser-XSRF-Token';

/** JSON call with the crumb and optional extra headers (the xsrf header of account calls). */
async function api<T>(method: string, url: string, body?: unknown, extra: Record<string, string> = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...extra };
  const crumb = readCookie(CRUMB_COOKIE);
  if (crumb) headers['x-csrf-token'] = crumb;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, {
    method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let data: Record<string, unknown> = {};
  try {
    data = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    data = {};
  }
  if (!res.ok) {
    throw new ApiError(res.status, errorWords(data), data);
  }
  return data as T;
}

function store(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

/** Who is signed in, from the visitor-info cookie. An unparsable cookie is logged and counts as no user. */
export function currentSiteUser(): SiteUserInfo {
  const raw = readCookie(SITE_USER_INFO_COOKIE_NAME);
  const info = parseSiteUserInfo(raw);
  if (raw && !info.authenticated && info.siteUserId === null && !/authenticated/.test(raw)) {
    console.warn('tessera: unparsable site-user cookie, treated as no user');
  }
  return info;
}

async function xsrfToken(): Promise<string> {
  const kept = store()?.getItem(XSRF_KEY);
  if (kept) return kept;
  const s = await api<{ xsrfToken?: string }>('GET', '/api/site-users/account/session');
  if (s.xsrfToken) store()?.setItem(XSRF_KEY, s.xsrfToken);
  return s.xsrfToken ?? '';
}

/** An account call: the crumb (by api()) and the X-SiteUser-XSRF-Token header. */
async function accountCall<T>(method: string, url: string, body?: unknown): Promise<T> {
  const headers = { [XSRF_HEADER]: await xsrfToken() };
  try {
    return await api<T>(method, url, body, headers);
  } catch (e) {
    // A stale token kept from an earlier session: ask the server for this session's token once.
    if (e instanceof ApiError && e.data.xsrfFail === true) {
      store()?.removeItem(XSRF_KEY);
      return api<T>(method, url, body, { [XSRF_HEADER]: await xsrfToken() });
    }
    throw e;
  }
}

export async function signIn(email: string, password: string, rememberMe: boolean): Promise<void> {
  const res = await api<{ xsrfToken: string }>('POST', '/api/site-users/account/session', { email, password, rememberMe });
  store()?.setItem(XSRF_KEY, res.xsrfToken);
}

/** Signs out; cloneCart keeps a copy of the cart for the signed-out visitor. Retried once on a crumb failure. */
export async function signOut(cloneCart: boolean): Promise<{ cartKept?: boolean }> {
  const url = `/api/site-users/account/session?cloneCart=${cloneCart ? 'true' : 'false'}`;
  let res: { cartKept?: boolean };
  try {
    res = await accountCall('DELETE', url);
  } catch (e) {
    if (!(e instanceof ApiError && e.crumbFail)) throw e;
    res = await accountCall('DELETE', url);
  }
  store()?.removeItem(XSRF_KEY);
  return res;
}

/** Sends the visitor's language, unless that language's translation is custom-coded (then nothing is sent). */
export async function setLocale(language: SiteLanguage): Promise<boolean> {
  if (language.customCoded) return false;
  await accountCall('POST', '/api/site-users/account/locale', { language: language.code });
  return true;
}

export async function signUp(email: string, password: string, displayName: string): Promise<string> {
  const res = await api<{ message: string }>('POST', '/api/site-users/accounts', { email, password, displayName });
  return res.message;
}

export async function requestPasswordReset(email: string): Promise<string> {
  const res = await api<{ message: string }>('POST', '/api/site-users/account/password-reset', { email });
  return res.message;
}

export async function resetPassword(token: string, password: string): Promise<void> {
  await api('POST', '/api/site-users/account/password', { token, password });
}

/** The confirmation link's password form: proves the address, sets the password and signs in; answers where to go. */
export async function confirmAccount(token: string, password: string, next?: string): Promise<string> {
  const res = await api<{ xsrfToken: string; next: string }>('POST', '/api/site-users/account/confirm', { token, password, next });
  store()?.setItem(XSRF_KEY, res.xsrfToken);
  return res.next;
}

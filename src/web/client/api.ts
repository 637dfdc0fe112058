/** The browser side of the APIs: JSON calls that carry the crumb. */
import { commerce, editor, forms } from '../../core/messages.js';

export function readCookie(name: string): string | undefined {
  if (typeof document === 'undefined') return undefined;
  for (const part of document.cookie.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly data: Record<string, unknown>,
  ) {
    super(message);
  }
  get crumbFail(): boolean {
    return this.data.crumbFail === true;
  }
  /** No answer came at all (offline, connection refused): the call may be tried again as it was. */
  get network(): boolean {
    return this.status === 0 && this.data.network === true;
  }
}

export async function api<T>(method: string, url: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const crumb = readCookie('crumb');
  if (crumb) headers['x-csrf-token'] = crumb;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(url, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    // No answer at all (offline, connection refused): the editor's 'Network error', status 0.
    throw new ApiError(0, editor.NETWORK_ERROR, { network: true });
  }
  let data: Record<string, unknown> = {};
  const text = await res.text();
  if (text) {
    try {
      data = JSON.parse(text) as Record<string, unknown>;
    } catch {
      data = {};
    }
  }
  if (!res.ok) throw new ApiError(res.status, errorWords(data), data);
  return data as T;
}

/**
 * The words of a failed call, never a bare status: the server's message, else for a crumb failure the
 * 'session expired' or 'enable cookies' text, else 'Unknown error, please try again later.'.
 */
export function errorWords(data: Record<string, unknown>): string {
  if (typeof data.message === 'string' && data.message) return data.message;
  if (data.crumbFail === true) return commerce.crumbFailure(typeof navigator === 'undefined' || navigator.cookieEnabled !== false);
  if (typeof data.error === 'string' && data.error) return data.error;
  return forms.UNKNOWN_ERROR;
}

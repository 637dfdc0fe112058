/**
 * Issue 30 ("Smaller"): the site-user sign-out is retried once on a crumb failure,
 * and when the retry fails too the visitor reads words, never 'HTTP 403'.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signOut } from '../../../src/web/client/site-user.js';
import { commerce } from '../../../src/core/messages.js';

afterEach(() => vi.unstubAllGlobals());

function answer(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

describe('sign-out retry', () => {
  it('retries once on crumbFail and reports the second failure in words', async () => {
    const calls: string[] = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      calls.push(`${init.method} ${url}`);
      if (init.method === 'GET') return answer(200, { xsrfToken: 'token-1' });
      return answer(403, { crumbFail: true });
    });
    const err = await signOut(true).then(
      () => null,
      (e: Error) => e,
    );
    expect(calls.filter((c) => c.startsWith('DELETE'))).toEqual([
      'DELETE /api/site-users/account/session?cloneCart=true',
      'DELETE /api/site-users/account/session?cloneCart=true',
    ]);
    expect(err?.message).toBe(commerce.crumbFailure(true));
    expect(err?.message).not.toMatch(/HTTP|403/);
  });

  it('succeeds on the retry when the second call goes through', async () => {
    let deletes = 0;
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      if (init.method === 'GET') return answer(200, { xsrfToken: 'token-1' });
      deletes++;
      return deletes === 1 ? answer(403, { crumbFail: true }) : answer(200, { cartKept: false });
    });
    expect(await signOut(false)).toEqual({ cartKept: false });
    expect(deletes).toBe(2);
  });
});

/**
 * Issue 45 item 4: a call that gets no answer at all (fetch rejects, as it does offline or when the server
 * cannot be reached) shows 'Please check your internet connection', through the real api() wrapper.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { addErrorMessage, cartApi, cartErrorDetail } from '../../../src/web/client/cart-api.js';
import { saveSubmission } from '../../../src/web/client/forms.js';
import { ApiError } from '../../../src/web/client/api.js';
import { cart as cartMessages, forms as formMessages } from '../../../src/core/messages.js';

const online = { cookiesEnabled: true, online: true };
const failedFetch = () => Promise.reject(new TypeError('Failed to fetch'));

describe('no answer from the server', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('a cart add or quantity change whose fetch fails says to check the connection, even while the browser says it is online', async () => {
    vi.stubGlobal('fetch', failedFetch);
    const add = await cartApi.add({ itemId: 'i', sku: 's', quantity: 1, additionalFields: null }).catch((e: unknown) => e);
    expect(add).toBeInstanceOf(ApiError);
    expect(addErrorMessage(add, online)).toBe(cartMessages.CHECK_INTERNET);
    const update = await cartApi.updateQuantity('e', 2).catch((e: unknown) => e);
    expect(cartErrorDetail(update, online)).toBe(cartMessages.CHECK_INTERNET);
  });

  it('offline, the connection message comes first, whatever the error', () => {
    const offline = { cookiesEnabled: true, online: false };
    expect(addErrorMessage(new ApiError(0, 'Network error', { network: true }), offline)).toBe(cartMessages.CHECK_INTERNET);
    expect(addErrorMessage(new ApiError(403, 'x', { crumbFail: true }), offline)).toBe(cartMessages.CHECK_INTERNET);
    // A real answer while online is still shown as it is.
    expect(addErrorMessage(new ApiError(400, 'Sorry, we do not have enough of that item available.', {}), online)).toBe(
      'Sorry, we do not have enough of that item available.',
    );
  });

  it('a form submission whose save gets no answer shows the processing error, not a status text', async () => {
    let calls = 0;
    vi.stubGlobal('fetch', (url: string) => {
      calls++;
      if (String(url).includes('FormSubmissionKey')) return Promise.resolve(new Response(JSON.stringify({ key: 'k' }), { status: 200 }));
      return failedFetch();
    });
    const out = await saveSubmission('f', (key) => ({ key, form: '{}' }) as never);
    expect(calls).toBe(2);
    expect(out).toMatchObject({ ok: false, message: formMessages.ERROR_PROCESSING });
  });
});

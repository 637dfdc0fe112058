import { describe, expect, it } from 'vitest';
import { newStoreUrlId, RESERVED_URL_IDS, reservedUrlIdsOf } from '../../../../src/server/platform/settings.js';
import { HttpError } from '../../../../src/server/errors.js';
import { platform as pm } from '../../../../src/core/messages.js';

const routes = (...urls: string[]) => urls.map((url) => ({ method: 'GET', url }));

describe('reservedUrlIdsOf', () => {
  it('is the named list alone when there are no routes', () => {
    expect([...reservedUrlIdsOf([])].sort()).toEqual([...RESERVED_URL_IDS].sort());
  });

  it('adds the fixed first segment of every route', () => {
    const ids = reservedUrlIdsOf(
      routes(
        '/forms/:formId',
        '/members/files/:id',
        '/members/join/:areaId',
        '/order-confirmed/:orderId',
        '/newsletter/unsubscribe/:token',
        '/uploads/:file',
        '/donate',
      ),
    );
    for (const id of ['forms', 'members', 'order-confirmed', 'newsletter', 'uploads', 'donate']) expect(ids.has(id)).toBe(true);
    // The named ones stay, whether a route has them or not.
    for (const id of RESERVED_URL_IDS) expect(ids.has(id)).toBe(true);
    expect(ids.size).toBe(RESERVED_URL_IDS.length + 6);
  });

  it('takes nothing from parameters, wildcards, regexes or the root', () => {
    const ids = reservedUrlIdsOf(
      routes('/', '*', '/*', '/:collection', '/:collection/:item', '/:collection/p/:item', '/file-:id', '/(^\\d+)'),
    );
    expect([...ids].sort()).toEqual([...RESERVED_URL_IDS].sort());
  });

  it('takes wildcard prefixes by their fixed segment', () => {
    const ids = reservedUrlIdsOf(routes('/media/*', '/config/*'));
    expect(ids.has('media')).toBe(true);
    expect(ids.has('config')).toBe(true);
  });

  it('does not change the named list', () => {
    const before = [...RESERVED_URL_IDS];
    reservedUrlIdsOf(routes('/forms/:formId'));
    expect(RESERVED_URL_IDS).toEqual(before);
  });
});

describe('newStoreUrlId with a reserved set', () => {
  const reserved = reservedUrlIdsOf(routes('/forms/:formId', '/members/join/:areaId'));

  it('skips a reserved id made from the title to the next free suffix', () => {
    expect(newStoreUrlId('Forms', undefined, [], reserved)).toBe('forms-1');
    expect(newStoreUrlId('Members', undefined, ['members-1'], reserved)).toBe('members-2');
    expect(newStoreUrlId('Cart', undefined, [])).toBe('cart-1');
  });

  it('refuses a reserved id the owner sent, with the taken-URL message', () => {
    for (const asked of ['forms', 'Members', 'cart']) {
      let err: unknown;
      try {
        newStoreUrlId('Anything', asked, [], reserved);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(HttpError);
      expect((err as HttpError).status).toBe(400);
      expect((err as HttpError).message).toBe(pm.tagExists('URL'));
      expect((err as HttpError).errors).toEqual({ urlId: pm.tagExists('URL') });
    }
  });

  it('still suffixes a taken id the owner sent, and keeps a free one', () => {
    expect(newStoreUrlId('Anything', 'shop', ['shop'], reserved)).toBe('shop-1');
    expect(newStoreUrlId('Anything', 'forms-shop', [], reserved)).toBe('forms-shop');
  });
});

import { describe, expect, it } from 'vitest';
import {
  anchorStyle,
  bannerDue,
  categoryAllowed,
  formatChoices,
  parseChoices,
  popupDue,
  popupOnPage,
  POPUP_ANCHORS,
} from '../../../src/core/engagement.js';
import { gateScripts } from '../../../src/server/engagement/markup.js';
import { popupOf, cookieBannerOf } from '../../../src/server/engagement/settings.js';
import { signMemberToken, verifyMemberToken, emailProblem } from '../../../src/server/engagement/lists.js';

const DAY = 86_400_000;

describe('promo popup rules', () => {
  const none = { closedDate: null, version: null, submitted: null };
  it('shows until closed or submitted, and again when the version changes', () => {
    const now = Date.parse('2026-05-01T12:00:00Z');
    expect(popupDue(none, 3, 0, now)).toBe(true);
    const closed = { closedDate: new Date(now - DAY).toISOString(), version: '3', submitted: null };
    expect(popupDue(closed, 3, 0, now)).toBe(false);
    expect(popupDue(closed, 4, 0, now)).toBe(true);
    expect(popupDue(closed, 3, 2, now)).toBe(false);
    expect(popupDue(closed, 3, 1, now)).toBe(true);
    expect(popupDue({ ...none, version: '3', submitted: 'true' }, 3, 1, now)).toBe(false);
    expect(popupDue({ ...none, version: '3', submitted: 'true' }, 4, 0, now)).toBe(true);
    expect(popupDue({ ...closed, closedDate: 'garbage' }, 3, 0, now)).toBe(true);
  });
  it('matches the chosen pages, never /config, /cart or /checkout', () => {
    expect(popupOnPage('all', '/')).toBe(true);
    expect(popupOnPage('all', '/config/popup')).toBe(false);
    expect(popupOnPage('all', '/cart')).toBe(false);
    expect(popupOnPage(['/'], '/')).toBe(true);
    expect(popupOnPage(['/'], '/shop')).toBe(false);
    expect(popupOnPage(['/shop/*'], '/shop')).toBe(true);
    expect(popupOnPage(['/shop/*'], '/shop/p/x?y=1')).toBe(true);
    expect(popupOnPage(['/shop/*'], '/shopping')).toBe(false);
    expect(popupOnPage(['/journal/'], '/journal')).toBe(true);
  });
  it('places the panel in each of the nine cells', () => {
    expect(POPUP_ANCHORS).toHaveLength(9);
    expect(anchorStyle('top-left')).toEqual({ position: 'fixed', top: 24, left: 24 });
    expect(anchorStyle('bottom-right')).toEqual({ position: 'fixed', bottom: 24, right: 24 });
    expect(anchorStyle('center-center')).toEqual({
      position: 'fixed',
      top: '50%',
      left: '50%',
      transform: 'translateY(-50%) translateX(-50%)',
    });
    expect(anchorStyle('bottom-center')).toEqual({ position: 'fixed', bottom: 24, left: '50%', transform: 'translateX(-50%)' });
  });
  it('fills defaults and drops bad stored values', () => {
    const p = popupOf({ anchor: 'middle', delaySeconds: -4, title: 'Hi', version: 7 });
    expect(p).toMatchObject({ anchor: 'center-center', delaySeconds: 5, title: 'Hi', version: 7, enabled: false });
    expect(popupOf(null).version).toBe(1);
    expect(cookieBannerOf({ mode: 'opt-in', policyUrl: 'javascript:x' })).toEqual({ mode: 'opt-in', text: '', policyUrl: '' });
  });
});

describe('cookie consent rules', () => {
  it('reads and writes the choices cookie', () => {
    expect(formatChoices({ analytics: true, marketing: false })).toBe('analytics:1|marketing:0');
    expect(parseChoices('analytics:1|marketing:0')).toEqual({ analytics: true, marketing: false });
    expect(parseChoices('analytics:1')).toBeNull();
    expect(parseChoices('analytics:2|marketing:0')).toBeNull();
    expect(parseChoices('')).toBeNull();
  });
  it('opt-in allows a category only once granted; other modes allow it', () => {
    expect(categoryAllowed('off', null, 'analytics')).toBe(true);
    expect(categoryAllowed('notice', null, 'marketing')).toBe(true);
    expect(categoryAllowed('opt-in', null, 'analytics')).toBe(false);
    expect(categoryAllowed('opt-in', { analytics: true, marketing: false }, 'marketing')).toBe(false);
    expect(categoryAllowed('opt-in', { analytics: true, marketing: false }, 'analytics')).toBe(true);
  });
  it('shows the banner until the visitor decides', () => {
    expect(bannerDue('off', {})).toBe(false);
    expect(bannerDue('notice', {})).toBe(true);
    expect(bannerDue('notice', { notice: '1' })).toBe(false);
    expect(bannerDue('opt-in', { notice: '1' })).toBe(true);
    expect(bannerDue('opt-in', { choices: 'analytics:0|marketing:0' })).toBe(false);
  });
  it('keeps owner scripts inert until consent, data scripts as they are', () => {
    expect(gateScripts('<script src="https://x.example/a.js" async></script>')).toBe(
      '<script type="text/plain" data-tessera-consent="marketing" data-type="" src="https://x.example/a.js" async></script>',
    );
    expect(gateScripts('<SCRIPT type="module">x()</SCRIPT>')).toBe(
      '<script type="text/plain" data-tessera-consent="marketing" data-type="module" >x()</SCRIPT>',
    );
    expect(gateScripts('<script type="application/ld+json">{}</script>')).toBe('<script type="application/ld+json">{}</script>');
    expect(gateScripts('')).toBe('');
  });
});

describe('newsletter links and addresses', () => {
  it('signs a member id per purpose; a link of one purpose is not one of the other', () => {
    const id = '0123456789abcdef01234567';
    const t = signMemberToken('k', 'unsubscribe', id);
    expect(verifyMemberToken('k', 'unsubscribe', t)).toBe(id);
    expect(verifyMemberToken('k', 'confirm', t)).toBeNull();
    expect(verifyMemberToken('other', 'unsubscribe', t)).toBeNull();
    expect(verifyMemberToken('k', 'unsubscribe', `${id}.x`)).toBeNull();
    expect(verifyMemberToken('k', 'unsubscribe', 42)).toBeNull();
  });
  it('checks addresses in the forms words', () => {
    expect(emailProblem('  ')).toBe('Email cannot be blank');
    expect(emailProblem('a@b')).toBe('Email is not valid. Email addresses should follow the format name@example.com.');
    expect(emailProblem('ok@example.com')).toBeNull();
  });
});

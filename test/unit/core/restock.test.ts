import { describe, expect, it } from 'vitest';
import { restockSignUpPayload, restockSuccessText, totalSignUps, validateRestockEmail } from '../../../src/core/restock';

describe('validateRestockEmail', () => {
  it('blank', () => {
    expect(validateRestockEmail('')).toBe('Email cannot be blank');
    expect(validateRestockEmail('   ')).toBe('Email cannot be blank');
    expect(validateRestockEmail(undefined)).toBe('Email cannot be blank');
  });
  it('valid', () => {
    expect(validateRestockEmail('a@b.co')).toBeNull();
    expect(validateRestockEmail('jane.doe+shop@example.info')).toBeNull();
    expect(validateRestockEmail(' jane@example.com ')).toBeNull();
  });
  it('invalid patterns and endings', () => {
    expect(validateRestockEmail('jane')).toBe('Email is invalid');
    expect(validateRestockEmail('jane@example')).toBe('Email is invalid');
    expect(validateRestockEmail('jane@example.c')).toBe('Email is invalid');
    expect(validateRestockEmail('jane@example.museum')).toBe('Email is invalid');
    expect(validateRestockEmail('ja ne@example.com')).toBe('Email is invalid');
    expect(validateRestockEmail('a@')).toBe('Email is invalid');
  });
  it('length 3 to 256', () => {
    const local = 'a'.repeat(256 - '@example.com'.length);
    expect(validateRestockEmail(`${local}@example.com`)).toBeNull();
    expect(validateRestockEmail(`a${local}@example.com`)).toBe('Email is invalid');
  });
});

describe('restock helpers', () => {
  it('success text defaults to Signed up!', () => {
    expect(restockSuccessText()).toBe('Signed up!');
    expect(restockSuccessText({ restockNotificationsSuccessText: '  ' })).toBe('Signed up!');
    expect(restockSuccessText({ restockNotificationsSuccessText: 'Thanks!' })).toBe('Thanks!');
  });
  it('payload carries one captcha kind and language only when both flags are on', () => {
    const base = { productId: 'p', variantId: 'v', email: ' a@b.co ' };
    expect(restockSignUpPayload({ ...base, captchaToken: 't' })).toEqual({
      isJoinMailingList: false,
      productId: 'p',
      variantId: 'v',
      siteVisitorEmail: 'a@b.co',
      captchaToken: 't',
    });
    const e = restockSignUpPayload({
      ...base,
      captchaToken: 't',
      enterpriseToken: 'e',
      joinMailingList: true,
      language: 'fr',
      multilingualEmails: true,
    });
    expect(e.recaptchaEnterpriseV3Token).toBe('e');
    expect(e.captchaToken).toBeUndefined();
    expect(e.language).toBeUndefined();
    expect(e.isJoinMailingList).toBe(true);
    expect(restockSignUpPayload({ ...base, language: 'fr', multilingualEmails: true, translationTool: true }).language).toBe('fr');
  });
  it('total sign-ups sums list lengths', () => {
    expect(totalSignUps([])).toBe(0);
    expect(totalSignUps([[1, 2], [], [3]])).toBe(3);
  });
});

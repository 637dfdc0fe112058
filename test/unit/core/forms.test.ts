import { describe, expect, it } from 'vitest';
import {
  characterCounter,
  formProblemBanners,
  formStatusMessage,
  formSubmissionPayload,
  likertLabel,
  shapeFieldValue,
  summaryAnswer,
  validateField,
  validateForm,
  type FormField,
} from '../../../src/core/forms';

const EMAIL_MSG = 'Email is not valid. Email addresses should follow the format name@example.com.';
const f = (type: FormField['type'], extra: Partial<FormField> = {}): FormField => ({ id: `${type}-1`, type, ...extra });

describe('shapeFieldValue', () => {
  it('multi-part fields are arrays', () => {
    expect(shapeFieldValue(f('name'), ['Jane', 'Doe'])).toEqual(['Jane', 'Doe']);
    expect(shapeFieldValue(f('date'), ['01', '02', '2024'])).toEqual(['01', '02', '2024']);
    expect(shapeFieldValue(f('address'), undefined)).toEqual([]);
  });
  it('phone prepends an empty element for 3 parts only', () => {
    expect(shapeFieldValue(f('phone'), ['555', '123', '4567'])).toEqual(['', '555', '123', '4567']);
    expect(shapeFieldValue(f('phone'), ['1', '555', '123', '4567'])).toEqual(['1', '555', '123', '4567']);
  });
  it('checkbox array, radio and select single values', () => {
    expect(shapeFieldValue(f('checkbox'), ['a', '', 'c'])).toEqual(['a', 'c']);
    expect(shapeFieldValue(f('radio'), 'b')).toBe('b');
    expect(shapeFieldValue(f('radio'), null)).toBe('');
    expect(shapeFieldValue(f('select'), ['x'])).toBe('x');
  });
  it('likert is a map without unanswered statements', () => {
    expect(shapeFieldValue(f('likert'), { Q1: '5', Q2: '', Q3: 2 })).toEqual({ Q1: '5', Q3: '2' });
    expect(shapeFieldValue(f('likert'), 'junk')).toEqual({});
  });
  it('hidden takes the query parameter of the same name, else the default', () => {
    const hidden = f('hidden', { key: 'utm_source', value: 'direct' });
    expect(shapeFieldValue(hidden, undefined, { query: new URLSearchParams('utm_source=mail') })).toBe('mail');
    expect(shapeFieldValue(hidden, undefined, { query: { utm_source: ['ad', 'x'] } })).toBe('ad');
    expect(shapeFieldValue(hidden, undefined, { query: new URLSearchParams('other=1') })).toBe('direct');
    expect(shapeFieldValue(hidden, undefined)).toBe('direct');
  });
  it('section gives nothing, text gives text', () => {
    expect(shapeFieldValue(f('section'), 'x')).toBeUndefined();
    expect(shapeFieldValue(f('text'), 42)).toBe('42');
    expect(shapeFieldValue(f('textarea'), undefined)).toBe('');
  });
});

describe('validateField', () => {
  it('Required for empty required single, multi-part, radio, select, checkbox', () => {
    expect(validateField(f('text', { required: true }), '  ')).toBe('Required');
    expect(validateField(f('name', { required: true }), ['', ' '])).toBe('Required');
    expect(validateField(f('name', { required: true }), ['Jane', ''])).toBeNull();
    expect(validateField(f('radio', { required: true }), '')).toBe('Required');
    expect(validateField(f('select', { required: true }), undefined)).toBe('Required');
    expect(validateField(f('checkbox', { required: true }), [])).toBe('Required');
    expect(validateField(f('checkbox', { required: true }), ['a'])).toBeNull();
  });
  it('likert and phone only through the general rule', () => {
    expect(validateField(f('likert', { required: true }), {})).toBeNull();
    expect(validateField(f('phone', { required: true }), ['', '', '', ''])).toBeNull();
    expect(validateField(f('phone', { required: true }), undefined)).toBe('Required');
    expect(validateField(f('likert', { required: true }), null)).toBe('Required');
  });
  it('optional empty fields pass', () => {
    expect(validateField(f('text'), '')).toBeNull();
    expect(validateField(f('email'), '')).toBeNull();
  });
  it('email format', () => {
    expect(validateField(f('email'), 'not-an-email')).toBe(EMAIL_MSG);
    expect(validateField(f('email', { required: true }), '')).toBe('Required');
    expect(validateField(f('email', { required: true }), 'jane@example.com')).toBeNull();
  });
  it('maximum length', () => {
    const ta = f('textarea', { maxLength: 5 });
    expect(validateField(ta, '12345')).toBeNull();
    expect(validateField(ta, '123456')).toBe('You have exceeded the character limit.');
    expect(validateField(ta, '')).toBeNull();
  });
  it('section is never validated', () => {
    expect(validateField(f('section', { required: true }), undefined)).toBeNull();
  });
});

describe('validateForm', () => {
  const fields = [f('text', { id: 'a', required: true }), f('email', { id: 'b' }), f('section', { id: 'c', required: true })];
  it('returns messages keyed by field id', () => {
    expect(validateForm(fields, { b: 'x' })).toEqual({ a: 'Required', b: EMAIL_MSG });
    expect(validateForm(fields, { a: 'hi', b: 'jane@example.com' })).toEqual({});
  });
  it('validation can be disabled', () => {
    expect(validateForm(fields, {}, { validate: false })).toEqual({});
  });
});

describe('status messages', () => {
  it('fixed texts per status', () => {
    expect(formStatusMessage(401)).toBe('Unable to submit form. Please try again later.');
    expect(formStatusMessage(404)).toBe('This form has not been configured yet.');
    expect(formStatusMessage(429)).toBe('Unable to submit form. Submission rate limit exceeded. Please try again later.');
    expect(formStatusMessage(500, 'ignored')).toBe('Unable to send form. Please try again later.');
  });
  it('data.error, else unknown', () => {
    expect(formStatusMessage(400, 'Bad things')).toBe('Bad things');
    expect(formStatusMessage(503, '')).toBe('Unknown error, please try again later.');
    expect(formStatusMessage(418, { nested: true })).toBe('Unknown error, please try again later.');
  });
  it('problem banners only for non-newsletter forms', () => {
    expect(formProblemBanners(true)).toBeNull();
    expect(formProblemBanners(false)).toEqual({
      above: 'Your form has encountered a problem. Please scroll down to review.',
      below: 'Your form has encountered a problem. Please scroll up to review.',
    });
  });
});

describe('labels, counter, summary, payload', () => {
  it('likert labels', () => {
    expect(likertLabel(1)).toBe('Strongly Disagree');
    expect(likertLabel('3')).toBe('Neutral');
    expect(likertLabel(5)).toBe('Strongly Agree');
    expect(likertLabel(0)).toBeUndefined();
    expect(likertLabel(6)).toBeUndefined();
  });
  it('counter', () => {
    expect(characterCounter('abc', 5)).toEqual({ text: '3 / 5', error: false });
    expect(characterCounter('abcdef', 5)).toEqual({ text: '6 / 5', error: true });
  });
  it('summary N/A', () => {
    expect(summaryAnswer('')).toBe('N/A');
    expect(summaryAnswer([], 'Sin respuesta')).toBe('Sin respuesta');
    expect(summaryAnswer(['a', '', 'b'])).toBe('a, b');
    expect(summaryAnswer('yes')).toBe('yes');
  });
  it('submission payload', () => {
    const p = formSubmissionPayload({
      key: 'k1',
      fields: [f('text', { id: 'a' }), f('section', { id: 's' }), f('checkbox', { id: 'c' })],
      values: { a: 'hi', s: 'x', c: ['1'] },
      captchaKey: 'cap',
      page: { pageTitle: 'Contact', contentSource: 'c', pagePath: '/contact' },
      visitorCookie: 'v',
    });
    expect(JSON.parse(p.form)).toEqual({ a: 'hi', c: ['1'] });
    expect(p).toMatchObject({ key: 'k1', captchaKey: 'cap', pageTitle: 'Contact', contentSource: 'c', visitorCookie: 'v' });
  });
});

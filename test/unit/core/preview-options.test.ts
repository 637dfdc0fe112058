import { describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_ANALYTICS_OPTIONS,
  INVALID_SOURCE_ENVIRONMENT,
  analyticsOptionsOf,
  eventsUrl,
  schemaUrl,
  serviceUrlFor,
  sourceEnvironmentOf,
} from '../../../src/core/analytics-options.js';
import {
  MASKED_PASSWORD_PLACEHOLDER,
  UPGRADE_DESTINATIONS,
  formatPreviewCookie,
  keepSecret,
  maskSecret,
  parsePreviewCookie,
  safeModeAsked,
} from '../../../src/core/preview.js';

describe('analytics client options', () => {
  it('defaults: fire events on, logging off, beacon on, validate off, prod', () => {
    expect(DEFAULT_ANALYTICS_OPTIONS).toEqual({
      fireEvents: true,
      logging: false,
      beacon: true,
      validate: false,
      sourceEnvironment: 'prod',
      serviceUrl: '',
    });
    expect(analyticsOptionsOf(null)).toEqual(DEFAULT_ANALYTICS_OPTIONS);
    expect(analyticsOptionsOf({ validate: true, beacon: 'no', serviceUrl: 'javascript:alert(1)' })).toEqual({
      ...DEFAULT_ANALYTICS_OPTIONS,
      validate: true,
    });
  });

  it('the source environment picks the service URL; an invalid one warns and means prod', () => {
    const warn = vi.fn();
    expect(sourceEnvironmentOf('dev', warn)).toBe('dev');
    expect(sourceEnvironmentOf('QA', warn)).toBe('qa');
    expect(sourceEnvironmentOf('staging', warn)).toBe('qa');
    expect(sourceEnvironmentOf(undefined, warn)).toBe('prod');
    expect(warn).not.toHaveBeenCalled();
    expect(sourceEnvironmentOf('production-ish', warn)).toBe('prod');
    expect(warn).toHaveBeenCalledWith(INVALID_SOURCE_ENVIRONMENT);
    const urls = { dev: 'https://events.dev.example/', qa: 'https://events.qa1.example', prod: 'https://events.example' };
    expect(serviceUrlFor('dev', urls)).toBe('https://events.dev.example');
    expect(serviceUrlFor('qa', urls)).toBe('https://events.qa1.example');
    expect(serviceUrlFor('prod', {})).toBe('');
    expect(eventsUrl({ serviceUrl: '' })).toBe('/api/v1/events');
    // Validate mode posts to {events service}/{schema name}; with no service, the site's own schemas route.
    expect(schemaUrl({ serviceUrl: 'https://events.example' }, 'add_to_cart')).toBe('https://events.example/add_to_cart');
    expect(schemaUrl({ serviceUrl: '' }, 'add_to_cart')).toBe('/api/v1/schemas/add_to_cart');
  });
});

describe('preview, safe mode and secrets', () => {
  it('the preview cookie round-trips and rejects anything else', () => {
    expect(parsePreviewCookie(formatPreviewCookie({ drafts: true, theme: null }))).toEqual({ drafts: true, theme: null });
    expect(parsePreviewCookie(formatPreviewCookie({ drafts: false, theme: 'autumn' }))).toEqual({ drafts: false, theme: 'autumn' });
    for (const bad of ['', 'v1|drafts|../etc', 'v2|drafts|', 'drafts', undefined]) expect(parsePreviewCookie(bad)).toBeNull();
  });

  it('safe mode: the query parameter wins over the cookie', () => {
    expect(safeModeAsked({ 'safe-mode': '1' }, undefined)).toBe(true);
    expect(safeModeAsked({ 'safe-mode': '0' }, '1')).toBe(false);
    expect(safeModeAsked({}, '1')).toBe(true);
    expect(safeModeAsked({}, undefined)).toBe(false);
  });

  it('a masked placeholder never replaces the stored secret', () => {
    expect(maskSecret('s3cret')).toBe(MASKED_PASSWORD_PLACEHOLDER);
    expect(maskSecret('')).toBe('');
    expect(keepSecret(MASKED_PASSWORD_PLACEHOLDER, 's3cret')).toBe('s3cret');
    expect(keepSecret('', 's3cret')).toBe('s3cret');
    expect(keepSecret(undefined, 's3cret')).toBe('s3cret');
    expect(keepSecret('new', 's3cret')).toBe('new');
  });

  it('the upgrade destinations are under settings/billing', () => {
    expect(UPGRADE_DESTINATIONS).toEqual({
      trialUpgrade: '/config/settings/billing/upgrade',
      upgrade: '/config/settings/billing/website-subscriptions',
    });
  });
});

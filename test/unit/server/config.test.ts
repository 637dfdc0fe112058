/** A configuration error names a secret variable but never prints its value (secrets are never logged). */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, SECRET_VARIABLES } from '../../../src/server/config.js';

const MARK = 'pw7Qz';
// An invalid value for each secret variable, each holding the marker.
const BAD: Record<string, string> = {
  DATABASE_URL: `mysql://user:${MARK}@db/shop`,
  OWNER_PASSWORD: MARK,
  SMTP_URL: `http://user:${MARK}@relay`,
  REDIS_URL: `http://:${MARK}@cache`,
  STRIPE_SECRET_KEY: `sk_bad_${MARK}`,
  STRIPE_WEBHOOK_SECRET: `whsec-${MARK}`,
  S3_ACCESS_KEY_ID: 'x'.repeat(300) + MARK,
  S3_SECRET_ACCESS_KEY: 'x'.repeat(600) + MARK,
  METRICS_TOKEN: `short ${MARK}`,
};

describe('configuration errors and secrets', () => {
  it('covers every secret variable', () => {
    expect(Object.keys(BAD).sort()).toEqual([...SECRET_VARIABLES].sort());
  });

  it.each(Object.entries(BAD))('names %s but hides its value', (name, value) => {
    let message = '';
    try {
      loadConfig({ [name]: value });
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      message = (e as Error).message;
    }
    expect(message).toContain(`${name}="(hidden)"`);
    expect(message).not.toContain(MARK);
  });

  it('still shows the value of a variable that is not secret', () => {
    expect(() => loadConfig({ PAGE_CACHE_SECONDS: 'soon' })).toThrow(/PAGE_CACHE_SECONDS="soon"/);
  });
});

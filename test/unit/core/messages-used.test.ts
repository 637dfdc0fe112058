/**
 * Every message constant of src/core/messages.ts must be used by a code path outside the tests (issue 30):
 * a message nothing shows is a spec statement that does not hold. A key counts as used when `.<KEY>` appears
 * in src/ (another module, or another message of messages.ts that is itself built from it).
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as messages from '../../../src/core/messages.js';

/**
 * Messages of the editor and the interface validation that the editor this project ships does not have a
 * place for yet (issue 30, "Editor messages"): listed so the check still catches every other constant.
 * Remove a line when its message is wired; the test fails when a listed key becomes used, to keep this short.
 */
const NOT_YET_WIRED = new Set([
  'platform.LIST_MUST_BE_SELECTED',
  'platform.oneTagAtATime',
  'platform.VIMEO_BASIC_UNSUPPORTED',
  'editor.UNABLE_TO_LOAD_FONTS',
  'editor.UNABLE_TO_LOAD_COLLECTIONS',
  'editor.NO_JOB_RESPONSE',
  'editor.FILE_PROCESSING_INCOMPLETE',
  'editor.UPLOAD_PROBLEM',
  'editor.TIMEZONE_FAILED',
  'editor.NO_CODE_EDITING_ANDROID',
]);

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (/\.(ts|tsx|mjs|js)$/.test(name)) out.push(readFileSync(p, 'utf8'));
  }
  return out;
}

describe('src/core/messages.ts', () => {
  const text = sources('src').join('\n');
  const keys: string[] = [];
  for (const [group, value] of Object.entries(messages)) {
    if (!value || typeof value !== 'object' || Array.isArray(value)) continue;
    // Groups of messages (strings and message functions); an index of groups is not a group.
    for (const [key, v] of Object.entries(value)) if (typeof v === 'string' || typeof v === 'function') keys.push(`${group}.${key}`);
  }
  const used = (qualified: string) => new RegExp(`\\.${qualified.split('.')[1]}\\b`).test(text);

  it('has every message constant used by code outside the tests', () => {
    expect(keys.length).toBeGreaterThan(100);
    const unused = keys.filter((k) => !NOT_YET_WIRED.has(k) && !used(k));
    expect(unused).toEqual([]);
  });

  it('lists only messages that are still unused as not yet wired', () => {
    expect([...NOT_YET_WIRED].filter((k) => !keys.includes(k) || used(k))).toEqual([]);
  });
});

/**
 * Every message constant of src/core/messages.ts must be used by a code path outside the tests (issue 30):
 * a message nothing shows is a promise the product does not keep. A key counts as used when `.<KEY>` appears
 * in src/ (another module, or another message of messages.ts that is itself built from it).
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as messages from '../../../src/core/messages.js';

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
    const unused = keys.filter((k) => !used(k));
    expect(unused).toEqual([]);
  });
});

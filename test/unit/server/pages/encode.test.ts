import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { encodeSync, pickEncoding, utf8Bytes, utf8Scratch, windowFor } from '../../../../src/server/pages/encode.js';

// Texts of every kind the renderer makes: ASCII, Latin-1, other BMP characters, astral characters (surrogate
// pairs, 4 bytes in UTF-8), a lone surrogate (replaced, as Buffer.from does), empty, and beyond the scratch bound.
const texts = [
  '',
  'plain ASCII <p class="x">hello</p>',
  'Café crème — 12,50 €',
  '<title>Linen Camp Shirt — Tessera</title>'.repeat(2000),
  'emoji 🧵🪡 and CJK 麻 ',
  'lone \ud800 surrogate',
  'x'.repeat((1 << 20) + 5),
  '€'.repeat(300_000),
];

describe('page bytes through the scratch buffer (server/pages/encode.ts)', () => {
  it('writes the same UTF-8 bytes as Buffer.from for every kind of text', () => {
    for (const t of texts) {
      expect(Buffer.compare(utf8Scratch(t), Buffer.from(t))).toBe(0);
      expect(Buffer.compare(utf8Bytes(t), Buffer.from(t))).toBe(0);
    }
  });

  it('gives utf8Bytes a buffer of its own that later calls do not overwrite', () => {
    const kept = utf8Bytes('first page — kept');
    const shared = utf8Scratch('second page');
    utf8Scratch('third page, longer than both of the others');
    expect(kept.toString()).toBe('first page — kept');
    // The scratch view is only good until the next call: that is its contract.
    expect(shared.toString()).not.toBe('second page');
  });

  it('compresses scratch bytes to what decompresses back to the page, in brotli and gzip', () => {
    const page = '<!doctype html><html><body class="tessera page-type-50">' + 'Linen — 麻 🧵 '.repeat(3000) + '</body></html>';
    const br = encodeSync(utf8Scratch(page), 'br', 1);
    expect(brotliDecompressSync(br).toString()).toBe(page);
    const gz = encodeSync(utf8Scratch(page), 'gzip', 1);
    expect(gunzipSync(gz).toString()).toBe(page);
    expect(windowFor(Buffer.byteLength(page))).toBeGreaterThanOrEqual(10);
    expect(pickEncoding('gzip, br')).toBe('br');
  });
});

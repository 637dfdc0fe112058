/**
 * Turns the demo store's flat SVG drawings (seed/media/*.svg) into photo-like JPEG files
 * (seed/media/*.jpg): soft studio light, a vignette, a floor shadow and a fine paper grain.
 * Run once with `npx tsx src/server/images/make-demo-images.ts`; the output is committed.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import sharp from 'sharp';

export const DEMO_MEDIA_DIR = resolve('seed/media');
export const DEMO_IMAGE_SIZE = 1200;

function dress(svg: string): string {
  const inner = svg.replace(/^<svg[^>]*>/, '').replace(/<\/svg>\s*$/, '');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${DEMO_IMAGE_SIZE}" height="${DEMO_IMAGE_SIZE}" viewBox="0 0 600 600">
<defs>
  <radialGradient id="light" cx="35%" cy="25%" r="85%"><stop offset="0" stop-color="#fff" stop-opacity=".45"/><stop offset=".6" stop-color="#fff" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity=".28"/></radialGradient>
  <filter id="blur"><feGaussianBlur stdDeviation="14"/></filter>
  <filter id="grain"><feTurbulence type="fractalNoise" baseFrequency=".9" numOctaves="2" seed="7"/><feColorMatrix values="0 0 0 0 .5  0 0 0 0 .5  0 0 0 0 .5  0 0 0 .09 0"/></filter>
</defs>
${inner.replace(/<(path|rect|circle)(?![^>]*width="600")/, '<ellipse cx="300" cy="470" rx="170" ry="22" fill="#000" opacity=".18" filter="url(#blur)"/><$1')}
<rect width="600" height="600" fill="url(#light)"/>
<rect width="600" height="600" filter="url(#grain)"/>
</svg>`;
}

export async function makeDemoImages(dir = DEMO_MEDIA_DIR): Promise<string[]> {
  const made: string[] = [];
  for (const name of readdirSync(dir)
    .filter((f) => f.endsWith('.svg'))
    .sort()) {
    const out = join(dir, name.replace(/\.svg$/, '.jpg'));
    await sharp(Buffer.from(dress(readFileSync(join(dir, name), 'utf8'))))
      .jpeg({ quality: 78, mozjpeg: true, progressive: true })
      .toFile(out);
    made.push(out);
  }
  return made;
}

/** A two-second chime (8 kHz, 8-bit mono WAV) for the demo podcast post's audio block. */
export function makeChime(file = join(DEMO_MEDIA_DIR, 'chime.wav')): string {
  const rate = 8000;
  const n = rate * 2;
  const buf = Buffer.alloc(44 + n);
  buf.write('RIFF', 0);
  buf.writeUInt32LE(36 + n, 4);
  buf.write('WAVEfmt ', 8);
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(rate, 24);
  buf.writeUInt32LE(rate, 28);
  buf.writeUInt16LE(1, 32);
  buf.writeUInt16LE(8, 34);
  buf.write('data', 36);
  buf.writeUInt32LE(n, 40);
  for (let i = 0; i < n; i++) {
    const t = i / rate;
    const v = Math.exp(-2.2 * t) * (0.6 * Math.sin(2 * Math.PI * 660 * t) + 0.3 * Math.sin(2 * Math.PI * 990 * t));
    buf[44 + i] = Math.round(128 + 110 * v);
  }
  writeFileSync(file, buf);
  return file;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  makeChime();
  makeDemoImages().then((files) => console.log(`made ${files.length} demo images and a chime in ${DEMO_MEDIA_DIR}`));
}

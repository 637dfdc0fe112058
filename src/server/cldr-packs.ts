/**
 * Installs the template engine's CLDR pack loader: a language's pack is read
 * from @phensley/cldr/packs/<lang>.json the first time the engine formats in
 * that language (the engine itself does no I/O). Importing this module installs it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { setCldrPackLoader } from '../template/cldr-loader.js';

const packDir = dirname(createRequire(import.meta.url).resolve('@phensley/cldr/packs/en.json'));

/** Only plain language subtags name a pack file. */
setCldrPackLoader((language: string) => {
  if (!/^[a-z]{2,3}$/.test(language)) throw new Error(`no CLDR pack for ${language}`);
  return readFileSync(join(packDir, `${language}.json`), 'utf8');
});

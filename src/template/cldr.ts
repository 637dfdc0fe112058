/**
 * CLDR through @phensley/cldr, the library the documented platform formats with.
 *
 * One framework per process; a language's resource pack (packs/<lang>.json,
 * ~250 KB for en) is loaded the first time a locale of that language is asked
 * for, never at import. The engine does no I/O itself: the host installs the
 * pack loader (src/server/cldr-packs.ts) with setCldrPackLoader. A CLDR
 * instance is kept per locale string, so formatters pay a Map lookup per call.
 */
import { CLDRFramework, type CLDR } from '@phensley/cldr';
import { cldrLoaderGeneration, cldrPackLoader } from './cldr-loader.js';

export { setCldrPackLoader } from './cldr-loader.js';

/** Languages the site's language settings offer; others fall back to English. */
export const CLDR_LANGUAGES = ['en', 'fr', 'de', 'es', 'ja', 'it', 'pt', 'nl', 'sv', 'da', 'nb', 'fi', 'pl', 'cs'] as const;

let framework: CLDRFramework | null = null;
const byLocale = new Map<string, CLDR>();
/** The loader install that `framework` and `byLocale` were built with; a new install starts them afresh. */
let builtFor = cldrLoaderGeneration();

function fw(): CLDRFramework {
  if (framework === null) {
    const packLoader = cldrPackLoader();
    if (packLoader === null) throw new Error('CLDR packs: no loader installed (call setCldrPackLoader; the server does at start)');
    framework = new CLDRFramework({ loader: packLoader, packCacheSize: CLDR_LANGUAGES.length + 4 });
  }
  return framework;
}

const OFFERED = new Set<string>(CLDR_LANGUAGES);

/** The CLDR instance for a locale such as 'fr-FR' or 'ja_JP' (unknown languages use en-US). */
export function cldrFor(locale: string): CLDR {
  if (builtFor !== cldrLoaderGeneration()) {
    framework = null;
    byLocale.clear();
    builtFor = cldrLoaderGeneration();
  }
  let c = byLocale.get(locale);
  if (c === undefined) {
    const tag = locale.replace(/_/g, '-');
    const lang = tag.split('-')[0].toLowerCase();
    try {
      c = fw().get(OFFERED.has(lang) ? tag : 'en-US');
    } catch {
      c = fw().get('en-US');
    }
    byLocale.set(locale, c);
  }
  return c;
}

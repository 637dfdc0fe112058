/**
 * The page shell every server-rendered page goes through: the site layout and styles, the CSP nonce,
 * page encoding, the cart pill splice and the late insert, and the plain-form notice page. Areas hand it content; it
 * imports no area (the site's own parts arrive as app.sitePageParts, set in app.ts).
 */
export { countryOptions } from './countries.js';
export { addressFormat, checkedAddress, countryName, defaultCountry, formatAddress } from './address-formats.js';
export { NOINDEX_META, sendSitePage, siteStylesHead, type SitePage, type SitePageParts } from './page.js';
export { ADMIN_CSP, PREVIEW_SANDBOX, cspPlugin, freshNonce, nonceScripts, publicCsp } from './csp.js';
export { productPath, refererPath, safePath, sendNotice, type Notice } from './notice.js';
export { NO_SCRIPT_LIMIT, NO_SCRIPT_MESSAGES, checkNoScriptPost } from './no-script-guard.js';
export {
  compressPage,
  encodeAsync,
  encodeSync,
  KEPT,
  markEncoded,
  pageEncoding,
  type PageEncoding,
  pickEncoding,
  QUICK,
  responseEncoding,
  utf8Bytes,
} from './encode.js';
export {
  brotliParts,
  type BrotliParts,
  brotliPartsSync,
  brotliWithPill,
  gzipParts,
  type GzipParts,
  gzipPartsSync,
  gzipWithPill,
  type PillSplit,
  splitAtPill,
} from './pill-splice.js';
export { deferInsert, insertParts, type LateInsert, takeInsert, withInsert } from './late-insert.js';
export { ClientAssets } from './assets.js';
export { DEFAULT_THEME_DIR, type PlatformInput, Theme } from './theme.js';

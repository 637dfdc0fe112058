/**
 * The image loader developer templates get instead of Squarespace's client runtime: an <img> with a
 * `data-src` (what `{@|image-meta}` writes) gets a `src` and a `srcset` of the platform widths the image
 * route serves (`?format=<n>w`), `sizes` from its rendered width, and its `data-image-focal-point` as
 * `object-position`. Images added later (by a template's own script) are loaded too.
 */
export const IMAGE_LOADER_JS = `(function () {
  var WIDTHS = [100, 300, 500, 750, 1000, 1500, 2500];
  function withFormat(src, w) {
    var hash = src.indexOf('#') >= 0 ? src.slice(src.indexOf('#')) : '';
    var base = hash ? src.slice(0, src.indexOf('#')) : src;
    return base + (base.indexOf('?') >= 0 ? '&' : '?') + 'format=' + w + 'w' + hash;
  }
  function load(img) {
    var src = img.getAttribute('data-src') || img.getAttribute('data-image');
    if (!src || img.getAttribute('data-loaded') === 'true') return;
    var local = src.charAt(0) === '/' && src.charAt(1) !== '/';
    var width = img.clientWidth || (img.parentNode && img.parentNode.clientWidth) || 750;
    var want = width * (window.devicePixelRatio || 1);
    var pick = WIDTHS[WIDTHS.length - 1];
    for (var i = 0; i < WIDTHS.length; i++) if (WIDTHS[i] >= want) { pick = WIDTHS[i]; break; }
    if (local) {
      img.setAttribute('srcset', WIDTHS.map(function (w) { return withFormat(src, w) + ' ' + w + 'w'; }).join(', '));
      img.setAttribute('sizes', Math.round(width) + 'px');
      img.setAttribute('src', withFormat(src, pick));
    } else img.setAttribute('src', src);
    var fp = (img.getAttribute('data-image-focal-point') || '').split(',');
    if (fp.length === 2 && !isNaN(parseFloat(fp[0])) && !isNaN(parseFloat(fp[1]))) {
      img.style.objectPosition = parseFloat(fp[0]) * 100 + '% ' + parseFloat(fp[1]) * 100 + '%';
    }
    if (!img.getAttribute('loading')) img.setAttribute('loading', 'lazy');
    img.setAttribute('data-loaded', 'true');
  }
  function scan(root) {
    var list = (root || document).querySelectorAll('img[data-src], img[data-image]');
    for (var i = 0; i < list.length; i++) load(list[i]);
  }
  window.ImageLoader = { load: load, scan: scan };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', function () { scan(); });
  else scan();
  if (window.MutationObserver) {
    new MutationObserver(function (records) {
      for (var i = 0; i < records.length; i++) {
        var added = records[i].addedNodes;
        for (var j = 0; j < added.length; j++) {
          var n = added[j];
          if (n.nodeType !== 1) continue;
          if (n.tagName === 'IMG') load(n); else scan(n);
        }
      }
    }).observe(document.documentElement, { childList: true, subtree: true });
  }
})();
`;

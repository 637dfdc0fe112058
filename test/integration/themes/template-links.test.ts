/**
 * Issue 38, item 3: a developer template (or a Tessera theme folder) comes from a third party's git
 * repository, and git stores symlinks. No link makes Tessera serve or read a file outside the folder:
 * assets, scripts, styles and their @imports, template.conf, regions, blocks, collections, strings, the
 * Tessera theme's files under /theme/ and their image variants. Links that stay inside work. Folder files go
 * out with nosniff and a sandboxing Content-Security-Policy (an SVG opened on its own runs no script).
 * The fixtures are made here, in a temporary folder, from the repository's own test template.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gunzipSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, Visitor, type TestApp } from '../../helpers/app.js';
import { isDevTemplate, type DevTemplate } from '../../../src/server/themes/index.js';

const SECRET = 'SECRET-OUTSIDE-THE-TEMPLATE';
const ENV_MARK = 'TESSERA_LINK_TEST_ENV';

/** Links in `dir` (relative link text) that all lead out of the template folder, one of each kind. */
function leakyLinks(dir: string, outside: string, sub: string, ext: string) {
  mkdirSync(join(dir, sub), { recursive: true });
  symlinkSync(join(outside, `secret${ext}`), join(dir, sub, `out${ext}`));
  symlinkSync(`../../outside/secret${ext}`, join(dir, sub, `out-relative${ext}`));
  symlinkSync(`chain-2${ext}`, join(dir, sub, `chain-1${ext}`));
  symlinkSync(`../../outside/secret${ext}`, join(dir, sub, `chain-2${ext}`));
  if (!existsSync(join(dir, sub, 'folder'))) symlinkSync(outside, join(dir, sub, 'folder'));
}

describe('developer template and theme files never leave their folder (links)', () => {
  let base: string;
  let outside: string;
  let tpl: string;
  let themeDir: string;
  let t: TestApp;
  let tessera: TestApp;

  beforeAll(async () => {
    process.env[ENV_MARK] = SECRET;
    base = realpathSync(mkdtempSync(join(tmpdir(), 'tessera-links-')));
    outside = join(base, 'outside');
    mkdirSync(outside);
    for (const ext of ['.txt', '.js', '.svg', '.png', '.css', '.json', '.block', '.list', '.region', '.html'])
      writeFileSync(join(outside, `secret${ext}`), `${SECRET}${ext}`);
    writeFileSync(join(outside, 'secret.less'), `.leaked-rule { content: "${SECRET}"; }\n`);
    writeFileSync(join(outside, 'template.conf'), '{ "name": "Outside" }');

    // The developer template: the repository's test template, with links of every kind added.
    tpl = join(base, 'tpl');
    cpSync(resolve('test/data/dev-templates/multi-region'), tpl, { recursive: true });
    for (const ext of ['.txt', '.svg', '.png']) leakyLinks(tpl, outside, 'assets', ext);
    symlinkSync('/proc/self/environ', join(tpl, 'assets', 'env.txt'));
    symlinkSync('/dev/zero', join(tpl, 'assets', 'zero.txt'));
    symlinkSync('mark.svg', join(tpl, 'assets', 'inside.svg'));
    writeFileSync(
      join(tpl, 'assets', 'script.svg'),
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.domain)</script></svg>',
    );
    leakyLinks(tpl, outside, 'scripts', '.js');
    symlinkSync('/proc/self/environ', join(tpl, 'scripts', 'env.js'));
    // Styles: a listed stylesheet that links out, and @imports of links out (direct and through a chain).
    symlinkSync('../../outside/secret.less', join(tpl, 'styles', 'listed.less'));
    symlinkSync('../../outside/secret.less', join(tpl, 'styles', 'leak.less'));
    symlinkSync('leak-2.less', join(tpl, 'styles', 'leak-chain.less'));
    symlinkSync('../../outside/secret.less', join(tpl, 'styles', 'leak-2.less'));
    symlinkSync(outside, join(tpl, 'styles', 'folder'));
    writeFileSync(
      join(tpl, 'styles', 'layout.less'),
      `${readFileSync(join(tpl, 'styles', 'layout.less'), 'utf8')}\n@import "leak.less";\n@import "leak-chain";\n@import "folder/secret.less";\n`,
    );
    const conf = JSON.parse(readFileSync(join(tpl, 'template.conf'), 'utf8')) as { stylesheets: string[] };
    conf.stylesheets.push('listed.less');
    writeFileSync(join(tpl, 'template.conf'), JSON.stringify(conf));
    // Template files: a region, a block, a collection template, strings, a page.
    symlinkSync('../outside/secret.region', join(tpl, 'leak.region'));
    symlinkSync('../../outside/secret.block', join(tpl, 'blocks', 'leak.block'));
    symlinkSync('../../outside/secret.list', join(tpl, 'collections', 'events.list'));
    symlinkSync('../../outside/secret.json', join(tpl, 'strings', 'fr-FR.json'));
    symlinkSync('../../outside/secret.list', join(tpl, 'pages', 'leak.page'));
    symlinkSync(outside, join(tpl, 'collections', 'folder'));

    // A Tessera theme folder as THEME_DIR: its /theme/ files, their image variants, and its templates.
    themeDir = join(base, 'theme');
    cpSync(resolve('themes/default'), themeDir, { recursive: true });
    for (const ext of ['.css', '.svg', '.png']) leakyLinks(themeDir, outside, 'assets', ext);
    symlinkSync('/proc/self/environ', join(themeDir, 'assets', 'env.css'));
    symlinkSync('site.css', join(themeDir, 'assets', 'inside.css'));
    symlinkSync('../../outside/secret.block', join(themeDir, 'blocks', 'leak.block'));
    symlinkSync('../../outside/secret.html', join(themeDir, 'system', 'leak.html'));
    symlinkSync(outside, join(themeDir, 'system', 'folder'));

    t = await testApp('pglite', { THEME_DIR: tpl, RATE_LIMIT_STORE: 'memory' });
    tessera = await testApp('pglite', { THEME_DIR: themeDir, RATE_LIMIT_STORE: 'memory' });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await tessera?.close();
    delete process.env[ENV_MARK];
    if (base) rmSync(base, { recursive: true, force: true });
  });

  const refused = async (app: TestApp, paths: string[]) => {
    const v = new Visitor(app.app);
    for (const path of paths) {
      const res = await v.get(path);
      expect(res.statusCode, path).toBe(404);
      expect(res.body, path).not.toContain(SECRET);
      expect(res.body, path).not.toContain(ENV_MARK);
    }
  };

  it('serves no asset or script that links out: a file, /proc/self/environ, a device, a folder, a chain', async () => {
    await refused(t, [
      ...['.txt', '.svg', '.png'].flatMap((ext) => [
        `/assets/out${ext}`,
        `/assets/out-relative${ext}`,
        `/assets/chain-1${ext}`,
        `/assets/folder/secret${ext}`,
      ]),
      '/assets/env.txt',
      '/assets/zero.txt',
      '/assets/folder',
      ...['/scripts/out.js', '/scripts/out-relative.js', '/scripts/chain-1.js', '/scripts/folder/secret.js', '/scripts/env.js'],
    ]);
    const v = new Visitor(t.app);
    // A link that stays inside the folder is served, like the file it names.
    const inside = await v.get('/assets/inside.svg');
    expect(inside.statusCode).toBe(200);
    expect(inside.body).toBe(readFileSync(join(tpl, 'assets', 'mark.svg'), 'utf8'));
    expect((await v.get('/scripts/site.js')).statusCode).toBe(200);
  });

  it('sends template files with nosniff and a sandboxing policy: an SVG opened on its own runs no script', async () => {
    const v = new Visitor(t.app);
    for (const path of ['/assets/script.svg', '/assets/mark.svg', '/scripts/site.js', '/site.css']) {
      const res = await v.get(path);
      expect(res.statusCode, path).toBe(200);
      expect(res.headers['x-content-type-options'], path).toBe('nosniff');
      const csp = String(res.headers['content-security-policy']);
      expect(csp, path).toContain("default-src 'none'");
      expect(
        csp.split(';').map((d) => d.trim()),
        path,
      ).toContain('sandbox');
      expect(csp, path).not.toMatch(/script-src|allow-scripts/);
    }
    expect((await v.get('/assets/script.svg')).headers['content-type']).toBe('image/svg+xml');
  });

  it('compiles no stylesheet that links out: listed, @imported directly, through a chain or a linked folder', async () => {
    const css = await new Visitor(t.app).get('/site.css');
    expect(css.statusCode).toBe(200);
    expect(css.body).not.toContain(SECRET);
    expect(css.body).not.toContain('leaked-rule');
    // The template's own stylesheets and imports still compile.
    expect(css.body).toContain('border-bottom: 3px solid #2a6f4e;');
    expect(css.body).toContain('max-width: 960px;');
  });

  it('reads no template file that links out: regions, blocks, collections, pages, strings, template.conf', async () => {
    const theme = t.app.services.theme.active as DevTemplate;
    const files = theme.files();
    expect(files).toContain('template.conf');
    expect(files).toContain('assets/inside.svg');
    for (const f of files) expect(readFileSync(join(tpl, f), 'utf8'), f).not.toContain(SECRET);
    expect(files).not.toContain('collections/events.list');
    expect(files).not.toContain('leak.region');
    expect(theme.fileFor('collections/events.list')).toBeNull();
    expect(theme.fileFor('pages/leak.page')).toBeNull();
    expect(Object.keys(theme.localizedStrings)).toEqual(['en-US']);
    const events = await new Visitor(t.app).get('/events');
    expect(events.statusCode).toBe(200);
    expect(events.body).not.toContain(SECRET);
    expect(events.body).toContain('tessera-fallback-page');
    // A folder whose template.conf links out is not a template.
    const linkedConf = join(base, 'linked-conf');
    mkdirSync(linkedConf);
    symlinkSync('../outside/template.conf', join(linkedConf, 'template.conf'));
    expect(isDevTemplate(linkedConf)).toBe(false);
    expect(isDevTemplate(tpl)).toBe(true);
  });

  it('serves no /theme/ file or image variant that links out, and loads no theme template that does', async () => {
    await refused(tessera, [
      ...['.css', '.svg', '.png'].flatMap((ext) => [
        `/theme/out${ext}`,
        `/theme/out-relative${ext}`,
        `/theme/chain-1${ext}`,
        `/theme/folder/secret${ext}`,
      ]),
      '/theme/env.css',
      '/theme/out.png?format=500w',
      '/theme/chain-1.svg?format=500w',
      '/theme/folder/secret.png?format=500w',
    ]);
    const v = new Visitor(tessera.app);
    const site = await v.get('/theme/site.css');
    expect(site.statusCode).toBe(200);
    expect(site.headers['content-type']).toContain('text/css');
    expect(site.headers['x-content-type-options']).toBe('nosniff');
    expect((await v.get('/theme/inside.css')).body).toBe(site.body);
    expect(site.body).toBe(readFileSync(join(themeDir, 'assets', 'site.css'), 'utf8'));
    // Compressed on the way out like any response, and answered to HEAD.
    const zipped = await v.get('/theme/site.css', { 'accept-encoding': 'gzip' });
    expect(zipped.statusCode).toBe(200);
    expect(zipped.headers['content-encoding'] === 'gzip' ? gunzipSync(zipped.rawPayload).toString() : zipped.body).toBe(site.body);
    const head = await tessera.app.inject({ method: 'HEAD', url: '/theme/site.css' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect((await v.get('/theme/favicon.svg?format=100w')).statusCode).toBe(200);
    const theme = tessera.app.services.theme;
    expect(Object.keys(theme.partials)).not.toContain('leak.block');
    expect(theme.ownHas('system/leak.html')).toBe(false);
    expect(theme.ownHas('system/cart.html')).toBe(true);
    expect((await v.get('/')).statusCode).toBe(200);
  });
});

/** The platform layer's pure parts (server/themes): tag rewriting, template.conf, tweaks and LESS. */
import { describe, expect, it } from 'vitest';
import { newTagTables, rewriteTags } from '../../../../src/server/themes/tags.js';
import { compileLess, parseTweaks, tweakClasses, tweakValueError } from '../../../../src/server/themes/styles.js';
import { parseTemplateConf } from '../../../../src/server/themes/dev-template.js';
import { blockFieldHtml } from '../../../../src/server/themes/adapter.js';

describe('platform tags', () => {
  it('rewrites navigation, folder navigation, block fields, queries, scripts and categories into JSON-T', () => {
    const t = newTagTables();
    const out = rewriteTags(
      [
        '<squarespace:navigation navigationId="mainNav" template="nav" />',
        '<squarespace:folder-navigation template="submenu.block"/>',
        '<squarespace:block-field id="footer-blocks" columns="6" label="Footer" />',
        '<squarespace:block-field id="footer-blocks" />',
        '<squarespace:query collection="journal" limit="500" skip="50" tag="a, b" featured="true"><b>{title}</b></squarespace:query>',
        '<squarespace:script src="site.js" combo="{.if authenticatedAccount}false{.or}true{.end}" />',
        '<squarespace:category collection="{urlId}"><i>{name}</i></squarespace:category>',
        '<squarespace:module name="x" />',
      ].join('\n'),
      'site.region',
      t,
    );
    expect(out).toBe(
      [
        '{.section tesseraPlatform.navigations.mainNav}{@|apply nav.block}{.end}',
        '{.section tesseraPlatform.folderNavigation}{@|apply submenu.block}{.end}',
        '{tesseraPlatform.blockFields.f1}',
        '{tesseraPlatform.blockFields.f1}',
        '{.section tesseraPlatform.queries.qsiteregion0}<b>{title}</b>{.end}',
        '<script src="/scripts/site.js" nonce="{tesseraPlatform.nonce}" defer></script>',
        '{.section tesseraPlatform.category}<i>{name}</i>{.end}',
        '',
      ].join('\n'),
    );
    expect([...t.navigations]).toEqual(['mainNav']);
    expect([...t.blockFields.values()]).toEqual([{ id: 'footer-blocks', columns: 6, label: 'Footer' }]);
    expect(t.queries.get('qsiteregion0')).toEqual({
      key: 'qsiteregion0',
      collection: 'journal',
      limit: 100,
      skip: 10,
      category: [],
      tag: ['a', 'b'],
      featured: true,
    });
  });

  it('drops tags whose attributes would break out of JSON-T or the page', () => {
    const t = newTagTables();
    const out = rewriteTags(
      '<squarespace:navigation navigationId="a}{.end}" template="nav" /><squarespace:script src="../../secret.js" /><squarespace:query collection="x y">z</squarespace:query><squarespace:block-field id="a b" />',
      'x',
      t,
    );
    expect(out).toBe('');
    expect(t.scripts.size + t.queries.size + t.navigations.size + t.blockFields.size).toBe(0);
  });
});

describe('template.conf', () => {
  it('reads layouts, navigations and stylesheets, and makes a default layout when none is named so', () => {
    const conf = parseTemplateConf({
      name: 'N',
      author: 'A',
      layouts: { wide: { name: 'Wide', regions: ['header.region', 'body'] } },
      navigations: [{ title: 'Main', name: 'mainNav' }, { title: 'bad' }],
      stylesheets: ['a.less', 3],
    });
    expect(conf.layouts).toEqual({
      wide: { name: 'Wide', regions: ['header', 'body'] },
      default: { name: 'Wide', regions: ['header', 'body'] },
    });
    expect(conf.navigations).toEqual([{ name: 'mainNav', title: 'Main' }]);
    expect(conf.stylesheets).toEqual(['a.less']);
    expect(parseTemplateConf({}).layouts.default).toEqual({ name: 'Default', regions: ['site'] });
  });
});

describe('tweaks and LESS', () => {
  const source = [
    '// tweak: { "type": "color", "title": "Link" }',
    '@link: #112233;',
    '// tweak: { "type": "dropdown", "title": "Nav position", "options": ["Top", "Side"] }',
    '@navPosition: "Top";',
    '// tweak: { "type": "checkbox", "title": "Sticky" }',
    '@sticky: false;',
    '// tweak: { "type": "value", "title": "Gap", "min": 0, "max": 40, "units": "px" }',
    '@gap: 10px;',
    '// tweak: { not json }',
    '@ignored: 1px;',
    'a { color: @link; margin: @gap; }',
  ].join('\n');

  it('reads the declarations with their defaults', () => {
    expect(parseTweaks(source).map((t) => [t.name, t.type, t.default, t.unit])).toEqual([
      ['link', 'color', '#112233', ''],
      ['navPosition', 'dropdown', 'Top', ''],
      ['sticky', 'checkbox', 'false', ''],
      ['gap', 'value', '10px', 'px'],
    ]);
  });

  it('compiles with defaults and with the owner’s values, and ignores invalid ones', () => {
    const tweaks = parseTweaks(source);
    expect(compileLess(source, tweaks, {}).css).toBe('a {\n  color: #112233;\n  margin: 10px;\n}');
    expect(compileLess(source, tweaks, { link: '#ff0000', gap: '20' }).css).toBe('a {\n  color: #ff0000;\n  margin: 20px;\n}');
    expect(compileLess(source, tweaks, { link: 'red; } body { x: y', gap: '99' }).css).toBe('a {\n  color: #112233;\n  margin: 10px;\n}');
    expect(compileLess('a { color: ', [], {}).errors.length).toBeGreaterThan(0);
  });

  it('checks values and makes body classes', () => {
    const [link, nav, sticky, gap] = parseTweaks(source) as [never, never, never, never];
    expect(tweakValueError(link, 'rgb(1, 2, 3)')).toBeNull();
    expect(tweakValueError(link, 'url(x)')).toBe('Choose a colour for Link.');
    expect(tweakValueError(nav, 'Bottom')).toBe('Choose one of the options for Nav position.');
    expect(tweakValueError(sticky, true)).toBeNull();
    expect(tweakValueError(gap, '41px')).toBe('Gap must be between 0 and 40.');
    expect(tweakClasses(parseTweaks(source), { navPosition: 'Side', sticky: 'true' })).toEqual(['tweak-nav-position-side', 'tweak-sticky']);
  });
});

it('draws a block field with the platform layout markup', () => {
  expect(blockFieldHtml('side', 4, '')).toBe('<div class="sqs-layout sqs-grid-4 columns-4 empty" data-type="block-field" id="side"></div>');
  expect(blockFieldHtml('side', 4, '<p>x</p>')).toContain(
    '<div class="col sqs-col-4 span-4"><div class="sqs-block html-block sqs-block-html" data-block-type="2"><div class="sqs-block-content"><p>x</p></div>',
  );
});

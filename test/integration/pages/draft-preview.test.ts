/**
 * Issue 38, item 8: the editor's draft-preview iframe, on both databases. It may be framed only by this
 * origin; what lets a request see the draft (the owner's session) cannot be used by a visitor, not even
 * through a shared cache; the owner's HTML in the draft is cleaned as on the published page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { BlockType } from '../../../src/core/enums.js';
import { addBlock, addSection, createBlock, emptyLayout, type OpResult, type PageLayout } from '../../../src/core/layout.js';

const API = '/api/editor';
function must(r: OpResult): PageLayout {
  if (!r.ok) throw new Error(r.message);
  return r.layout;
}
let n = 0;
const ids = { newId: (p: string) => `${p}p${++n}` };
function layoutWith(html: string): PageLayout {
  const l = must(addSection(emptyLayout(), 0, ids));
  return must(addBlock(l, l.sections[0]!.id, createBlock(BlockType.HTML, { ...ids, data: { html } })));
}
const HOSTILE =
  '<p>Draft words</p><script>window.__pwned=1</script><img src="x" onerror="window.__pwned=1"><a href="javascript:alert(1)">x</a><iframe src="https://evil.example/"></iframe><form action="https://evil.example/"><input name="q"></form>';

describe.each(APP_KINDS)('the draft preview on %s', (kind) => {
  let t: TestApp;
  let owner: Visitor;
  let url = '';
  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    owner = new Visitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
    const made = await owner.send('POST', `${API}/pages`, { title: 'Preview attack', urlId: `preview-attack-${kind}` });
    expect(made.statusCode).toBe(201);
    const id = made.json().page.id as string;
    expect(
      (await owner.send('POST', `${API}/pages/${id}/publish`, { version: 0, layout: layoutWith('<p>Published words</p>') })).statusCode,
    ).toBe(200);
    expect((await owner.send('PUT', `${API}/pages/${id}/draft`, { version: 1, layout: layoutWith(HOSTILE) })).statusCode).toBe(200);
    url = `/preview-attack-${kind}?preview=draft`;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('may be framed only by this origin, runs sandboxed, and is never stored by a shared cache', async () => {
    const res = await owner.get(url);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Draft words');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).toMatch(/(^|; )sandbox allow-scripts/);
    expect(csp).not.toContain('allow-same-origin');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(String(res.headers['cache-control'])).toMatch(/\b(no-store|private)\b/);
  });

  it('shows a visitor the published page for the same address, with or without a forged preview cookie, before and after the owner looked', async () => {
    await owner.get(url);
    await t.app.pageCache.idle();
    for (const cookie of [undefined, 'tessera_preview=v1|drafts|', 'tessera_owner=forged; tessera_preview=v1|drafts|']) {
      const res = await t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('Published words');
      expect(res.body).not.toContain('Draft words');
    }
  });

  it('cleans the owner HTML of the draft as the published page is cleaned', async () => {
    const body = (await owner.get(url)).body;
    const at = body.indexOf('Draft words');
    const block = body.slice(body.lastIndexOf('<div', at), body.indexOf('</div>', at));
    expect(block).toContain('<p>Draft words</p>');
    expect(block).not.toMatch(/onerror|javascript:|<iframe|__pwned|<form/i);
  });
});

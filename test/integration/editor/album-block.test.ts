/**
 * The album block (block type 60: an audio playlist) with its 60-track limit, on
 * both databases: the editor's save and publish refuse a 61st track with the limit's words, a 60-track
 * album is saved, and the published page renders one native audio player and the ordered track list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { BlockType } from '../../../src/core/enums.js';
import { contentLimits } from '../../../src/core/messages.js';
import { addBlock, addSection, createBlock, emptyLayout, type OpResult, type PageLayout } from '../../../src/core/layout.js';

const API = '/api/editor';
let n = 0;
const ids = { newId: (p: string) => `${p}al${++n}` };
const must = (r: OpResult): PageLayout => {
  if (!r.ok) throw new Error(r.message);
  return r.layout;
};
const album = (count: number) => {
  const l = must(addSection(emptyLayout(), 0, ids));
  const tracks = Array.from({ length: count }, (_, i) => ({ title: `Song ${i + 1}`, url: `https://cdn.example.net/audio/${i + 1}.mp3` }));
  return must(
    addBlock(l, l.sections[0]!.id, createBlock(BlockType.ALBUM, { ...ids, data: { title: 'Night Drives', artist: 'The Spokes', tracks } })),
  );
};

describe.each(APP_KINDS)('album block on %s', (kind) => {
  let t: TestApp;
  let owner: Visitor;
  let page: { id: string; urlId: string };
  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    owner = new Visitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
    const made = await owner.send('POST', `${API}/pages`, { title: 'Listen' });
    expect(made.statusCode).toBe(201);
    page = made.json().page;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a 61st track on save and publish, keeps 60, and renders an accessible playlist', async () => {
    const over = album(61);
    const r1 = await owner.send('PUT', `${API}/pages/${page.id}/draft`, { version: 0, layout: over });
    expect(r1.statusCode).toBe(400);
    expect(r1.json().message).toBe(contentLimits.albumTrackLimit(60));
    expect(r1.json().message).toBe('An album can have at most 60 tracks.');
    expect(r1.json().errors['sections.0.blocks.0.data.tracks']).toBe('An album can have at most 60 tracks.');
    const r2 = await owner.send('POST', `${API}/pages/${page.id}/publish`, { version: 0, layout: over });
    expect(r2.statusCode).toBe(400);
    expect(r2.json().message).toBe('An album can have at most 60 tracks.');

    // A track needs a title and a real audio address.
    const bad = album(2);
    (bad.sections[0]!.blocks[0]!.data.tracks as Array<Record<string, string>>)[1]!.url = 'javascript:alert(1)';
    const r3 = await owner.send('PUT', `${API}/pages/${page.id}/draft`, { version: 0, layout: bad });
    expect(r3.statusCode).toBe(400);
    expect(Object.keys(r3.json().errors)).toContain('sections.0.blocks.0.data.tracks.1.url');

    const full = album(60);
    const ok = await owner.send('POST', `${API}/pages/${page.id}/publish`, { version: 0, layout: full });
    expect(ok.statusCode, ok.body).toBe(200);
    const html = (await new Visitor(t.app).get(`/${page.urlId}`)).body;
    const block = html.slice(html.indexOf('data-island="AlbumPlayer"'));
    expect(block).toMatch(
      /<audio[^>]* controls=""[^>]*src="https:\/\/cdn\.example\.net\/audio\/1\.mp3"[^>]*aria-label="Night Drives: Song 1"/,
    );
    expect(block).toContain('aria-label="Night Drives tracks"');
    const items = block.slice(block.indexOf('<ol'), block.indexOf('</ol>')).match(/<li /g) ?? [];
    expect(items).toHaveLength(60);
    expect(block).toMatch(/<a href="https:\/\/cdn\.example\.net\/audio\/1\.mp3" aria-current="true">Song 1<\/a>/);
    expect(block).toContain('<a href="https://cdn.example.net/audio/60.mp3">Song 60</a>');
    expect(html).toContain('The Spokes');
  });
});

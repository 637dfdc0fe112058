import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { OwnerService } from '../../../src/server/platform/owners.js';
import { schema } from '../../../src/db/index.js';
import { BlockType, RecordType, Role } from '../../../src/core/enums.js';
import { addBlock, addSection, createBlock, emptyLayout, type OpResult, type PageLayout } from '../../../src/core/layout.js';
import { UPLOAD_PUBLISHED } from '../../../src/server/editor/routes.js';

const API = '/api/editor';
const PW = 'a long enough password';

function must(r: OpResult): PageLayout {
  if (!r.ok) throw new Error(r.message);
  return r.layout;
}
let n = 0;
const ids = { newId: (p: string) => `${p}d${++n}` };
const withPicture = (url: string) => {
  const l = must(addSection(emptyLayout(), 0, ids));
  return must(
    addBlock(
      l,
      l.sections[0].id,
      createBlock(BlockType.IMAGE_CARD, { ...ids, data: { assetUrl: url, altText: 'A bowl', originalSize: '32x32', title: 'Bowl' } }),
    ),
  );
};

async function signIn(app: FastifyInstance, email: string, password: string): Promise<Visitor> {
  const v = new Visitor(app);
  expect((await v.send('POST', '/api/auth/login', { email, password })).statusCode).toBe(200);
  return v;
}

/**
 * Issue 38: a draft editor (role 16, drafts only) adds uploads and may rename or delete those only drafts use,
 * but not an upload that published content names: removing it would change the live site, which is publishing.
 */
describe.each(APP_KINDS)('a draft editor and uploads that published content uses, on %s', (kind) => {
  let t: TestApp;
  let dataDir: string;
  let owner: Visitor;
  let drafter: Visitor;
  let editor: Visitor;
  let png: Buffer;

  const upload = async (v: Visitor, name: string) => {
    const crumb = await v.crumb();
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/uploads?name=${encodeURIComponent(name)}`,
      headers: { cookie: [...v.cookies].map(([k, x]) => `${k}=${x}`).join('; '), 'x-csrf-token': crumb, 'content-type': 'image/png' },
      payload: png,
    });
    expect(res.statusCode).toBe(201);
    return res.json().upload as { id: string; url: string };
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tessera-draft-uploads-'));
    t = await testApp(kind, { DATA_DIR: dataDir, RATE_LIMIT_STORE: 'memory' });
    png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#996633' } })
      .png()
      .toBuffer();
    const owners = new OwnerService(t.database);
    await owners.create({ websiteId: t.seed.websiteId, email: 'drafter@example.com', password: PW, role: Role.DRAFT_EDITOR });
    await owners.create({ websiteId: t.seed.websiteId, email: 'editor@example.com', password: PW, role: Role.EDITOR });
    owner = await signIn(t.app, OWNER.email, OWNER.password);
    drafter = await signIn(t.app, 'drafter@example.com', PW);
    editor = await signIn(t.app, 'editor@example.com', PW);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('renames an upload only a draft uses, but neither renames nor deletes it once the page is published', async () => {
    const page = (await owner.send('POST', `${API}/pages`, { title: 'Bowls' })).json().page as { id: string };
    const pic = await upload(drafter, 'bowl.png');
    const draft = await drafter.send('PUT', `${API}/pages/${page.id}/draft`, { version: 0, layout: withPicture(pic.url) });
    expect(draft.statusCode).toBe(200);
    expect((await drafter.send('PUT', `${API}/uploads/${pic.id}`, { name: 'bowl-draft.png' })).statusCode).toBe(200);

    expect((await owner.send('POST', `${API}/pages/${page.id}/publish`, { version: draft.json().page.version })).statusCode).toBe(200);
    const rename = await drafter.send('PUT', `${API}/uploads/${pic.id}`, { name: 'gone.png' });
    expect(rename.statusCode).toBe(403);
    expect(rename.json().message).toBe(UPLOAD_PUBLISHED);
    const remove = await drafter.send('DELETE', `${API}/uploads/${pic.id}`);
    expect(remove.statusCode).toBe(403);
    expect(remove.json().message).toBe(UPLOAD_PUBLISHED);
    expect((await new Visitor(t.app).get(pic.url)).statusCode).toBe(200);
    const [kept] = await t.database.db.select().from(schema.uploads).where(eq(schema.uploads.id, pic.id));
    expect(kept?.name).toBe('bowl-draft.png');

    // A role that publishes may.
    expect((await editor.send('PUT', `${API}/uploads/${pic.id}`, { name: 'bowl-live.png' })).statusCode).toBe(200);
    expect((await owner.send('DELETE', `${API}/uploads/${pic.id}`)).statusCode).toBe(204);
  });

  it('nor one a product that is not a draft shows; an upload nothing uses it deletes', async () => {
    const pic = await upload(owner, 'mug.png');
    const [product] = await t.database.db.select().from(schema.items).where(eq(schema.items.recordType, RecordType.STORE_ITEM)).limit(1);
    await t.database.db
      .update(schema.items)
      .set({ assets: [...product!.assets, { assetUrl: pic.url, originalSize: '32x32', altText: 'Mug' }], status: 'published' })
      .where(eq(schema.items.id, product!.id));
    expect((await drafter.send('DELETE', `${API}/uploads/${pic.id}`)).statusCode).toBe(403);
    // Once that product is a draft again, nothing visitors see shows the picture.
    await t.database.db.update(schema.items).set({ status: 'draft' }).where(eq(schema.items.id, product!.id));
    expect((await drafter.send('DELETE', `${API}/uploads/${pic.id}`)).statusCode).toBe(204);

    const spare = await upload(drafter, 'spare.png');
    expect((await drafter.send('DELETE', `${API}/uploads/${spare.id}`)).statusCode).toBe(204);
    expect((await drafter.send('DELETE', `${API}/uploads/no-such-upload`)).statusCode).toBe(404);
  });
});

/**
 * Issue 30, editor messages over HTTP: a newsletter block must name a mailing list, a Vimeo address of a
 * Basic account is refused (through a local stand-in speaking Vimeo's oEmbed JSON), an upload still
 * processing answers 202 and its job is polled (a processing that never finished is settled as
 * 'File processing failed to complete'), and the time zones Site settings lists are the server's.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { FastifyInstance } from 'fastify';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { schema } from '../../../src/db/index.js';
import { BlockType } from '../../../src/core/enums.js';
import { editor as edm, platform as pm } from '../../../src/core/messages.js';
import { addBlock, addSection, createBlock, emptyLayout, type PageLayout, type OpResult } from '../../../src/core/layout.js';
import { CONTACT_FORM_ID, NEWSLETTER_FORM_ID } from '../../../src/server/forms/seed.js';
import { STALE_PROCESSING_MS } from '../../../src/server/storage/index.js';
import { checkBlockReferences, VimeoOembed } from '../../../src/server/editor/block-checks.js';

const API = '/api/editor';

function must(r: OpResult): PageLayout {
  if (!r.ok) throw new Error(r.message);
  return r.layout;
}
let n = 0;
const ids = { newId: (p: string) => `${p}m${++n}` };
function layoutWith(...blocks: Array<ReturnType<typeof createBlock>>): PageLayout {
  let l = must(addSection(emptyLayout(), 0, ids));
  for (const b of blocks) l = must(addBlock(l, l.sections[0].id, b));
  return l;
}

/** Vimeo's oEmbed, as far as the check reads it: 111111 is a Basic account's video, 222222 refuses embedding (403), others are Pro. */
function vimeoStandIn(): Promise<{ server: Server; url: string; asked: string[] }> {
  const asked: string[] = [];
  const server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const video = u.searchParams.get('url') ?? '';
    asked.push(video);
    const id = /vimeo\.com\/(\d+)$/.exec(video)?.[1];
    if (!id) return void res.writeHead(404).end();
    if (id === '222222') return void res.writeHead(403, { 'content-type': 'application/json' }).end('{"domain_status_code":403}');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        type: 'video',
        version: '1.0',
        provider_name: 'Vimeo',
        title: `Video ${id}`,
        video_id: Number(id),
        account_type: id === '111111' ? 'basic' : 'pro',
        html: '<iframe></iframe>',
      }),
    );
  });
  return new Promise((done) =>
    server.listen(0, '127.0.0.1', () =>
      done({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/oembed.json`, asked }),
    ),
  );
}

async function upload(app: FastifyInstance, v: Visitor, name: string, body: Buffer) {
  return app.inject({
    method: 'POST',
    url: `${API}/uploads?name=${encodeURIComponent(name)}`,
    headers: {
      cookie: [...v.cookies].map(([k, x]) => `${k}=${x}`).join('; '),
      'x-csrf-token': await v.crumb(),
      'content-type': 'application/octet-stream',
    },
    payload: body,
  });
}

describe.each(APP_KINDS)('editor messages on %s', (kind) => {
  let t: TestApp;
  let owner: Visitor;
  let dataDir: string;
  let pageId: string;
  let vimeo: Awaited<ReturnType<typeof vimeoStandIn>>;
  let version = 0;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tessera-editor-msgs-'));
    vimeo = await vimeoStandIn();
    t = await testApp(kind, { DATA_DIR: dataDir, RATE_LIMIT_STORE: 'memory', VIMEO_OEMBED_URL: vimeo.url, UPLOAD_PROCESSING_WAIT_MS: '0' });
    owner = new Visitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', OWNER)).statusCode).toBe(200);
    const res = await owner.send('POST', `${API}/pages`, { title: 'Messages' });
    expect(res.statusCode).toBe(201);
    pageId = res.json().page.id;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    vimeo?.server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const saveDraft = async (layout: PageLayout) => {
    const res = await owner.send('PUT', `${API}/pages/${pageId}/draft`, { version, layout });
    if (res.statusCode === 200) version = res.json().page.version;
    return res;
  };

  it("a newsletter block without a mailing list, or with a form that is not one, is refused: 'A List must be selected' on its field", async () => {
    const path = 'sections.0.blocks.0.data.formId';
    const none = await saveDraft(layoutWith(createBlock(BlockType.NEWSLETTER, ids)));
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ message: pm.LIST_MUST_BE_SELECTED, errors: { [path]: pm.LIST_MUST_BE_SELECTED } });
    // The contact form exists but signs nobody up to a list; an unknown id names nothing.
    for (const formId of [CONTACT_FORM_ID, 'no-such-list']) {
      const res = await saveDraft(layoutWith(createBlock(BlockType.NEWSLETTER, { ...ids, data: { formId } })));
      expect(res.statusCode, formId).toBe(400);
      expect(res.json().errors).toEqual({ [path]: pm.LIST_MUST_BE_SELECTED });
    }
    // Publishing with the layout is checked the same way.
    const pub = await owner.send('POST', `${API}/pages/${pageId}/publish`, {
      version,
      layout: layoutWith(createBlock(BlockType.NEWSLETTER, ids)),
    });
    expect(pub.statusCode).toBe(400);
    expect(pub.json().errors).toEqual({ [path]: pm.LIST_MUST_BE_SELECTED });
    const ok = await saveDraft(layoutWith(createBlock(BlockType.NEWSLETTER, { ...ids, data: { formId: NEWSLETTER_FORM_ID } })));
    expect(ok.statusCode).toBe(200);
  });

  it("a video block's Vimeo address is resolved through oEmbed: a Basic account or a refused embed is 'Vimeo Basic accounts are unsupported'", async () => {
    vimeo.asked.length = 0;
    const video = (url: string) => createBlock(BlockType.VIDEO, { ...ids, data: { url } });
    for (const url of ['https://vimeo.com/111111', 'https://player.vimeo.com/video/222222']) {
      const res = await saveDraft(layoutWith(createBlock(BlockType.HTML, ids), video(url)));
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toMatchObject({
        message: pm.VIMEO_BASIC_UNSUPPORTED,
        errors: { 'sections.0.blocks.1.data.url': pm.VIMEO_BASIC_UNSUPPORTED },
      });
    }
    const pro = await saveDraft(layoutWith(video('https://vimeo.com/333333')));
    expect(pro.statusCode).toBe(200);
    // YouTube and file addresses are not Vimeo's to answer; a second save of a known address is not asked again.
    expect(
      (await saveDraft(layoutWith(video('https://www.youtube.com/watch?v=abcdefgh'), video('https://vimeo.com/333333')))).statusCode,
    ).toBe(200);
    expect(vimeo.asked).toEqual(['https://vimeo.com/111111', 'https://vimeo.com/222222', 'https://vimeo.com/333333']);
  });

  it('a video address whose oEmbed cannot be reached is taken unchecked (a site without internet still saves)', async () => {
    const offline = new VimeoOembed('http://127.0.0.1:9/api/oembed.json');
    expect(await offline.verdict('https://vimeo.com/111111')).toBe('unknown');
    const layout = layoutWith(createBlock(BlockType.VIDEO, { ...ids, data: { url: 'https://vimeo.com/111111' } }));
    await expect(checkBlockReferences(t.database.db, t.seed.websiteId, layout, offline)).resolves.toBeUndefined();
    await expect(checkBlockReferences(t.database.db, t.seed.websiteId, layout, new VimeoOembed(vimeo.url))).rejects.toMatchObject({
      status: 400,
      message: pm.VIMEO_BASIC_UNSUPPORTED,
    });
  });

  it('an image still processing answers 202 and its job is polled until ready; a processing that never finished is settled as failed to complete', async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#2a6' } })
      .png()
      .toBuffer();
    const res = await upload(t.app, owner, 'swatch.png', png);
    expect(res.statusCode).toBe(202);
    const up = res.json().upload;
    expect(up.status).toBe('processing');
    // Polled (as the editor does) until the processing has ended.
    const job = await vi.waitFor(
      async () => {
        const poll = await owner.get(`${API}/uploads/${up.id}`);
        expect(poll.statusCode).toBe(200);
        const u = poll.json().upload as { status: string; originalSize: string | null };
        expect(u.status).not.toBe('processing');
        return u;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(job).toMatchObject({ status: 'ready', originalSize: '40x30' });

    // A row its instance left 'processing' (stopped mid-way): read later, it is failed to complete.
    const websiteId = t.seed.websiteId;
    const old = new Date(Date.now() - STALE_PROCESSING_MS - 1000);
    await t.database.db.insert(schema.uploads).values({
      id: 'a'.repeat(24),
      websiteId,
      kind: 'image',
      name: 'left.png',
      storedName: `${'a'.repeat(24)}.png`,
      contentType: 'image/png',
      bytes: 10,
      status: 'processing',
      createdAt: old,
      updatedAt: old,
    });
    const fresh = new Date();
    await t.database.db.insert(schema.uploads).values({
      id: 'b'.repeat(24),
      websiteId,
      kind: 'image',
      name: 'busy.png',
      storedName: `${'b'.repeat(24)}.png`,
      contentType: 'image/png',
      bytes: 10,
      status: 'processing',
      createdAt: fresh,
      updatedAt: fresh,
    });
    const stale = await owner.get(`${API}/uploads/${'a'.repeat(24)}`);
    expect(stale.json().upload).toMatchObject({ status: 'failed', error: edm.FILE_PROCESSING_INCOMPLETE });
    const list = (await owner.get(`${API}/uploads`)).json().uploads as Array<{ name: string; status: string; error: string | null }>;
    expect(list.find((u) => u.name === 'left.png')).toMatchObject({ status: 'failed', error: edm.FILE_PROCESSING_INCOMPLETE });
    // Still within its time: still processing.
    expect(list.find((u) => u.name === 'busy.png')).toMatchObject({ status: 'processing', error: null });
    expect((await owner.get(`${API}/uploads/nothing-here`)).statusCode).toBe(404);
    expect((await new Visitor(t.app).get(`${API}/uploads/${up.id}`)).statusCode).toBe(401);
  });

  it('the time zones Site settings lists are the server’s, for owners only', async () => {
    const res = await owner.get('/api/admin/time-zones');
    expect(res.statusCode).toBe(200);
    const zones = res.json().timeZones as string[];
    expect(zones).toEqual(expect.arrayContaining(['Europe/Paris', 'America/New_York', 'Asia/Tokyo']));
    expect((await new Visitor(t.app).get('/api/admin/time-zones')).statusCode).toBe(401);
  });
});

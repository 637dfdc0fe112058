/**
 * Media in an S3-compatible bucket (issue #31, point 4), against a real local S3 server (s3rver): two
 * instances with their own DATA_DIRs on one PostgreSQL and one bucket. An image uploaded through one is
 * served in every width by the other; deleting it deletes its variants; a member file is refused to a
 * visitor on both and reaches a member through a presigned URL that expires; media moved from local disk
 * by the media:to-bucket command keep their URLs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { existsSync, readdirSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import { OWNER, otherInstance, testApp, Visitor, type OtherInstance, type TestApp } from '../helpers/app.js';
import { startS3, type S3StandIn } from '../helpers/s3-server.js';
import { tempDir } from '../helpers/process.js';
import { SRCSET_WIDTHS } from '../../src/core/constants.js';
import { rows } from '../../src/server/db-util.js';
import { loadConfig } from '../../src/server/config.js';
import { S3MediaStore, s3OptionsOf } from '../../src/server/storage/media-store.js';
import { moveMediaToBucket } from '../../src/server/storage/move.js';
import { memberFileKey } from '../../src/server/members/service.js';
import { confirmed } from '../helpers/orders.js';

const FILE_BYTES = Buffer.from('%PDF-1.4\nmember-only worksheet bytes 0123456789\n', 'latin1');

async function signIn(app: FastifyInstance): Promise<Visitor> {
  const v = new Visitor(app);
  const res = await v.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password });
  expect(res.statusCode).toBe(200);
  return v;
}

/** The same visitor (its cookies) on another instance. */
function on(app: FastifyInstance, v: Visitor): Visitor {
  const w = new Visitor(app);
  w.cookies = new Map(v.cookies);
  return w;
}

async function rawPost(app: FastifyInstance, v: Visitor, url: string, body: Buffer, headers: Record<string, string>) {
  const crumb = await v.crumb();
  return app.inject({
    method: 'POST',
    url,
    payload: body,
    headers: { cookie: [...v.cookies].map(([k, x]) => `${k}=${x}`).join('; '), 'x-csrf-token': crumb, ...headers },
  });
}

const uploadImage = (app: FastifyInstance, v: Visitor, name: string, body: Buffer) =>
  rawPost(app, v, `/api/editor/uploads?name=${encodeURIComponent(name)}`, body, { 'content-type': 'application/octet-stream' });

async function mailedLink(t: TestApp, to: string, path: string): Promise<string | null> {
  const r = await rows<{ text_body: string }>(
    t.database.db,
    sql`select text_body from mail_outbox where to_address = ${to} order by id desc`,
  );
  for (const m of r) {
    const hit = m.text_body
      .match(/https?:\/\/\S+/g)
      ?.map((u) => new URL(u))
      .find((u) => u.pathname === path);
    if (hit) return hit.pathname + hit.search;
  }
  return null;
}

/** `npm run media:to-bucket` (through scripts/cli.mjs, on the sources) with this environment. */
function runCli(env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/cli.mjs', 'media-to-bucket-cli', '--tsx'], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

const filesIn = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String) : []);

describe('media in an S3-compatible bucket, two instances on PostgreSQL', () => {
  let s3: S3StandIn;
  let a: TestApp;
  let b: OtherInstance;
  let local: OtherInstance;
  let store: S3MediaStore;
  const dirA = tempDir('tessera-s3-a-');
  const dirB = tempDir('tessera-s3-b-');
  const dirL = tempDir('tessera-s3-local-');
  let ownerA: Visitor;
  let photo: Buffer;

  beforeAll(async () => {
    s3 = await startS3();
    a = await testApp('postgres', { DATA_DIR: dirA, ...s3.env });
    b = await otherInstance(a, { DATA_DIR: dirB, ...s3.env });
    local = await otherInstance(a, { DATA_DIR: dirL });
    store = new S3MediaStore(s3OptionsOf(loadConfig(s3.env))!);
    ownerA = await signIn(a.app);
    photo = await sharp({ create: { width: 1600, height: 900, channels: 3, background: { r: 200, g: 80, b: 40 } } })
      .jpeg()
      .toBuffer();
  }, 120_000);

  afterAll(async () => {
    await local?.close();
    await b?.close();
    await a?.close();
    await s3?.close().catch(() => undefined);
  });

  it('reports the bucket in /ready on every instance', async () => {
    for (const app of [a.app, b.app]) {
      const r = await app.inject({ method: 'GET', url: '/ready' });
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json().checks.media).toBe('ok');
    }
    expect((await local.app.inject({ method: 'GET', url: '/ready' })).json().checks.media).toBeUndefined();
  });

  it('serves an image uploaded through one instance from the other, in every width, and deletes its variants with it', async () => {
    const up = await uploadImage(a.app, ownerA, 'Kiln.jpg', photo);
    expect(up.statusCode, up.body).toBe(201);
    const { url, id } = up.json().upload as { url: string; id: string };
    const storedName = url.split('/').pop()!;
    // In the bucket, not on either machine's disk.
    expect(await store.size(`uploads/${storedName}`)).toBe(photo.length);
    expect(filesIn(join(dirA, 'uploads'))).toEqual([]);

    const original = await b.app.inject({ method: 'GET', url });
    expect(original.statusCode).toBe(200);
    expect(original.headers['content-type']).toBe('image/jpeg');
    expect(original.rawPayload.equals(photo)).toBe(true);
    for (const w of SRCSET_WIDTHS) {
      const res = await b.app.inject({ method: 'GET', url: `${url}?format=${w}w`, headers: { accept: 'image/webp,*/*' } });
      expect(res.statusCode, `${w}w`).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      const meta = await sharp(res.rawPayload).metadata();
      expect(meta.format).toBe('webp');
      expect(meta.width, `${w}w`).toBe(Math.min(w, 1600));
    }
    const jpeg = await a.app.inject({ method: 'GET', url: `${url}?format=500w`, headers: { accept: 'image/jpeg' } });
    expect(jpeg.headers['content-type']).toBe('image/jpeg');
    expect((await sharp(jpeg.rawPayload).metadata()).width).toBe(500);
    // Each width was made once into the bucket, by whichever instance was asked first.
    const variants = await store.list(`uploads/variants/${storedName}/`);
    expect(variants).toEqual(expect.arrayContaining(SRCSET_WIDTHS.map((w) => `uploads/variants/${storedName}/${w}.webp`)));
    expect(variants).toContain(`uploads/variants/${storedName}/500.jpg`);
    expect(filesIn(join(dirB, 'uploads'))).toEqual([]);
    expect((await b.app.inject({ method: 'GET', url: `${url}?format=301w` })).statusCode).toBe(400);

    const del = await ownerA.send('DELETE', `/api/editor/uploads/${id}`);
    expect(del.statusCode).toBe(204);
    expect(await store.list(`uploads/variants/${storedName}/`)).toEqual([]);
    expect(await store.size(`uploads/${storedName}`)).toBeNull();
    expect((await b.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    expect((await b.app.inject({ method: 'GET', url: `${url}?format=300w` })).statusCode).toBe(404);
  });

  it('refuses a member file to a visitor on both instances and serves it to a member through a presigned URL that expires', async () => {
    const up = await rawPost(a.app, ownerA, '/api/members/files', FILE_BYTES, {
      'content-type': 'application/pdf',
      'x-file-name': 'worksheet.pdf',
    });
    expect(up.statusCode, up.body).toBe(201);
    const { url: fileUrl, id } = up.json() as { url: string; id: string };
    expect(await store.size(memberFileKey(id))).toBe(FILE_BYTES.length);
    const course = await ownerA.send('POST', '/api/members/courses', { title: 'Glazing', description: 'Glazes.' });
    expect(course.statusCode, course.body).toBe(201);
    const lesson = await ownerA.send('POST', `/api/members/courses/${course.json().id}/lessons`, {
      title: 'Worksheet',
      chapter: 'One',
      videoUrl: fileUrl,
      durationSeconds: 60,
      body: '<p>Read it.</p>',
    });
    expect(lesson.statusCode, lesson.body).toBe(201);
    const area = await ownerA.send('POST', '/api/members/areas', {
      name: 'Glaze Club',
      description: 'Members only.',
      access: 'free',
      priceCents: 0,
      collectionIds: [course.json().id],
    });
    expect(area.statusCode, area.body).toBe(201);
    const areaId = area.json().id as string;

    for (const app of [a.app, b.app]) {
      const res = await new Visitor(app).get(fileUrl);
      expect(res.statusCode).toBe(403);
      expect(res.headers.location).toBeUndefined();
      expect(res.body).not.toContain('X-Amz-Signature');
    }

    // A visitor becomes a member of the free area (join, confirm by the emailed link) through instance A.
    const member = new Visitor(a.app);
    const asked = await member.send('POST', `/api/members/areas/${areaId}/join`, {
      email: 'potter@example.com',
      password: 'a long enough password',
    });
    expect(asked.statusCode, asked.body).toBe(202);
    const link = await mailedLink(a, 'potter@example.com', '/account/confirm');
    expect(link).not.toBeNull();
    expect((await member.get(link!)).statusCode).toBe(303);

    // On instance B, the member is sent to a presigned URL of the configured lifetime; the bucket serves it.
    const memberB = on(b.app, member);
    const res = await memberB.get(fileUrl);
    expect(res.statusCode).toBe(302);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const signed = new URL(String(res.headers.location));
    expect(signed.origin).toBe(s3.endpoint);
    expect(signed.searchParams.get('X-Amz-Expires')).toBe('300');
    expect(signed.searchParams.get('X-Amz-Credential')).toMatch(/^S3RVER\//);
    expect(signed.href).not.toContain('S3_SECRET');
    const got = await fetch(signed);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await got.arrayBuffer()).equals(FILE_BYTES)).toBe(true);
    // Range requests go to the bucket, which answers them.
    const part = await fetch(signed, { headers: { range: 'bytes=4-11' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(FILE_BYTES.subarray(4, 12))).toBe(true);
    // A URL signed longer ago than its lifetime is refused by the bucket.
    const old = await store.signedUrl(memberFileKey(id), {
      filename: 'worksheet.pdf',
      contentType: 'application/pdf',
      signingDate: new Date(Date.now() - 301_000),
    });
    expect((await fetch(old)).status).toBe(403);
    // Still refused to a visitor on both.
    expect((await new Visitor(b.app).get(fileUrl)).statusCode).toBe(403);
  });

  it('delivers a digital download after payment from the bucket, whichever instance answers', async () => {
    const up = await rawPost(a.app, ownerA, `/api/editor/uploads?name=${encodeURIComponent('Field guide.pdf')}`, FILE_BYTES, {
      'content-type': 'application/octet-stream',
    });
    expect(up.statusCode, up.body).toBe(201);
    const fileUrl = up.json().upload.url as string;
    const itemId = a.seed.productIds['houseplant-field-guide']!;
    await a.database.db.execute(
      sql`update items set structured_content = structured_content || ${JSON.stringify({ digitalFile: { url: fileUrl } })}::jsonb where id = ${itemId}`,
    );
    // The shopper buys through instance B.
    const shopper = new Visitor(b.app);
    const add = await shopper.send('POST', '/api/commerce/shopping-cart/entries', { itemId, sku: 'EBOOK-PLANTS', quantity: 1 });
    expect(add.statusCode, add.body).toBe(200);
    const placed = await shopper.send(
      'POST',
      '/api/checkout/place-order',
      await confirmed(shopper, {
        email: 'reader@example.com',
        payment: { type: 'card', number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123', name: 'Reader' },
        idempotencyKey: `media-bucket-${Date.now()}`,
      }),
    );
    expect(placed.statusCode, placed.body).toBe(200);
    const page = await shopper.get(placed.json().confirmationUrl);
    const link = /href="(\/order-download\/[^"]+)"/.exec(page.body)![1]!.replace(/&amp;/g, '&');
    // The signed download link, followed on instance A, leads to the file, which B serves from the bucket.
    const dl = await on(a.app, shopper).get(link);
    expect(dl.statusCode).toBe(302);
    expect(dl.headers.location).toBe(fileUrl);
    const file = await b.app.inject({ method: 'GET', url: fileUrl });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.rawPayload.equals(FILE_BYTES)).toBe(true);
    expect(filesIn(join(dirA, 'uploads'))).toEqual([]);
  });

  it('keeps every URL working for media moved from local disk into the bucket by the command', async () => {
    const ownerL = on(local.app, ownerA);
    const up = await uploadImage(local.app, ownerL, 'Local.jpg', photo);
    expect(up.statusCode, up.body).toBe(201);
    const url = up.json().upload.url as string;
    const storedName = url.split('/').pop()!;
    expect(existsSync(join(dirL, 'uploads', storedName))).toBe(true);
    const file = await rawPost(local.app, ownerL, '/api/members/files', FILE_BYTES, {
      'content-type': 'application/pdf',
      'x-file-name': 'moved.pdf',
    });
    expect(file.statusCode, file.body).toBe(201);
    const fileUrl = file.json().url as string;
    // Before the move, the bucket instance has neither.
    expect((await b.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    expect((await on(b.app, ownerA).get(fileUrl)).statusCode).toBe(200); // still in the database: served as before

    const lines: string[] = [];
    const report = await moveMediaToBucket(a.database, dirL, store, (l) => lines.push(l));
    expect(report).toMatchObject({ uploads: 1, skipped: 1, missing: 0, memberFiles: 1 });
    expect(lines.at(-1)).toContain('moved 1 uploads');
    // The command (npm run media:to-bucket) runs the same move: again, nothing is left to move.
    const dbUrl = (a.database as typeof a.database & { url?: string }).url!;
    // Run asynchronously: the S3 stand-in answers from this very process.
    const cli = await runCli({ ...s3.env, DATABASE_URL: dbUrl, DATA_DIR: dirL, LOG_LEVEL: 'silent' });
    expect(cli.status, cli.stdout + cli.stderr).toBe(0);
    // Besides the moved upload, the bucket holds the uploads instance A wrote there itself (the digital download).
    expect(cli.stdout).toContain('moved 0 uploads (2 already in the bucket, 0 missing on disk) and 0 member files');
    expect(cli.stdout + cli.stderr).not.toContain('S3RVER');
    const noBucket = await runCli({ DATABASE_URL: dbUrl, DATA_DIR: dirL, S3_BUCKET: '' });
    expect(noBucket.status).toBe(2);
    expect(noBucket.stderr).toContain('S3_BUCKET is not set');

    const original = await b.app.inject({ method: 'GET', url });
    expect(original.statusCode).toBe(200);
    expect(original.rawPayload.equals(photo)).toBe(true);
    const w = await b.app.inject({ method: 'GET', url: `${url}?format=750w`, headers: { accept: 'image/jpeg' } });
    expect(w.statusCode).toBe(200);
    expect((await sharp(w.rawPayload).metadata()).width).toBe(750);
    const moved = await on(b.app, ownerA).get(fileUrl);
    expect(moved.statusCode).toBe(302);
    const got = await fetch(String(moved.headers.location));
    expect(Buffer.from(await got.arrayBuffer()).equals(FILE_BYTES)).toBe(true);
  });

  it('answers 503 (not 500) for bucket media and /ready while the bucket is down', async () => {
    const up = await uploadImage(a.app, ownerA, 'Late.jpg', photo);
    expect(up.statusCode, up.body).toBe(201);
    const url = up.json().upload.url as string;
    await s3.close();
    const res = await b.app.inject({ method: 'GET', url: `${url}?format=100w` });
    expect(res.statusCode).toBe(503);
    expect(res.json().message).toBe('Media storage is unavailable. Try again in a moment.');
    expect((await b.app.inject({ method: 'GET', url })).statusCode).toBe(503);
    const ready = await b.app.inject({ method: 'GET', url: '/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().checks.media).toBe('failed');
  });
});

describe('media storage configuration and the local default', () => {
  it('validates the S3 variables and never echoes the credentials', () => {
    const secret = 'x'.repeat(600);
    const err = (() => {
      try {
        loadConfig({ S3_BUCKET: 'media', S3_ACCESS_KEY_ID: 'AKIDEXAMPLE', S3_SECRET_ACCESS_KEY: secret });
      } catch (e) {
        return String((e as Error).message);
      }
      return '';
    })();
    expect(err).toContain('S3_SECRET_ACCESS_KEY="(hidden)"');
    expect(err).not.toContain(secret);
    expect(() => loadConfig({ S3_BUCKET: 'Bad_Bucket' })).toThrow(/S3_BUCKET="Bad_Bucket": must be a bucket name/);
    expect(() => loadConfig({ S3_BUCKET: 'media', S3_ACCESS_KEY_ID: 'AKIDEXAMPLE' })).toThrow(/set both, or neither/);
    expect(() => loadConfig({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(/S3_BUCKET: needed/);
    expect(() => loadConfig({ S3_BUCKET: 'media', S3_ENDPOINT: 'ftp://x' })).toThrow(/S3_ENDPOINT/);
    expect(() => loadConfig({ S3_BUCKET: 'media', MEDIA_SIGNED_URL_SECONDS: '5' })).toThrow(/MEDIA_SIGNED_URL_SECONDS/);
    const ok = loadConfig({ S3_BUCKET: 'media', S3_FORCE_PATH_STYLE: 'true' });
    expect(s3OptionsOf(ok)).toMatchObject({ bucket: 'media', region: 'us-east-1', forcePathStyle: true, signedUrlSeconds: 300 });
    expect(s3OptionsOf(loadConfig({}))).toBeNull();
  });

  it('on local disk (the default), deleting an upload also deletes its generated widths', async () => {
    const dir = tempDir('tessera-local-media-');
    const t = await testApp('pglite', { DATA_DIR: dir });
    try {
      const owner = await signIn(t.app);
      const img = await sharp({ create: { width: 800, height: 400, channels: 3, background: { r: 10, g: 120, b: 90 } } })
        .png()
        .toBuffer();
      const up = await uploadImage(t.app, owner, 'Local.png', img);
      expect(up.statusCode, up.body).toBe(201);
      const { url, id } = up.json().upload as { url: string; id: string };
      for (const w of [100, 500])
        expect((await t.app.inject({ method: 'GET', url: `${url}?format=${w}w`, headers: { accept: 'image/webp' } })).statusCode).toBe(200);
      const cache = join(dir, 'cache', 'images');
      expect(filesIn(cache).length).toBeGreaterThanOrEqual(3); // 300w made at upload, 100w and 500w on request
      expect((await owner.send('DELETE', `/api/editor/uploads/${id}`)).statusCode).toBe(204);
      expect(filesIn(cache)).toEqual([]);
      expect(filesIn(join(dir, 'uploads'))).toEqual([]);
      expect((await t.app.inject({ method: 'GET', url: `${url}?format=100w` })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});

/**
 * Member areas in Chromium (issue #14): a visitor meets the access-denied page of a video course, presses
 * Join, creates an account, confirms it through the emailed link, pays the subscription in test mode, reaches membership confirmed, watches lesson
 * 1 and sees their progress; the owner sees the member and the paywall events in /config.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, liveSite, signInAsOwner, watchConsole, type BrowserSession, type LiveSite } from '../../helpers/browser.js';
import { OWNER, Visitor } from '../../helpers/app.js';
import { sql } from 'drizzle-orm';
import { rows } from '../../../src/server/db-util.js';
import { members as membersMessages } from '../../../src/core/messages.js';
import { formatFileSize } from '../../../src/core/time.js';
import { expectNoAxeViolations } from '../../helpers/axe.js';

/** One EBML element: its id bytes, an 8-byte size and the payload. */
function ebml(id: number, ...payload: Buffer[]): Buffer {
  const body = Buffer.concat(payload);
  const size = Buffer.alloc(8);
  size.writeBigUInt64BE(BigInt(body.length));
  size[0] = 0x01; // an 8-byte EBML size (the length fits in the other 7 bytes)
  return Buffer.concat([Buffer.from(id.toString(16), 'hex'), size, body]);
}
const uint = (id: number, n: number) => ebml(id, Buffer.from([n >> 8, n & 0xff]));
const text = (id: number, s: string) => ebml(id, Buffer.from(s, 'latin1'));

/**
 * A real one-second WebM video (no video files in the repository): Chromium's own VP8 encoder (WebCodecs)
 * encodes 15 canvas frames stamped 1/15 s apart, so the video lasts a second without the test waiting one;
 * the frames are put in a WebM container here.
 */
async function recordWebm(page: Page): Promise<Buffer> {
  const [W, H, FPS] = [160, 90, 15];
  const frames = await page.evaluate(
    async ({ W, H, FPS }) => {
      const canvas = new OffscreenCanvas(W, H);
      const ctx = canvas.getContext('2d')!;
      const out: Array<{ key: boolean; ms: number; b64: string }> = [];
      let failed: unknown = null;
      const enc = new VideoEncoder({
        output: (chunk) => {
          const buf = new Uint8Array(chunk.byteLength);
          chunk.copyTo(buf);
          let s = '';
          for (const x of buf) s += String.fromCharCode(x);
          out.push({ key: chunk.type === 'key', ms: Math.round(chunk.timestamp / 1000), b64: btoa(s) });
        },
        error: (e) => (failed = e),
      });
      enc.configure({ codec: 'vp8', width: W, height: H, bitrate: 200_000, framerate: FPS });
      for (let n = 0; n < FPS; n++) {
        ctx.fillStyle = `hsl(${(n * 20) % 360} 60% 50%)`;
        ctx.fillRect(0, 0, W, H);
        const frame = new VideoFrame(canvas, { timestamp: Math.round((n * 1e6) / FPS), duration: Math.round(1e6 / FPS) });
        enc.encode(frame, { keyFrame: n === 0 });
        frame.close();
      }
      await enc.flush();
      if (failed) throw failed;
      return out;
    },
    { W, H, FPS },
  );
  const duration = Buffer.alloc(8);
  duration.writeDoubleBE(1000);
  const header = ebml(
    0x1a45dfa3,
    uint(0x4286, 1),
    uint(0x42f7, 1),
    uint(0x42f2, 4),
    uint(0x42f3, 8),
    text(0x4282, 'webm'),
    uint(0x4287, 2),
    uint(0x4285, 2),
  );
  const info = ebml(
    0x1549a966,
    ebml(0x2ad7b1, Buffer.from([0x0f, 0x42, 0x40])),
    text(0x4d80, 'tessera-test'),
    text(0x5741, 'tessera-test'),
    ebml(0x4489, duration),
  );
  const video = ebml(0xe0, uint(0xb0, W), uint(0xba, H));
  const tracks = ebml(0x1654ae6b, ebml(0xae, uint(0xd7, 1), uint(0x73c5, 1), uint(0x83, 1), text(0x86, 'V_VP8'), video));
  const blocks = frames.map((f) => {
    const head = Buffer.alloc(4);
    head[0] = 0x81; // track 1
    head.writeInt16BE(f.ms, 1); // time relative to the cluster's (0), in ms
    head[3] = f.key ? 0x80 : 0;
    return ebml(0xa3, head, Buffer.from(f.b64, 'base64'));
  });
  const cluster = ebml(0x1f43b675, uint(0xe7, 0), ...blocks);
  return Buffer.concat([header, ebml(0x18538067, info, tracks, cluster)]);
}

describe('member areas in Chromium', () => {
  let site: LiveSite;
  let b: BrowserSession;
  let owner: Visitor;
  let courseUrl: string;
  /** The uploaded lesson video's size in bytes. */
  let videoBytes = 0;

  beforeAll(async () => {
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory' }), launchBrowser()]);
    owner = new Visitor(site.app);
    expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
    const recorder = await b.browser.newPage();
    await recorder.goto(`${site.url}/health`);
    const video = await recordWebm(recorder);
    await recorder.close();
    expect(video.length).toBeGreaterThan(100);
    videoBytes = video.length;
    const crumb = await owner.crumb();
    const up = await site.app.inject({
      method: 'POST',
      url: '/api/members/files',
      headers: {
        cookie: [...owner.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        'x-csrf-token': crumb,
        'content-type': 'video/webm',
        'x-file-name': 'centering.webm',
      },
      payload: video,
    });
    expect(up.statusCode, up.body).toBe(201);
    const course = (
      await owner.send('POST', '/api/members/courses', { title: 'Pottery basics', description: 'Throwing on the wheel, step by step.' })
    ).json();
    courseUrl = course.fullUrl;
    for (const l of [
      {
        title: 'Centering clay',
        chapter: 'Getting started',
        videoUrl: up.json().url,
        durationSeconds: 1,
        body: '<p>Wet hands, steady elbows.</p>',
      },
      { title: 'Opening the form', chapter: 'Getting started', embedUrl: 'https://player.vimeo.com/video/76979871' },
      { title: 'Trimming', chapter: 'Finishing', embedUrl: 'https://www.youtube-nocookie.com/embed/abc123' },
    ]) {
      const r = await owner.send('POST', `/api/members/courses/${course.id}/lessons`, l);
      expect(r.statusCode, r.body).toBe(201);
    }
    const area = await owner.send('POST', '/api/members/areas', {
      name: 'Pottery School',
      description: 'Every lesson of the course, new ones each month.',
      access: 'subscription',
      priceCents: 1200,
      billingUnit: 'MONTH',
      billingValue: 1,
      collectionIds: [course.id],
    });
    expect(area.statusCode, area.body).toBe(201);
  }, 90_000);

  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  it('a visitor joins through the access-denied page, pays in test mode, watches lesson 1 and sees progress; the owner sees it all', async () => {
    const context = await b.browser.newContext();
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${site.url}${courseUrl}`);
    await page.getByRole('heading', { name: 'Pottery basics', level: 1 }).waitFor();
    await page.getByText('This page is for members.').waitFor();
    expect(await page.locator('body').getAttribute('data-page-type')).toBe('106');
    expect(await page.getByText('Centering clay').count()).toBe(0);
    await expectNoAxeViolations(page, { include: ['main'] });

    await page.getByRole('link', { name: 'Join', exact: true }).click();
    await page.getByRole('heading', { name: 'Join Pottery School' }).waitFor();
    await page.getByText('$12.00 every month').waitFor();
    await expectNoAxeViolations(page, { include: ['main'] });
    await page.getByLabel('Name').fill('Ada Potter');
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Password').fill('a long password');
    await page.getByRole('button', { name: 'Join Pottery School' }).click();

    // The address is proved first: the page says to check the mailbox, and the emailed link (read from the
    // outbox) confirms it, signs the visitor in and brings them back to the join page.
    await page.getByRole('status').filter({ hasText: membersMessages.JOIN_CHECK_EMAIL }).waitFor();
    await expectNoAxeViolations(page, { include: ['main'] });
    const mail = await rows<{ text_body: string }>(
      site.database.db,
      sql`select text_body from mail_outbox where to_address = 'ada@example.com' and kind = 'site-user-confirm' order by id desc limit 1`,
    );
    const link = /https?:\/\/\S+\/account\/confirm\?\S+/.exec(mail[0]!.text_body)![0];
    expect(link.startsWith(`${site.url}/`)).toBe(true);
    await page.goto(link);
    await page.getByText('Signed in as ada@example.com.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/members/join/pottery-school');
    await page.getByRole('button', { name: 'Join Pottery School' }).click();

    await page.getByRole('heading', { name: 'Checkout', level: 1 }).waitFor();
    await page.getByText(/Subscription: \$12\.00/).waitFor();
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Name on card').fill('Ada Potter');
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM/YY)').fill('12/40');
    await page.getByLabel('Security code (CVC)').fill('123');
    await page.getByRole('button', { name: 'Place order' }).click();

    await page.getByRole('heading', { name: 'Membership confirmed' }).waitFor({ timeout: 10_000 });
    expect(await page.locator('body').getAttribute('data-page-type')).toBe('208');
    await page.getByText('Welcome to Pottery School. You can now see everything in it.').waitFor();
    await page.getByText('(test mode)').waitFor();
    await expectNoAxeViolations(page, { include: ['main'] });

    await page.getByRole('navigation', { name: 'Member area' }).getByRole('link', { name: 'Pottery basics' }).click();
    await page.getByRole('heading', { name: 'Getting started' }).waitFor();
    await page.getByText('0 of 3 lessons complete').waitFor();
    await page.getByRole('navigation', { name: 'Member areas' }).getByRole('link', { name: 'Pottery basics' }).waitFor();
    await expectNoAxeViolations(page, { include: ['main'] });

    await page.getByRole('link', { name: 'Centering clay' }).click();
    await page.getByRole('heading', { name: 'Centering clay', level: 1 }).waitFor();
    await expectNoAxeViolations(page, { include: ['main'] });
    const video = page.locator('video');
    // The member's browser plays the uploaded lesson video to its end.
    await video.evaluate(async (v: HTMLVideoElement) => {
      v.muted = true;
      await v.play();
    });
    await video.evaluate((v: HTMLVideoElement) =>
      v.ended ? undefined : new Promise((ended) => v.addEventListener('ended', ended, { once: true })),
    );
    const played = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
    expect(played).toBeGreaterThan(0.3);
    await page.getByRole('button', { name: 'Mark lesson complete' }).click();
    await page.getByRole('status').filter({ hasText: 'Completed · 1 of 3 lessons complete' }).waitFor();
    await page.getByRole('link', { name: 'Next lesson: Opening the form' }).click();
    await page.getByRole('heading', { name: 'Opening the form', level: 1 }).waitFor();
    expect(await page.locator('iframe[title="Opening the form"]').count()).toBe(1);
    // The third-party player link goes through the site (a recorded click) to the player.
    const [popup] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('link', { name: /Watch on player\.vimeo\.com/ }).click(),
    ]);
    await popup.close().catch(() => undefined);
    await page.goto(`${site.url}${courseUrl}`);
    await page.getByText('1 of 3 lessons complete').waitFor();
    expect(await page.locator('.video-lesson--completed').count()).toBe(1);
    expect(problems.filter((p) => !/ERR_|Failed to load resource|net::|vimeo/i.test(p))).toEqual([]);
    await context.close();

    // The owner sees the member and the paywall events.
    await site.app.analytics.ingest.drain();
    const ownerContext = await b.browser.newContext();
    const admin = await ownerContext.newPage();
    await signInAsOwner(admin, site, '/config/members');
    await admin.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    const members = admin.getByRole('table', { name: 'Members' });
    await members.getByRole('row', { name: /ada@example\.com Ada Potter Pottery School active/ }).waitFor();
    const events = admin.getByRole('table', { name: 'Paywall events' });
    const count = async (label: string) =>
      Number(
        await events
          .getByRole('row', { name: new RegExp(`^${label}`) })
          .getByRole('cell')
          .textContent(),
      );
    expect(await count('Access-denied page views')).toBeGreaterThanOrEqual(1);
    expect(await count('Join button clicks')).toBe(1);
    expect(await count('Video list page views')).toBeGreaterThanOrEqual(2);
    expect(await count('Video details page views')).toBeGreaterThanOrEqual(2);
    expect(await count('Third-party video clicks')).toBe(1);
    // The member files are offered with their sizes in the Bytes…YB units.
    const videos = admin.getByRole('form', { name: 'Add a lesson' }).getByLabel('Uploaded video');
    expect(await videos.locator('option').allTextContents()).toContain(`centering.webm (${formatFileSize(videoBytes)})`);
    expect(formatFileSize(videoBytes)).toMatch(/^\d+(\.\d{1,2})? (Bytes|KB|MB)$/);
    // The owner edits the area's join page text.
    await admin.getByRole('button', { name: 'Edit Pottery School' }).click();
    const form = admin.getByRole('form', { name: 'Edit a member area' });
    expect(await form.getByLabel('Price (USD)').inputValue()).toBe('12.00');
    await form.getByLabel('Join page text').fill('All lessons, new ones monthly.');
    await form.getByRole('button', { name: 'Save member area' }).click();
    await admin.getByRole('status').filter({ hasText: 'The member area is saved.' }).waitFor();
    const joinPage = await new Visitor(site.app).get('/members/join/pottery-school');
    expect(joinPage.body).toContain('All lessons, new ones monthly.');
    await ownerContext.close();
  }, 120_000);

  it('the lock screen: a visitor enters the site password (a wrong one is refused) and browses for the visit', async () => {
    // The owner sets the site password on the Members screen.
    const ownerContext = await b.browser.newContext();
    const admin = await ownerContext.newPage();
    await signInAsOwner(admin, site, '/config/members');
    await admin.getByText('The site is open to everyone.').waitFor();
    await admin.getByLabel('New site password').fill('open sesame');
    await admin.getByRole('button', { name: 'Set site password' }).click();
    await admin.getByRole('status').filter({ hasText: 'The site password is set.' }).waitFor();
    // The owner still sees the site.
    await admin.goto(`${site.url}/shop`);
    await admin
      .getByRole('link', { name: /Linen Camp Shirt/ })
      .first()
      .waitFor();

    const context = await b.browser.newContext();
    const page = await context.newPage();
    const res = await page.goto(`${site.url}/shop`);
    expect(res?.status()).toBe(403);
    await page.getByRole('heading', { name: 'This site is private', level: 1 }).waitFor();
    expect(await page.locator('body').getAttribute('data-page-type')).toBe('103');
    expect(await page.getByText('Linen Camp Shirt').count()).toBe(0);
    await expectNoAxeViolations(page, { include: ['main'] });
    await page.getByLabel('Password').fill('wrong guess');
    await page.getByRole('button', { name: 'Enter' }).click();
    await page.getByRole('alert').filter({ hasText: 'That password is not right. Please try again.' }).waitFor();
    expect(await page.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Password').fill('open sesame');
    await page.getByRole('button', { name: 'Enter' }).click();
    await page.waitForURL(`${site.url}/shop`);
    await page
      .getByRole('link', { name: /Linen Camp Shirt/ })
      .first()
      .waitFor();
    await page.goto(`${site.url}/journal`);
    await page.getByRole('heading', { name: 'Journal', level: 1 }).waitFor();
    await context.close();
    // A new visit meets the lock screen again.
    const fresh = await b.browser.newContext();
    const p2 = await fresh.newPage();
    await p2.goto(`${site.url}/journal`);
    await p2.getByRole('heading', { name: 'This site is private' }).waitFor();
    await fresh.close();
    await admin.goto(`${site.url}/config/members`);
    await admin.getByRole('button', { name: 'Remove site password' }).click();
    // A destructive action asks first.
    await admin
      .getByRole('alertdialog', { name: 'Remove the site password?' })
      .getByRole('button', { name: 'Remove site password' })
      .click();
    await admin.getByRole('status').filter({ hasText: 'The site is open again.' }).waitFor();
    await ownerContext.close();
    expect((await new Visitor(site.app).get('/journal')).statusCode).toBe(200);
  }, 60_000);
});
